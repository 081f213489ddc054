// A WHIP client (RFC 9725) as OBS 30 is one: an x264 encoder whose RTP goes out over a
// WebRTC peer connection of its own (node-datachannel, libdatachannel's bindings, as OBS uses
// libdatachannel), published by POSTing the SDP offer with the stream key as the bearer token,
// ended by a DELETE on the session's Location. The encoder is ffmpeg sending the stamped clock
// pattern of latency-probe.ts as RTP (H.264 and Opus) to two loopback sockets of this client,
// which passes each packet to its track (SSRC and payload type rewritten to the offered ones);
// libdatachannel encrypts it (SRTP) and answers the ingest's NACKs from the packets it keeps.
//
// Debian's ffmpeg 5.1 has no WHIP muxer (it came in 7.1), hence the client here.
//
// node-datachannel runs native threads that keep a process alive: the caller's process calls
// its cleanup() when done (bench/latency.ts); in a test that shares the process with the
// service, the service's shutdown does it.
import { spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import { once } from 'node:events';
import nodeDataChannel, { type Track } from 'node-datachannel';
import { iceGathered } from '../../src/realtime/ice-gathering.ts';
import { releaseWhenClosed, watchTrack, type WatchedTrack } from '../../src/realtime/track-release.ts';
import { clockPatternParts } from './latency-probe.ts';

const VIDEO_PAYLOAD_TYPE = 96;
const AUDIO_PAYLOAD_TYPE = 111;
const VIDEO_SSRC = 0x0b5_0001;
const AUDIO_SSRC = 0x0b5_0002;
/** Packets kept per track to answer NACKs with (about 2 s of this video). */
const NACK_HISTORY = 512;
/** How long ICE gathering, and then the connection, may take. */
const GATHER_TIMEOUT_MS = 3000;
const CONNECT_TIMEOUT_MS = 15_000;
const RETRY_503_FOR_MS = 30_000;
/** How long the service may take to answer the offer, or the DELETE. */
const HTTP_TIMEOUT_MS = 30_000;

export interface WhipPublish {
  /** The session's URL (from the answer's Location). */
  location: string;
  /** RTP packets handed to the peer connection so far, per kind. */
  sent: { video: number; audio: number };
  /** With `loss`: what the lossy relay saw. */
  loss: LossCounts | undefined;
  /** With `loss`: the sequence numbers dropped and not sent again yet. */
  unresent(): ReadonlySet<number>;
  /** Stops the encoder, DELETEs the session (its status), closes the connection. */
  stop(): Promise<number>;
}

/**
 * Publishes the stamped clock pattern (latency-probe.ts) to `whipUrl` for `seconds`, a keyframe
 * every `keyframeSeconds`. Resolves once the connection is up and the encoder started.
 */
export async function publishClockPatternOverWhip(
  whipUrl: string,
  streamKey: string,
  seconds: number,
  options: {
    keyframeSeconds: number;
    /**
     * Loss on the way: the client reaches the service through a UDP relay of its own (the
     * answer's candidate rewritten to it) that drops the first sending of each video packet
     * `dropVideo` names; a second sending (a retransmission) always passes.
     */
    loss?: { dropVideo: (sequence: number) => boolean };
  },
): Promise<WhipPublish> {
  // A 503 (the ingest still starting, say) is tried again a second later, from a new
  // connection as OBS reconnects, for up to 30 s.
  const deadline = Date.now() + RETRY_503_FOR_MS;
  for (;;) {
    try {
      return await attemptPublish(whipUrl, streamKey, seconds, options);
    } catch (error) {
      if (!(error instanceof Unavailable) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

class Unavailable extends Error {}

async function attemptPublish(
  whipUrl: string,
  streamKey: string,
  seconds: number,
  options: Parameters<typeof publishClockPatternOverWhip>[3],
): Promise<WhipPublish> {
  const peer = new nodeDataChannel.PeerConnection('whip-client', {
    iceServers: [],
    bindAddress: '127.0.0.1',
  });
  const sockets: dgram.Socket[] = [];
  let encoder: ChildProcess | undefined;
  // The tracks outlive this call until libdatachannel has closed them (track-release.ts).
  const watched: WatchedTrack[] = [];
  const closeAll = () => {
    encoder?.kill('SIGKILL');
    for (const socket of sockets) socket.close();
    sockets.length = 0;
    try {
      peer.close();
    } catch {
      // Already closed.
    }
    releaseWhenClosed(peer, watched);
  };
  try {
    const video = new nodeDataChannel.Video('0', 'SendOnly');
    // x264's High profile, level 3.0 (640x360 at 30 fps).
    video.addH264Codec(
      VIDEO_PAYLOAD_TYPE,
      'profile-level-id=64001e;packetization-mode=1;level-asymmetry-allowed=1',
    );
    video.addSSRC(VIDEO_SSRC, 'whip-client', 'whip-client', 'video');
    const audio = new nodeDataChannel.Audio('1', 'SendOnly');
    audio.addOpusCodec(AUDIO_PAYLOAD_TYPE);
    audio.addSSRC(AUDIO_SSRC, 'whip-client', 'whip-client', 'audio');
    const tracks = { video: peer.addTrack(video), audio: peer.addTrack(audio) };
    watched.push(watchTrack(tracks.video), watchTrack(tracks.audio));
    tracks.video.setMediaHandler(new nodeDataChannel.RtcpNackResponder(NACK_HISTORY));
    tracks.audio.setMediaHandler(new nodeDataChannel.RtcpNackResponder(NACK_HISTORY));
    const opened = Promise.all([opens(tracks.video), opens(tracks.audio)]);
    peer.setLocalDescription();
    await iceGathered(peer, GATHER_TIMEOUT_MS);
    const offer = peer.localDescription();
    if (!offer) throw new Error('node-datachannel made no offer');

    const response = await fetch(whipUrl, {
      method: 'POST',
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
      headers: { 'content-type': 'application/sdp', authorization: `Bearer ${streamKey}` },
      // Behind the lossy relay, the service must not learn the client's own address: it
      // then knows it only as the relay's (a peer-reflexive candidate).
      body: options.loss ? withoutCandidates(offer.sdp) : offer.sdp,
    });
    if (response.status === 503) {
      throw new Unavailable(`the WHIP offer was refused (503): ${await response.text()}`);
    }
    const answer = await response.text();
    const location = response.headers.get('location');
    if (response.status !== 201 || !location) {
      throw new Error(`the WHIP offer was refused (${response.status}): ${answer.slice(0, 300)}`);
    }
    let lossy: LossyRelay | undefined;
    if (options.loss) {
      lossy = await LossyRelay.open(answer, options.loss.dropVideo);
      sockets.push(lossy.socket);
    }
    peer.setRemoteDescription(lossy?.answer ?? answer, 'answer');
    const sessionUrl = new URL(location, whipUrl).href;
    await Promise.race([
      opened,
      new Promise((_, reject) =>
        setTimeout(() => {
          reject(new Error('the WHIP connection did not come up'));
        }, CONNECT_TIMEOUT_MS).unref(),
      ),
    ]);

    const publish: WhipPublish = {
      location: sessionUrl,
      sent: { video: 0, audio: 0 },
      loss: lossy?.counts,
      unresent: () => lossy?.unresent ?? new Set(),
      stop: async () => {
        closeAll();
        const deleted = await fetch(sessionUrl, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${streamKey}` },
          signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
        });
        await deleted.arrayBuffer();
        return deleted.status;
      },
    };
    const relay = async (kind: 'video' | 'audio', track: Track, payloadType: number, ssrc: number) => {
      const socket = dgram.createSocket('udp4');
      sockets.push(socket);
      socket.on('message', (packet) => {
        if (packet.length < 12 || !track.isOpen()) return;
        packet[1] = (packet[1]! & 0x80) | payloadType;
        packet.writeUInt32BE(ssrc, 8);
        try {
          track.sendMessageBinary(packet);
          publish.sent[kind] += 1;
        } catch {
          // The connection is closing.
        }
      });
      socket.bind(0, '127.0.0.1');
      await once(socket, 'listening');
      return socket.address().port;
    };
    const videoPort = await relay('video', tracks.video, VIDEO_PAYLOAD_TYPE, VIDEO_SSRC);
    const audioPort = await relay('audio', tracks.audio, AUDIO_PAYLOAD_TYPE, AUDIO_SSRC);
    const parts = clockPatternParts(options.keyframeSeconds);
    const rtp = (port: number) => `rtp://127.0.0.1:${port}?pkt_size=1200`;
    encoder = spawn(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'error', '-nostdin', ...parts.inputs],
        ...['-map', '0:v', '-t', String(seconds), ...parts.video, '-f', 'rtp', rtp(videoPort)],
        ...['-map', '1:a', '-t', String(seconds), ...parts.audio],
        ...['-c:a', 'libopus', '-b:a', '96k', '-f', 'rtp', rtp(audioPort)],
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    return publish;
  } catch (error) {
    closeAll();
    throw error;
  }
}

function withoutCandidates(sdp: string): string {
  return sdp
    .split('\r\n')
    .filter((line) => !line.startsWith('a=candidate:'))
    .join('\r\n');
}

function opens(track: Track): Promise<void> {
  return new Promise((resolve) => {
    if (track.isOpen()) resolve();
    track.onOpen(resolve);
  });
}

export interface LossCounts {
  /** Video packets dropped (first sendings). */
  dropped: number;
  /** Of them, packets sent again by the client (its NACK responder) and let through. */
  resent: number;
  /** RTCP NACK packets the service sent (RTPFB, FMT 1: readable in SRTCP's clear header). */
  nacksSeen: number;
}

/**
 * A UDP relay between the client and the service's ICE candidate on loopback: SRTP leaves the
 * RTP header in clear, so the video's sequence numbers are readable and packets can be
 * dropped by number; STUN and DTLS pass untouched.
 */
class LossyRelay {
  readonly counts: LossCounts = { dropped: 0, resent: 0, nacksSeen: 0 };
  /** Dropped, not sent again yet. */
  readonly unresent = new Set<number>();
  private client: { address: string; port: number } | undefined;

  readonly socket: dgram.Socket;
  readonly answer: string;
  private readonly server: number;
  private readonly dropVideo: (sequence: number) => boolean;

  private constructor(
    socket: dgram.Socket,
    answer: string,
    server: number,
    dropVideo: (sequence: number) => boolean,
  ) {
    this.socket = socket;
    this.answer = answer;
    this.server = server;
    this.dropVideo = dropVideo;
    socket.on('message', (packet, from) => {
      this.relay(packet, from);
    });
  }

  static async open(answer: string, dropVideo: (sequence: number) => boolean): Promise<LossyRelay> {
    // The service's first IPv4 candidate: its socket listens on every interface, loopback too.
    const candidate = /^a=candidate:\S+ 1 udp \d+ (\d+\.\d+\.\d+\.\d+ \d+) typ host[^\r\n]*$/im.exec(answer);
    if (!candidate) throw new Error(`the WHIP answer has no IPv4 candidate to relay: ${answer}`);
    const serverPort = Number(candidate[1]!.split(' ')[1]);
    const socket = dgram.createSocket('udp4');
    socket.bind(0, '127.0.0.1');
    await once(socket, 'listening');
    const port = socket.address().port;
    // Only the relay is left for the client to reach.
    const rewritten = answer
      .split('\r\n')
      .filter((line) => !line.startsWith('a=candidate:') || line === candidate[0])
      .map((line) =>
        line === candidate[0] ? line.replace(` ${candidate[1]} typ`, ` 127.0.0.1 ${port} typ`) : line,
      )
      .join('\r\n');
    return new LossyRelay(socket, rewritten, serverPort, dropVideo);
  }

  private relay(packet: Buffer, from: dgram.RemoteInfo): void {
    if (from.port === this.server) {
      if (packet.length >= 8 && packet[1] === 205 && (packet[0]! & 0x1f) === 1) this.counts.nacksSeen += 1;
      if (this.client) this.socket.send(packet, this.client.port, this.client.address);
      return;
    }
    this.client = { address: from.address, port: from.port };
    const first = packet[0] ?? 0;
    const type = (packet[1] ?? 0) & 0x7f;
    if (first >> 6 === 2 && packet.length >= 12 && type === VIDEO_PAYLOAD_TYPE) {
      const seq = packet.readUInt16BE(2);
      if (this.unresent.has(seq)) {
        this.unresent.delete(seq);
        this.counts.resent += 1;
      } else if (this.dropVideo(seq)) {
        this.unresent.add(seq);
        this.counts.dropped += 1;
        return;
      }
    }
    this.socket.send(packet, this.server, '127.0.0.1');
  }
}
