// FLV (Adobe's Video File Format Specification 10.1, annex E) for the packager's input: the
// file header, then each RTMP audio or video message as one tag, whose body is the message
// payload unchanged.

/** The 9-byte header for a file with audio and video, and PreviousTagSize0. */
export function flvHeader(): Buffer {
  return Buffer.from([0x46, 0x4c, 0x56, 0x01, 0x05, 0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x00]);
}

/** One tag (type 8 audio, 9 video) and the PreviousTagSize that follows it. */
export function flvTag(type: number, timestamp: number, payload: Buffer): Buffer {
  const tag = Buffer.alloc(11 + payload.length + 4);
  tag[0] = type;
  tag.writeUIntBE(payload.length, 1, 3);
  // 24 low bits, then the high 8 bits in TimestampExtended.
  tag.writeUIntBE(timestamp & 0xffffff, 4, 3);
  tag[7] = (timestamp >>> 24) & 0xff;
  // StreamID (3 bytes) is always 0.
  payload.copy(tag, 11);
  tag.writeUInt32BE(11 + payload.length, 11 + payload.length);
  return tag;
}

export type TagKind = 'header' | 'video-config' | 'audio-config' | 'keyframe' | 'other';

/** What one chunk the RTMP connection writes is: the FLV header or one tag. */
export function tagKind(chunk: Buffer): TagKind {
  if (chunk.length >= 3 && chunk.toString('latin1', 0, 3) === 'FLV') return 'header';
  if (chunk.length < 13) return 'other';
  const first = chunk[11] ?? 0;
  const second = chunk[12] ?? 0;
  if (chunk[0] === 9) {
    // FrameType 1 is a keyframe; AVCPacketType 0 the decoder configuration.
    if (second === 0 && (first & 0x0f) === 7) return 'video-config';
    if (first >> 4 === 1) return 'keyframe';
  }
  // SoundFormat 10 is AAC; AACPacketType 0 the AudioSpecificConfig.
  if (chunk[0] === 8 && first >> 4 === 10 && second === 0) return 'audio-config';
  return 'other';
}

/** The tag's timestamp in milliseconds, undefined for the header. */
export function tagTimestamp(chunk: Buffer): number | undefined {
  if (chunk.length < 11 || (chunk[0] !== 8 && chunk[0] !== 9)) return undefined;
  return chunk.readUIntBE(4, 3) + (chunk[7] ?? 0) * 0x1000000;
}
