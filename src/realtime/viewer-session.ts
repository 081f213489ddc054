// One WebRTC viewer (a WHEP session): a node-datachannel PeerConnection answering the browser's
// offer with one H.264 track and one Opus track, sending what the stream's feed forwards.
//
// - A new viewer is held until the next keyframe (ffmpeg cannot be asked for one): video
//   starts at an SPS or an IDR, so the browser's first frame decodes.
// - Each track sends RTCP sender reports (libdatachannel's RtcpSrReporter, about one a second),
//   so the browser can play audio and video in sync.
// - NACKs are answered by libdatachannel's RtcpNackResponder from the packets it keeps; the
//   viewers' keyframe requests (PLI/FIR) go nowhere, so no viewer can flood the encoder.
// - The Track objects stay referenced here, and after the close until libdatachannel has closed
//   them (track-release.ts says why: node-datachannel stops calling back for tracks the garbage
//   collector took, and can crash at shutdown).
import nodeDataChannel from 'node-datachannel';
import type { PeerConnection, Track } from 'node-datachannel';
import { iceGathered, withoutRemoteCandidates } from './ice-gathering.ts';
import { forViewer, startsKeyframe } from './rtp.ts';
import { releaseWhenClosed, watchTrack, type WatchedTrack } from './track-release.ts';
import { usingWebRtc } from './webrtc-lifetime.ts';
import { PLAYOUT_DELAY_URI, type WhepOffer } from './whep-offer.ts';

const {
  PeerConnection: RtcPeerConnection,
  Video,
  Audio,
  RtcpNackResponder,
  RtcpSrReporter,
  RtpPacketizationConfig,
} = nodeDataChannel;

/** Packets kept per track for retransmission (about 2 s of 720p video). */
const NACK_HISTORY = 512;
/** How long ICE gathering may take before the answer goes out with what it has. */
const GATHER_TIMEOUT_MS = 2_000;
/** Refused sends after which a session is ended (a second or two of media). */
const MAX_SEND_ERRORS = 500;

export const VIDEO_SSRC = 0x5452_0001;
export const AUDIO_SSRC = 0x5452_0002;

export interface ViewerNetwork {
  /** Address the viewer's ICE candidates bind to (all interfaces unless given). */
  bindAddress?: string | undefined;
  /** UDP ports the viewers' connections may use; any free port unless given. */
  portRangeBegin?: number | undefined;
  portRangeEnd?: number | undefined;
}

export type SessionState = 'connecting' | 'connected' | 'closed';

/**
 * A sent track's RTCP: NACKs answered from the packets kept, and a sender report about every
 * second (libdatachannel's RtcpSrReporter: the RTP timestamp of the packet being sent beside the
 * wall clock at that moment), which is what lets the browser line the audio up with the video.
 */
function mediaHandler(ssrc: number, payloadType: number, clockRate: number): nodeDataChannel.MediaHandler {
  const reporter = new RtcpSrReporter(new RtpPacketizationConfig(ssrc, 'tributary', payloadType, clockRate));
  reporter.addToChain(new RtcpNackResponder(NACK_HISTORY));
  return reporter;
}

export class ViewerSession {
  readonly id: string;
  readonly streamId: string;
  readonly address: string;
  private readonly pc: PeerConnection;
  private video: Track | undefined;
  private audio: Track | undefined;
  private readonly watched: WatchedTrack[] = [];
  private readonly offer: WhepOffer;
  /** Video is held until a keyframe begins. */
  private videoStarted = false;
  state: SessionState = 'connecting';
  /** Packets libdatachannel refused to send. */
  sendErrors = 0;
  private readonly onClose: (session: ViewerSession) => void;
  private closeTimer: NodeJS.Timeout | undefined;

