// One WHIP publish: the publisher the ingest admits like an RTMP one (src/rtmp/publisher.ts),
// its WebRTC peer connection (node-datachannel, libdatachannel's bindings) and the ffmpeg that
// turns its RTP into the FLV the live pipeline takes (rtp-bridge.ts). It ends when the
// publisher DELETEs its session (a clean stop), when the peer connection fails or no media
// comes (a drop), or when the ingest disconnects it (the stream ended, shutdown).
import nodeDataChannel, { type PeerConnection, type Track } from 'node-datachannel';
import type { Logger } from 'pino';
import { iceGathered, withoutRemoteCandidates } from '../realtime/ice-gathering.ts';
import { releaseWhenClosed, watchTrack, type WatchedTrack } from '../realtime/track-release.ts';
import { usingWebRtc } from '../realtime/webrtc-lifetime.ts';
import { Publisher, type Refusal } from '../rtmp/publisher.ts';
import type { Clock } from '../shared/clock.ts';
import { ReceiverRtcp } from './receiver-rtcp.ts';
import { RtpBridge } from './rtp-bridge.ts';
import { withBitrateHints, type AcceptedOffer } from './sdp-offer.ts';

/** ICE candidates are gathered before the answer is sent (WHIP servers do not trickle). */
const GATHER_TIMEOUT_MS = 5000;
/** A publish whose media has not started, or has stopped, this long is a drop. */
const MEDIA_TIMEOUT_MS = 15_000;
/** A peer connection "disconnected" this long is a drop. */
const DISCONNECTED_GRACE_MS = 5000;
/** Keyframe requests to the publisher are at least this far apart. */
const KEYFRAME_REQUEST_INTERVAL_MS = 1000;
/**
 * A browser sends a keyframe only when asked (Chrome about every 6 s otherwise), and HLS
 * segments are cut at keyframes: one is asked for this often, the 2 s GOP an encoder is told
 * to use (ingest.health's keyframe advice).
 */
export const KEYFRAME_CADENCE_MS = 2000;
/** Chrome's bandwidth estimate is given these (kb/s): 720p at a few Mb/s from the start. */
export const BITRATE_HINTS_KBPS = { start: 2500, min: 1000, max: 4500 };

export type WhipDecision = { admitted: true } | { admitted: false; refusal: Refusal };

export interface WhipPublisherOptions {
  streamKey: string;
  remoteAddress: string;
  app: string;
  clock: Clock;
  logger: Logger;
  ffmpegPath: string;
  /** Interface the peer connection's UDP sockets bind (all unless given). */
  bindAddress?: string | undefined;
  /** UDP ports the peer connection may use. */
  portRange?: { begin: number; end: number } | undefined;
}

export class WhipPublisher extends Publisher {
  private readonly options: WhipPublisherOptions;
  private readonly logger: Logger;
  /** Settles once admission has decided. */
  readonly decision: Promise<WhipDecision>;
  private decide!: (decision: WhipDecision) => void;
  private peer: PeerConnection | undefined;
  /** Held here: a Track no longer referenced is collected and its callbacks stop. */
  private readonly tracks: WatchedTrack[] = [];
  /** The tracks' media handlers, held with them. */
  private readonly mediaHandlers: unknown[] = [];
  private videoTrack: Track | undefined;
  /** The video's RTCP back to the publisher: reports, keyframe requests, NACKs (receiver-rtcp.ts). */
  private videoRtcp: ReceiverRtcp | undefined;
  private bridge: RtpBridge | undefined;
  private ending = false;
  private lastKeyframeRequest = Number.NEGATIVE_INFINITY;
  private keyframeSeen = false;
  private mediaTimer: NodeJS.Timeout | undefined;
  private disconnectedTimer: NodeJS.Timeout | undefined;
  private keyframeTimer: NodeJS.Timeout | undefined;
  /** Settles once everything the publish held is let go. */
  readonly finished: Promise<void>;
  private markFinished!: () => void;

  constructor(options: WhipPublisherOptions) {
    super(
      { app: options.app, streamKey: options.streamKey, remoteAddress: options.remoteAddress },
      options.clock,
    );
    this.options = options;
    this.logger = options.logger;
    this.decision = new Promise((resolve) => {
      this.decide = resolve;
    });
    this.finished = new Promise((resolve) => {
      this.markFinished = resolve;
    });
  }

  protected admitted(): void {
    this.decide({ admitted: true });
  }

  protected refused(refusal: Refusal): void {
    this.decide({ admitted: false, refusal });
    // Refused while pending: nothing was opened. Refused later (its media): it is cut off.
    void this.end();
  }

  /**
   * Answers the publisher's offer once admitted: the peer connection, the relay to ffmpeg, and
   * the SDP answer (with the bitrate hints). Throws when the WebRTC stack refuses the offer.
   */
  async answer(offer: AcceptedOffer): Promise<string> {
    const { options } = this;
    usingWebRtc();
    const peer = new nodeDataChannel.PeerConnection('whip', {
      iceServers: [],
      ...(options.bindAddress === undefined ? {} : { bindAddress: options.bindAddress }),
      ...(options.portRange === undefined
        ? {}
        : { portRangeBegin: options.portRange.begin, portRangeEnd: options.portRange.end }),
    });
    this.peer = peer;
    const bridge = new RtpBridge({
      ffmpegPath: options.ffmpegPath,
      codecs: { video: offer.video, audio: offer.audio },
      logger: this.logger,
      onMessage: (type, timestamp, payload) => {
        if (type === 9 && !this.keyframeSeen && (payload[0] ?? 0) >> 4 === 1) this.keyframeSeen = true;
        this.receive(type, timestamp, payload);
      },
      onExit: () => {
        // ffmpeg gone on its own (unreadable media): the publish ends as a drop.
        void this.end();
      },
    });
    this.bridge = bridge;
    peer.onStateChange((state) => {
      this.peerState(state);
    });
    peer.onTrack((track) => {
      this.adoptTrack(track);
    });
    peer.setRemoteDescription(withoutRemoteCandidates(offer.sdp), 'offer');
    await iceGathered(peer, GATHER_TIMEOUT_MS);
    const local = peer.localDescription();
    if (!local) throw new Error('the WebRTC stack made no answer');
    await bridge.start();
    this.watchMedia();
    return withBitrateHints(local.sdp, offer.video.payloadType, BITRATE_HINTS_KBPS);
  }

