// Which codec an RTMP audio or video message carries (the first byte of its payload, as in
// FLV's AUDIODATA and VIDEODATA, Adobe's FLV specification 10.1 annex E, plus the FourCC of
// Enhanced RTMP's extended headers). The packager copies media into MPEG-TS segments without
// re-encoding, so only what every HLS player plays can go through: H.264 video and AAC audio.
// Anything else is refused with a message naming the codec and the setting to change, rather
// than packaged into segments players cannot decode.

export interface CodecRefusal {
  kind: 'video' | 'audio';
  /** The codec's usual name (`Sorenson H.263`, `MP3`, `HEVC`...). */
  codec: string;
  /** What the encoder shows: the codec and what to set instead. */
  description: string;
}

const VIDEO_CODECS: Record<number, string> = {
  1: 'JPEG',
  2: 'Sorenson H.263',
  3: 'Screen Video',
  4: 'On2 VP6',
  5: 'On2 VP6 with alpha',
  6: 'Screen Video 2',
  7: 'H.264',
  12: 'HEVC',
};

const AUDIO_CODECS: Record<number, string> = {
  0: 'PCM',
  1: 'ADPCM',
  2: 'MP3',
  3: 'PCM',
  4: 'Nellymoser',
  5: 'Nellymoser',
  6: 'Nellymoser',
  7: 'G.711 A-law',
  8: 'G.711 mu-law',
  10: 'AAC',
  11: 'Speex',
  14: 'MP3',
  15: 'device-specific audio',
};

const FOURCC_NAMES: Record<string, string> = {
  avc1: 'H.264',
  hvc1: 'HEVC',
  av01: 'AV1',
  vp08: 'VP8',
  vp09: 'VP9',
  Opus: 'Opus',
  fLaC: 'FLAC',
  'ac-3': 'AC-3',
  'ec-3': 'E-AC-3',
  '.mp3': 'MP3',
  mp4a: 'AAC',
};

/** The codec of one audio (8) or video (9) message; undefined for an empty message. */
export function codecOf(type: 8 | 9, payload: Buffer): string | undefined {
  const first = payload[0];
  if (first === undefined) return undefined;
  if (type === 9) {
    // Enhanced RTMP: the top bit marks an extended header, followed by the codec's FourCC.
    if (first & 0x80) return fourCc(payload, 'video');
    return VIDEO_CODECS[first & 0x0f] ?? `video codec id ${first & 0x0f}`;
  }
  const format = first >> 4;
  if (format === 9) return fourCc(payload, 'audio');
  return AUDIO_CODECS[format] ?? `audio format ${format}`;
}

/** Why this message's codec cannot be published, or undefined when it can (or says nothing). */
export function codecRefusal(type: 8 | 9, payload: Buffer): CodecRefusal | undefined {
  const codec = codecOf(type, payload);
  if (codec === undefined) return undefined;
  if (type === 9) {
    if (codec === 'H.264') return undefined;
    return {
      kind: 'video',
      codec,
      description: `Video codec ${codec} is not supported. Set the encoder's video codec to H.264 (x264, NVENC, QuickSync or AMF) and start again.`,
    };
  }
  if (codec === 'AAC') return undefined;
  return {
    kind: 'audio',
    codec,
    description: `Audio codec ${codec} is not supported. Set the encoder's audio codec to AAC and start again.`,
  };
}

/**
 * The codec named by an Enhanced RTMP header. The packager's FLV reader only knows the classic
 * framing, so even H.264 or AAC framed this way is refused (named as such).
 */
function fourCc(payload: Buffer, kind: 'video' | 'audio'): string {
  if (payload.length < 5) return `an unnamed ${kind} codec`;
  const code = payload.toString('latin1', 1, 5);
  // Printable names only, so nothing odd reaches the encoder's screen or the log.
  const name = FOURCC_NAMES[code] ?? (/^[\x20-\x7e]{4}$/.test(code) ? `'${code}'` : undefined);
  return name === undefined ? `an unnamed ${kind} codec` : `${name} (Enhanced RTMP)`;
}
