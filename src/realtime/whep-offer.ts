// What the realtime path needs from a viewer's WHEP offer (an SDP offer, RFC 8866 / JSEP): the
// video line's H.264 payload type (packetization mode 1, Baseline, Constrained Baseline or
// Main: what browsers decode without B-frames), the audio line's Opus payload type, and the
// playout-delay extension's id. The offer is checked before any WebRTC object exists: hostile
// input costs a parse of a bounded string, nothing more.

/** The largest offer read: a browser's is 4-12 KiB. Larger bodies are refused with 413. */
export const MAX_OFFER_BYTES = 32 * 1024;
const MAX_LINES = 2_000;
const MAX_MEDIA_SECTIONS = 16;

export const PLAYOUT_DELAY_URI = 'http://www.webrtc.org/experiments/rtp-hdrext/playout-delay';

export interface OfferedMedia {
  mid: string;
  payloadType: number;
}

export interface WhepOffer {
  video: OfferedMedia & { profileLevelId: string; playoutDelayId: number | undefined };
  audio: OfferedMedia | undefined;
}

/** Why an offer cannot be answered; its message is the API error's. */
export class OfferError extends Error {}

interface Section {
  kind: string;
  direction: string;
  mid: string | undefined;
  rtpmap: Map<number, string>;
  fmtp: Map<number, string>;
  extmap: Map<string, number>;
}

/**
 * The offered H.264 formats to answer with, best first, for the profile the stream is sent in
 * (profile_idc: 66 Baseline, 77 Main, 100 High): the smallest offered profile that covers it.
 * Chromium offers Constrained Baseline (42e0), Baseline (4200), Main (4d00) and High 4:4:4
 * (f400) but not High (6400); its decoder plays High under f400. Unknown profiles (the
 * re-encoded picture is Baseline) take Baseline first.
 */
function profilePreference(streamProfile: number | undefined): string[] {
  if (streamProfile === 100) return ['6400', 'f400', '4d00', '42e0', '4200'];
  if (streamProfile === 77) return ['4d00', '6400', 'f400', '42e0', '4200'];
  return ['42e0', '4200', '4d00', '6400', 'f400'];
}

export function parseWhepOffer(sdp: string, streamProfile?: number): WhepOffer {
  if (!sdp.startsWith('v=0')) throw new OfferError('The body is not an SDP offer (it must start with v=0).');
  const lines = sdp.split(/\r?\n/);
  if (lines.length > MAX_LINES) throw new OfferError(`The offer has more than ${MAX_LINES} lines.`);
  const sections: Section[] = [];
  let sessionDirection = 'sendrecv';
  let fingerprint = false;
  for (const line of lines) {
    if (line.startsWith('m=')) {
      const kind = line.slice(2).split(' ')[0] ?? '';
      sections.push({
        kind,
        direction: sessionDirection,
        mid: undefined,
        rtpmap: new Map(),
        fmtp: new Map(),
        extmap: new Map(),
      });
      if (sections.length > MAX_MEDIA_SECTIONS)
        throw new OfferError(`The offer has more than ${MAX_MEDIA_SECTIONS} media sections.`);
      continue;
    }
    if (line.startsWith('a=fingerprint:')) fingerprint = true;
    const section = sections.at(-1);
    const direction = /^a=(sendrecv|sendonly|recvonly|inactive)$/.exec(line)?.[1];
    if (direction !== undefined) {
      if (section) section.direction = direction;
      else sessionDirection = direction;
      continue;
    }
    if (!section) continue;
    if (line.startsWith('a=mid:')) section.mid = line.slice(6).trim();
    const rtpmap = /^a=rtpmap:(\d{1,3}) ([^\s]+)/.exec(line);
    if (rtpmap) section.rtpmap.set(Number(rtpmap[1]), (rtpmap[2] ?? '').toLowerCase());
    const fmtp = /^a=fmtp:(\d{1,3}) (.*)$/.exec(line);
    if (fmtp) section.fmtp.set(Number(fmtp[1]), (fmtp[2] ?? '').toLowerCase());
    const extmap = /^a=extmap:(\d{1,2})(?:\/\w+)? ([^\s]+)/.exec(line);
    if (extmap) section.extmap.set(extmap[2] ?? '', Number(extmap[1]));
  }
  if (!fingerprint) throw new OfferError('The offer has no DTLS fingerprint (a=fingerprint).');
  const videoSection = sections.find((s) => s.kind === 'video');
  if (!videoSection) throw new OfferError('The offer has no video media section.');
  const video = pickH264(videoSection, profilePreference(streamProfile));
  const audioSection = sections.find((s) => s.kind === 'audio');
  const audio = audioSection ? pickOpus(audioSection) : undefined;
  const delayId = videoSection.extmap.get(PLAYOUT_DELAY_URI);
  return {
    video: {
      ...video,
      // One-byte header extensions carry ids 1-14.
      playoutDelayId: delayId !== undefined && delayId >= 1 && delayId <= 14 ? delayId : undefined,
    },
    audio,
  };
}

function receiving(section: Section): boolean {
  return section.direction === 'recvonly' || section.direction === 'sendrecv';
}

function midOf(section: Section): string {
  if (section.mid === undefined || !/^[\w-]{1,32}$/.test(section.mid))
    throw new OfferError(`The offer's ${section.kind} section has no valid a=mid.`);
  return section.mid;
}

function pickH264(section: Section, preference: string[]): Omit<WhepOffer['video'], 'playoutDelayId'> {
  if (!receiving(section)) throw new OfferError('The offer does not receive video (recvonly or sendrecv).');
  const mid = midOf(section);
  let best: { payloadType: number; profileLevelId: string; rank: number } | undefined;
  for (const [payloadType, codec] of section.rtpmap) {
    if (codec !== 'h264/90000' || payloadType < 96 || payloadType > 127) continue;
    const params = new Map(
      (section.fmtp.get(payloadType) ?? '').split(';').map((p) => {
        const [k, v] = p.trim().split('=');
        return [k ?? '', v ?? ''] as const;
      }),
    );
    if (params.get('packetization-mode') !== '1') continue;
    const profileLevelId = params.get('profile-level-id') ?? '';
    if (!/^[0-9a-f]{6}$/.test(profileLevelId)) continue;
    const rank = preference.indexOf(profileLevelId.slice(0, 4));
    if (rank < 0) continue;
    if (!best || rank < best.rank) best = { payloadType, profileLevelId, rank };
  }
  if (!best)
    throw new OfferError(
      'The offer has no H.264 video the stream can be sent as (Baseline, Main or High profile, packetization-mode=1).',
    );
  return { mid, payloadType: best.payloadType, profileLevelId: best.profileLevelId };
}

function pickOpus(section: Section): OfferedMedia | undefined {
  if (!receiving(section)) return undefined;
  for (const [payloadType, codec] of section.rtpmap) {
    if (codec === 'opus/48000/2' && payloadType >= 96 && payloadType <= 127)
      return { mid: midOf(section), payloadType };
  }
  return undefined;
}
