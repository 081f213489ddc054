// One realtime stream's media on its way to its WebRTC viewers: two loopback UDP sockets that
// the stream's ffmpeg sends RTP to (H.264 and Opus), each packet put on the feed's continuous
// timeline once and handed to every viewer. Datagrams from anywhere but loopback, or that are
// not RTP, are dropped.
import dgram from 'node:dgram';
import { once } from 'node:events';
import { isRtp, RtpTimeline, startsKeyframe } from './rtp.ts';
import { AUDIO_SSRC, VIDEO_SSRC, type ViewerSession } from './viewer-session.ts';

/** A frame at 30 fps in the 90 kHz clock, and 20 ms of Opus at 48 kHz: the gap across a restart. */
const VIDEO_FRAME_TICKS = 3000;
const AUDIO_FRAME_TICKS = 960;

export class RealtimeFeed {
  readonly streamId: string;
  readonly viewers = new Set<ViewerSession>();
  private readonly videoSocket = dgram.createSocket('udp4');
  private readonly audioSocket = dgram.createSocket('udp4');
  private readonly videoTimeline = new RtpTimeline(VIDEO_SSRC, VIDEO_FRAME_TICKS);
  private readonly audioTimeline = new RtpTimeline(AUDIO_SSRC, AUDIO_FRAME_TICKS);
  /** The H.264 profile_idc sent (the answer names a format that covers it). */
  profile: number | undefined;
  /** Whether a publish is sending media now (set by the output, cleared when it ends). */
  publishing = false;
  /** Epoch ms of the last keyframe seen, for the bench and the logs. */
  lastKeyframeAt = 0;
  packets = 0;
  private closed = false;

  constructor(streamId: string) {
    this.streamId = streamId;
    this.videoSocket.on('message', (packet, from) => {
      if (!this.accepts(packet, from.address, this.videoSource)) return;
      this.videoTimeline.rewrite(packet);
      if (startsKeyframe(packet)) this.lastKeyframeAt = Date.now();
      this.packets++;
      const perGroup = new Map<string, Buffer>();
      for (const viewer of this.viewers) viewer.sendVideo(packet, perGroup);
    });
    this.audioSocket.on('message', (packet, from) => {
      if (!this.accepts(packet, from.address, this.audioSource)) return;
      this.audioTimeline.rewrite(packet);
      const perGroup = new Map<string, Buffer>();
      for (const viewer of this.viewers) viewer.sendAudio(packet, perGroup);
    });
    // A datagram error (an ICMP port unreachable) is nothing to the feed.
    this.videoSocket.on('error', () => undefined);
    this.audioSocket.on('error', () => undefined);
  }

  private bound: Promise<{ videoPort: number; audioPort: number }> | undefined;

  /** Binds both sockets on loopback (once: a later publish reuses them); ffmpeg sends to their ports. */
  open(): Promise<{ videoPort: number; audioPort: number }> {
    this.bound ??= this.bind();
    return this.bound;
  }

  private async bind(): Promise<{ videoPort: number; audioPort: number }> {
    this.videoSocket.bind(0, '127.0.0.1');
    this.audioSocket.bind(0, '127.0.0.1');
    await Promise.all([once(this.videoSocket, 'listening'), once(this.audioSocket, 'listening')]);
    // The feed never keeps the process alive by itself (shutdown closes it).
    this.videoSocket.unref();
    this.audioSocket.unref();
    return { videoPort: this.videoSocket.address().port, audioPort: this.audioSocket.address().port };
  }

  /**
   * The SSRCs the current ffmpeg run sends with (chosen by the output, given to ffmpeg): any
   * other datagram at the feed's ports, from another local process, is dropped.
   */
  private videoSource = -1;
  private audioSource = -1;
  expect(videoSsrc: number, audioSsrc: number): void {
    this.videoSource = videoSsrc;
    this.audioSource = audioSsrc;
  }

  private accepts(packet: Buffer, address: string, ssrc: number): boolean {
    return fromLoopback(address) && isRtp(packet) && packet.readUInt32BE(8) === ssrc;
  }

  /** A new ffmpeg run: every viewer waits for its first keyframe. */
  restarted(): void {
    for (const viewer of this.viewers) viewer.holdUntilKeyframe();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.videoSocket.close();
    this.audioSocket.close();
    for (const viewer of [...this.viewers]) viewer.close();
  }
}

function fromLoopback(address: string): boolean {
  return address.startsWith('127.');
}
