// A WHIP publisher's SDP offer, read before anything is spent on it: one video section with
// H.264 (packetization-mode 1, which is what the packager copies) and at most one audio section
// with Opus, with the ICE and DTLS lines WebRTC needs. What passes is cut down to those two
// codecs before the WebRTC stack sees it, so the answer names nothing else: the publisher has
// no choice but to send what the ingest can package. Anything else is refused with a sentence
// saying what was wrong.

/** An offer longer than this is not one a publisher sends (Chromium's is about 6 KB). */
export const MAX_OFFER_BYTES = 32 * 1024;
const MAX_LINES = 1000;
const MAX_LINE_LENGTH = 4096;

export class OfferError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OfferError';
  }
}

export interface OfferedMedia {
  /** The payload type the publisher will send the codec with. */
  payloadType: number;
  /** The section's a=mid. */
  mid: string;
}

export interface AcceptedOffer {
  /** The offer with only the chosen codec left in each section. */
  sdp: string;
  video: OfferedMedia & { profileLevelId: string | undefined };
  audio: (OfferedMedia & { channels: number }) | undefined;
}

interface Section {
  kind: string;
  port: string;
  proto: string;
  formats: string[];
  lines: string[];
}

/** Reads and narrows an offer, or throws an OfferError saying what is wrong with it. */
export function acceptOffer(text: string): AcceptedOffer {
  if (Buffer.byteLength(text) > MAX_OFFER_BYTES) {
    throw new OfferError(`The SDP offer is longer than ${MAX_OFFER_BYTES} bytes.`);
  }
  const lines = text.split(/\r?\n/).filter((line) => line !== '');
  if (lines.length > MAX_LINES) throw new OfferError(`The SDP offer has more than ${MAX_LINES} lines.`);
  if (lines[0] !== 'v=0') throw new OfferError('The body is not an SDP offer (it must start with v=0).');
  const session: string[] = [];
  const sections: Section[] = [];
  for (const line of lines) {
    if (line.length > MAX_LINE_LENGTH || !/^[a-z]=[\t\x20-\x7e]*$/.test(line)) {
      throw new OfferError('The SDP offer has a line that is not "<letter>=<printable text>".');
    }
    if (line.startsWith('m=')) {
      const [kind = '', port = '', proto = '', ...formats] = line.slice(2).split(' ');
      if (
        !/^\d+$/.test(port) ||
        !proto ||
        formats.length === 0 ||
        formats.some((f) => !/^\d{1,3}$/.test(f))
      ) {
        throw new OfferError(`The SDP offer has a malformed media line: ${line.slice(0, 80)}`);
      }
      sections.push({ kind, port, proto, formats, lines: [] });
    } else {
      (sections.at(-1)?.lines ?? session).push(line);
    }
  }
  const videos = sections.filter((section) => section.kind === 'video');
  const audios = sections.filter((section) => section.kind === 'audio');
  if (videos.length !== 1 || audios.length > 1 || sections.length !== videos.length + audios.length) {
    throw new OfferError(
      'A WHIP offer must have one video track and at most one audio track, and nothing else.',
    );
  }
  for (const section of sections) checkSection(section, session);
  const videoSection = videos[0] as Section;
  const h264 = chooseCodec(
    videoSection,
    (codec, fmtp) => codec === 'h264/90000' && /packetization-mode=1/.test(fmtp),
  );
  if (!h264) {
    throw new OfferError(
      'The video track must offer H.264 with packetization-mode=1 (the stream is packaged as H.264).',
    );
  }
  const audioSection = audios[0];
  const opus = audioSection && chooseCodec(audioSection, (codec) => codec.startsWith('opus/48000'));
  if (audioSection && !opus) throw new OfferError('The audio track must offer Opus.');
  const narrowed = [
    ...session,
    ...sections.flatMap((section) => narrow(section, section === videoSection ? h264 : (opus as number))),
  ];
  const profile = /profile-level-id=([0-9a-fA-F]{6})/.exec(fmtpOf(videoSection, h264))?.[1];
  return {
    sdp: `${narrowed.join('\r\n')}\r\n`,
    video: { payloadType: h264, mid: midOf(videoSection), profileLevelId: profile?.toLowerCase() },
    audio:
      audioSection && opus !== undefined
        ? { payloadType: opus, mid: midOf(audioSection), channels: 2 }
        : undefined,
  };
}