  /** The publisher's DELETE: a clean stop (the stream's short grace, not its reconnect window). */
  async stop(): Promise<void> {
    if (!this.closed) this.stoppedCleanly = true;
    await this.end();
  }

  /** The ingest ends the publish (the stream ended, shutdown): everything stops at once. */
  disconnect(): void {
    this.bridge?.kill();
    void this.end();
  }

  /** Asks the publisher for a keyframe (a PLI), at most once a second. True when sent. */
  requestKeyframe(): boolean {
    const now = Date.now();
    if (!this.videoTrack || now - this.lastKeyframeRequest < KEYFRAME_REQUEST_INTERVAL_MS) return false;
    this.lastKeyframeRequest = now;
    return this.videoRtcp?.requestKeyframe() ?? false;
  }

  /** Packets the relay dropped for being padding only. */
  get paddingDropped(): number {
    return this.bridge?.paddingDropped ?? 0;
  }

  private adoptTrack(track: Track): void {
    // A track announced after the publish ended (node-datachannel delivers onTrack on the
    // event loop, possibly after close()): nothing is registered on it, so nothing calls back.
    const watched = watchTrack(track);
    if (this.ending) {
      releaseWhenClosed(undefined, [watched]);
      return;
    }
    this.tracks.push(watched);
    const kind = track.type() === 'video' ? 'video' : track.type() === 'audio' ? 'audio' : undefined;
    if (!kind) {
      track.close();
      return;
    }
    // Audio's reports are libdatachannel's; the video's RTCP is receiver-rtcp.ts's, which
    // needs the track without a media handler (it says why).
    const rtcp =
      kind === 'video'
        ? new ReceiverRtcp({
            send: (packet) => {
              try {
                track.sendMessageBinary(packet);
              } catch {
                // The connection is closing: nothing more to say.
              }
            },
          })
        : undefined;
    const session = rtcp ? undefined : new nodeDataChannel.RtcpReceivingSession();
    if (session) {
      track.setMediaHandler(session);
      this.mediaHandlers.push(session);
    }
    track.onMessage((packet) => {
      this.mediaArrived();
      rtcp?.received(packet);
      this.bridge?.forward(kind, packet);
    });
    if (kind === 'video') {
      this.videoRtcp = rtcp;
      this.videoTrack = track;
      // ffmpeg must see a keyframe (with its SPS and PPS) to start: ask until one comes out.
      track.onOpen(() => {
        this.askForFirstKeyframe();
      });
    }
  }

  /** Until ffmpeg has its first keyframe, every second; then at the GOP cadence. */
  private askForFirstKeyframe(): void {
    if (this.ending) return;
    this.requestKeyframe();
    this.keyframeTimer = setTimeout(
      () => {
        this.askForFirstKeyframe();
      },
      this.keyframeSeen ? KEYFRAME_CADENCE_MS : KEYFRAME_REQUEST_INTERVAL_MS,
    );
  }

  private peerState(state: string): void {
    clearTimeout(this.disconnectedTimer);
    if (state === 'failed' || state === 'closed') {
      void this.end();
    } else if (state === 'disconnected') {
      this.disconnectedTimer = setTimeout(() => {
        void this.end();
      }, DISCONNECTED_GRACE_MS);
    }
  }

  private watchMedia(): void {
    clearTimeout(this.mediaTimer);
    this.mediaTimer = setTimeout(() => {
      this.logger.info({ remote: this.remoteAddress }, 'whip publisher sent no media; ending it');
      void this.end();
    }, MEDIA_TIMEOUT_MS);
  }

  private lastMediaWatch = 0;
  private mediaArrived(): void {
    // Re-arming a timer per packet is wasteful: once a second is enough.
    const now = Date.now();
    if (now - this.lastMediaWatch < 1000) return;
    this.lastMediaWatch = now;
    this.watchMedia();
  }

  /** Lets go of everything once: the peer connection, then ffmpeg (which finishes its output). */
  private async end(): Promise<void> {
    if (this.ending) return this.finished;
    this.ending = true;
    clearTimeout(this.mediaTimer);
    clearTimeout(this.disconnectedTimer);
    clearTimeout(this.keyframeTimer);
    this.videoRtcp?.close();
    if (this.videoRtcp && this.videoRtcp.counts.missing > 0) {
      this.logger.info(
        { nacks: this.videoRtcp.counts },
        'whip video packets lost on the way, and asked for again',
      );
    }
    // ffmpeg first, while the publisher's packets may still wake it: it writes all it holds.
    await this.bridge?.stop();
    try {
      // Closing the peer connection closes its tracks (closing a track first can fail in
      // libdatachannel and leave the connection open).
      this.peer?.close();
      releaseWhenClosed(this.peer, [...this.tracks], this.logger, [...this.mediaHandlers]);
    } catch (error) {
      this.logger.debug({ err: error }, 'whip peer connection close failed');
    }
    this.tracks.length = 0;
    this.mediaHandlers.length = 0;
    this.videoTrack = undefined;
    this.transportClosed();
    this.markFinished();
    return this.finished;
  }
}