  constructor(options: {
    id: string;
    streamId: string;
    address: string;
    offer: WhepOffer;
    network: ViewerNetwork;
    /** How long the connection may take to come up before the session ends. */
    connectTimeoutMs: number;
    onClose: (session: ViewerSession) => void;
  }) {
    this.id = options.id;
    this.streamId = options.streamId;
    this.address = options.address;
    this.offer = options.offer;
    this.onClose = options.onClose;
    const { bindAddress, portRangeBegin, portRangeEnd } = options.network;
    usingWebRtc();
    this.pc = new RtcPeerConnection(options.id, {
      iceServers: [],
      disableAutoNegotiation: true,
      ...(bindAddress === undefined ? {} : { bindAddress }),
      ...(portRangeBegin === undefined ? {} : { portRangeBegin }),
      ...(portRangeEnd === undefined ? {} : { portRangeEnd }),
    });
    this.pc.onStateChange((state) => {
      if (state === 'connected') {
        this.state = 'connected';
        clearTimeout(this.closeTimer);
      }
      if (state === 'failed' || state === 'closed' || state === 'disconnected') this.close();
    });
    this.closeTimer = setTimeout(() => {
      if (this.state === 'connecting') this.close();
    }, options.connectTimeoutMs);
  }

  /** Answers the offer (the SDP text); throws when libdatachannel cannot take it. */
  async answer(sdp: string): Promise<string> {
    this.pc.setRemoteDescription(withoutRemoteCandidates(sdp), 'offer');
    const { video, audio } = this.offer;
    const videoMedia = new Video(video.mid, 'SendOnly');
    videoMedia.addH264Codec(
      video.payloadType,
      `profile-level-id=${video.profileLevelId};packetization-mode=1;level-asymmetry-allowed=1`,
    );
    videoMedia.addSSRC(VIDEO_SSRC, 'tributary', 'tributary', 'video');
    if (video.playoutDelayId !== undefined)
      videoMedia.parseSdpLine(`a=extmap:${video.playoutDelayId} ${PLAYOUT_DELAY_URI}`);
    this.video = this.pc.addTrack(videoMedia);
    this.watched.push(watchTrack(this.video));
    this.video.setMediaHandler(mediaHandler(VIDEO_SSRC, video.payloadType, 90_000));
    if (audio) {
      const audioMedia = new Audio(audio.mid, 'SendOnly');
      audioMedia.addOpusCodec(audio.payloadType);
      audioMedia.addSSRC(AUDIO_SSRC, 'tributary', 'tributary', 'audio');
      this.audio = this.pc.addTrack(audioMedia);
      this.watched.push(watchTrack(this.audio));
      this.audio.setMediaHandler(mediaHandler(AUDIO_SSRC, audio.payloadType, 48_000));
    }
    this.pc.setLocalDescription('answer');
    await iceGathered(this.pc, GATHER_TIMEOUT_MS);
    const local = this.pc.localDescription();
    if (!local) throw new Error('no local description');
    return local.sdp;
  }

  /** A video packet of the feed (already on its timeline), shared by every viewer. */
  sendVideo(packet: Buffer, perGroup: Map<string, Buffer>): void {
    const track = this.video;
    if (this.state !== 'connected' || !track?.isOpen()) return;
    if (!this.videoStarted) {
      if (!startsKeyframe(packet)) return;
      this.videoStarted = true;
    }
    const { payloadType, playoutDelayId } = this.offer.video;
    const key = `${payloadType}:${playoutDelayId ?? ''}`;
    let out = perGroup.get(key);
    if (!out) {
      out = forViewer(packet, payloadType, playoutDelayId);
      perGroup.set(key, out);
    }
    this.send(track, out);
  }

  sendAudio(packet: Buffer, perGroup: Map<string, Buffer>): void {
    const track = this.audio;
    const offered = this.offer.audio;
    if (this.state !== 'connected' || !track?.isOpen() || !offered || !this.videoStarted) return;
    const key = String(offered.payloadType);
    let out = perGroup.get(key);
    if (!out) {
      out = forViewer(packet, offered.payloadType, undefined);
      perGroup.set(key, out);
    }
    this.send(track, out);
  }

  /** Sends one packet; libdatachannel's refusals (an SRTP context torn down under hostile DTLS) are counted, never thrown. */
  private send(track: Track, packet: Buffer): void {
    try {
      track.sendMessageBinary(packet);
    } catch {
      this.sendErrors++;
      // A session that keeps failing to send is gone for its viewer: it ends.
      if (this.sendErrors >= MAX_SEND_ERRORS) this.close();
    }
  }

  /** Video must wait for the next keyframe again (the feed's source changed). */
  holdUntilKeyframe(): void {
    this.videoStarted = false;
  }

  close(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    clearTimeout(this.closeTimer);
    try {
      this.pc.close();
    } catch {
      // Already closed by the library.
    }
    releaseWhenClosed(this.pc, this.watched);
    this.onClose(this);
  }
}
