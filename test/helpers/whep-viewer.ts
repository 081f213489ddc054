// A WHEP viewer on node-datachannel (libdatachannel and libjuice, as a native WHEP player or
// OBS-style client is): a receive-only H.264 and Opus offer with its candidates gathered, POSTed
// to the stream's WHEP endpoint, the answer applied as the server sent it. Used by the WHEP
// tests and bench/realtime.ts's viewers.
import nodeDataChannel, { type PeerConnection } from 'node-datachannel';
import { iceGathered } from '../../src/realtime/ice-gathering.ts';
import { releaseWhenClosed, watchTrack } from '../../src/realtime/track-release.ts';
import type { MediaTestServer } from './media-server.ts';
import { waitFor } from './wait.ts';

const GATHER_TIMEOUT_MS = 3000;
/** The H.264 payload type the viewer offers (the server sends what the offer names). */
export const VIEWER_VIDEO_PAYLOAD_TYPE = 102;
const HTTP_TIMEOUT_MS = 15_000;

export interface WhepViewer {
  pc: PeerConnection;
  /** RTP and RTCP bytes the tracks delivered. */
  received: { bytes: number };
  /** The session's Location (null when refused). */
  location: string | null;
  /** The SDP answer as the server sent it. */
  answer: string;
  /** The POST's response (its body read). */
  response: Response;
  /** Closes the connection (its tracks are let go once libdatachannel has closed them). */
  close(): void;
}

/** Joins `streamId` at `baseUrl`; resolves once `minBytes` of media have arrived, within `timeoutMs`. */
export async function joinOverWhep(
  baseUrl: string,
  streamId: string,
  options: {
    label: string;
    minBytes?: number;
    timeoutMs?: number;
    headers?: Record<string, string>;
    /** Each packet (RTP or RTCP) a track delivers, as it arrives. */
    onPacket?: (kind: 'video' | 'audio', packet: Buffer) => void;
  },
): Promise<WhepViewer> {
  const pc = new nodeDataChannel.PeerConnection(options.label, {
    iceServers: [],
    disableAutoNegotiation: true,
  });
  const video = new nodeDataChannel.Video('0', 'RecvOnly');
  video.addH264Codec(
    VIEWER_VIDEO_PAYLOAD_TYPE,
    'profile-level-id=42e01f;packetization-mode=1;level-asymmetry-allowed=1',
  );
  const audio = new nodeDataChannel.Audio('1', 'RecvOnly');
  audio.addOpusCodec(111);
  const tracks = [watchTrack(pc.addTrack(video)), watchTrack(pc.addTrack(audio))];
  const close = () => {
    pc.close();
    releaseWhenClosed(pc, tracks);
  };
  const received = { bytes: 0 };
  for (const [index, { track }] of tracks.entries())
    track.onMessage((message) => {
      received.bytes += message.length;
      options.onPacket?.(index === 0 ? 'video' : 'audio', message);
    });
  pc.setLocalDescription('offer');
  await iceGathered(pc, GATHER_TIMEOUT_MS);
  const offer = pc.localDescription()?.sdp ?? '';
  const response = await fetch(`${baseUrl}/v1/streams/${streamId}/whep`, {
    method: 'POST',
    headers: { ...options.headers, 'content-type': 'application/sdp' },
    body: offer,
    signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
  });
  const answer = await response.text();
  if (response.status !== 201) {
    close();
    throw new Error(`WHEP answered ${response.status}: ${answer}`);
  }
  pc.setRemoteDescription(answer, 'answer');
  const minBytes = options.minBytes ?? 10_000;
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  while (received.bytes < minBytes) {
    if (Date.now() > deadline) {
      const state = `${pc.state()}, ICE ${pc.iceState()}`;
      close();
      throw new Error(`${options.label} received ${received.bytes} bytes (${state})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { pc, received, location: response.headers.get('location'), answer, response, close };
}

/** Waits until the API says the stream is live and the service sends it over WebRTC. */
export async function waitUntilServedOverWebRtc(
  server: MediaTestServer,
  streamId: string,
  readKey: string,
  timeoutMs = 30_000,
): Promise<void> {
  await waitFor(
    async () =>
      (server.services.realtime.serves(streamId) &&
        (await server.request('GET', `/v1/streams/${streamId}`, { key: readKey })).body.status === 'live') ||
      undefined,
    { timeoutMs, what: 'the stream to be live and sent over WebRTC' },
  );
}