function checkSection(section: Section, session: readonly string[]): void {
  const has = (prefix: string) =>
    section.lines.some((line) => line.startsWith(prefix)) || session.some((line) => line.startsWith(prefix));
  if (!section.proto.includes('SAVPF')) {
    throw new OfferError(`The ${section.kind} track must use UDP/TLS/RTP/SAVPF (WebRTC).`);
  }
  for (const [prefix, what] of [
    ['a=ice-ufrag:', 'a=ice-ufrag'],
    ['a=ice-pwd:', 'a=ice-pwd'],
    ['a=fingerprint:', 'a DTLS fingerprint'],
    ['a=mid:', 'a=mid'],
  ] as const) {
    if (!has(prefix)) throw new OfferError(`The ${section.kind} track has no ${what}.`);
  }
  if (section.lines.some((line) => line === 'a=recvonly' || line === 'a=inactive')) {
    throw new OfferError(`The ${section.kind} track must be sendonly (a WHIP publisher sends).`);
  }
  if (section.lines.some((line) => line.startsWith('a=simulcast:') || line.startsWith('a=rid:'))) {
    throw new OfferError('Simulcast is not taken: send one encoding (the ingest makes the ladder).');
  }
}

/** The first of the section's formats (the publisher's preference) that `fits`. */
function chooseCodec(section: Section, fits: (codec: string, fmtp: string) => boolean): number | undefined {
  for (const format of section.formats) {
    const rtpmap = section.lines.find((line) => line.startsWith(`a=rtpmap:${format} `));
    if (!rtpmap) continue;
    const codec = rtpmap.slice(`a=rtpmap:${format} `.length).toLowerCase();
    if (fits(codec, fmtpOf(section, Number(format)))) return Number(format);
  }
  return undefined;
}

function fmtpOf(section: Section, format: number): string {
  return section.lines.find((line) => line.startsWith(`a=fmtp:${format} `)) ?? '';
}

function midOf(section: Section): string {
  return (section.lines.find((line) => line.startsWith('a=mid:')) ?? 'a=mid:').slice('a=mid:'.length);
}

/** The section with `format` its only codec (other codecs' and retransmission lines dropped). */
function narrow(section: Section, format: number): string[] {
  const other = /^a=(rtpmap|fmtp|rtcp-fb):(\d+)[ ]/;
  const kept = section.lines.filter((line) => {
    const match = other.exec(line);
    if (match) return Number(match[2]) === format;
    return !line.startsWith('a=ssrc-group:');
  });
  return [`m=${section.kind} ${section.port} ${section.proto} ${format}`, ...kept];
}

/**
 * The answer with the bitrate hints Chrome reads (x-google-*-bitrate, kb/s) on the video
 * codec's fmtp: without them its estimate starts low and stays at 480x270 for a long while.
 */
export function withBitrateHints(
  answer: string,
  videoPayloadType: number,
  kbps: { start: number; min: number; max: number },
): string {
  const hints = `x-google-start-bitrate=${kbps.start};x-google-min-bitrate=${kbps.min};x-google-max-bitrate=${kbps.max}`;
  const lines = answer.split(/\r?\n/);
  const fmtp = `a=fmtp:${videoPayloadType} `;
  const at = lines.findIndex((line) => line.startsWith(fmtp));
  if (at >= 0) lines[at] = `${lines[at]};${hints}`;
  else {
    const rtpmap = lines.findIndex((line) => line.startsWith(`a=rtpmap:${videoPayloadType} `));
    if (rtpmap >= 0) lines.splice(rtpmap + 1, 0, `${fmtp}${hints}`);
  }
  return lines.join('\r\n');
}
