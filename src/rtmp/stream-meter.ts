// Measures one publish from the RTMP messages the server already parses: codecs from the
// sequence headers, and bitrate, frame rate, keyframe interval and timestamp faults from the
// messages' own timestamps (media time, not arrival time, so a burst after a network stall
// is not read as a bitrate spike, and the figures do not depend on the service's clock).
//
// A live 6 Mb/s stream sends about 500 messages a second, so receive() does constant work:
// a few comparisons and additions into one-second buckets of a fixed ring. Anything that
// looks at many buckets runs in measure(), which the API and upkeep call every few seconds.
import { parseAacConfig, type AacInfo } from './aac-config.ts';
import { parseAvcConfig, type AvcInfo } from './avc-config.ts';
import { codecOf } from './codecs.ts';

/** One-second buckets kept: enough for the 30 s over which bitrate swings are judged. */
const RING_SECONDS = 32;
/** The "current" bitrate and frame rate are over this many complete seconds. */
export const CURRENT_WINDOW_SECONDS = 5;
/** A jump forward in one track's timestamps longer than this is data that never came. */
export const GAP_MS = 1000;

export interface Measurement {
  video: (Partial<AvcInfo> & { codec: string }) | undefined;
  audio: (Partial<AacInfo> & { codec: string }) | undefined;
  /** Media seconds measured (from the first message's timestamp to the latest). */
  seconds: number;
  /** Over the last complete seconds (up to 5); undefined before one second is complete. */
  currentKbps: number | undefined;
  averageKbps: number | undefined;
  frameRate: number | undefined;
  /** Between the last two keyframes. */
  keyframeIntervalSeconds: number | undefined;
  /** Since the last keyframe (or the first video frame, before any keyframe), media time. */
  secondsSinceKeyframe: number | undefined;
  videoFrames: number;
  audioMessages: number;
  timestampGaps: number;
  backwardJumps: number;
  /** Bitrates of 5-second windows over the last 30 s (kb/s), oldest first. */
  windowKbps: number[];
  /** Frames in each complete second of the last 10 with video, oldest first. */
  framesPerSecond: number[];
}

export class StreamMeter {
  private readonly bucketSecond = new Float64Array(RING_SECONDS).fill(-1);
  private readonly bucketBytes = new Float64Array(RING_SECONDS);
  private readonly bucketFrames = new Float64Array(RING_SECONDS);
  /** The latest second any message fell in: buckets before it are complete. */
  private headSecond = -1;
  private firstSecond = -1;
  private firstVideoSecond = -1;
  private firstTimestamp: number | undefined;
  private lastTimestamp = 0;
  private totalBytes = 0;
  private lastVideoTs: number | undefined;
  private lastAudioTs: number | undefined;
  private firstVideoTs: number | undefined;
  private lastKeyframeTs: number | undefined;
  private keyframeIntervalMs: number | undefined;
  private videoFrames = 0;
  private audioMessages = 0;
  private timestampGaps = 0;
  private backwardJumps = 0;
  private video: Measurement['video'];
  private audio: Measurement['audio'];

  /** One audio (8) or video (9) message, as the RTMP session delivers it. */
  receive(type: 8 | 9, timestamp: number, payload: Buffer): void {
    const first = payload[0];
    if (first === undefined) return;
    this.count(timestamp, payload.length);
    if (type === 9) this.receiveVideo(first, timestamp, payload);
    else this.receiveAudio(first, timestamp, payload);
  }

  private receiveVideo(first: number, timestamp: number, payload: Buffer): void {
    const isAvc = (first & 0x80) === 0 && (first & 0x0f) === 7;
    if (isAvc && payload[1] === 0) {
      // The sequence header: once per publish (again only if the encoder changes settings).
      this.video = { codec: 'H.264', ...parseAvcConfig(payload.subarray(5)) };
      return;
    }
    this.video ??= { codec: codecOf(9, payload) ?? 'unknown' };
    const frameType = first >> 4;
    // Frames only: not AVC end-of-sequence (packet type 2) nor video info/command frames (5).
    if (frameType === 5 || (isAvc && payload[1] !== 1)) return;
    this.videoFrames += 1;
    this.firstVideoTs ??= timestamp;
    this.lastVideoTs = this.track(this.lastVideoTs, timestamp);
    const slot = this.slotOf(timestamp);
    if (slot >= 0) this.bucketFrames[slot] = (this.bucketFrames[slot] ?? 0) + 1;
    if (this.firstVideoSecond < 0) this.firstVideoSecond = Math.floor(timestamp / 1000);
    if (frameType === 1) {
      if (this.lastKeyframeTs !== undefined && timestamp > this.lastKeyframeTs) {
        this.keyframeIntervalMs = timestamp - this.lastKeyframeTs;
      }
      this.lastKeyframeTs = timestamp;
    }
  }

  private receiveAudio(first: number, timestamp: number, payload: Buffer): void {
    if (first >> 4 === 10 && payload[1] === 0) {
      this.audio = { codec: 'AAC', ...parseAacConfig(payload.subarray(2)) };
      return;
    }
    this.audio ??= { codec: codecOf(8, payload) ?? 'unknown' };
    this.audioMessages += 1;
    this.lastAudioTs = this.track(this.lastAudioTs, timestamp);
  }

  /** One track's timestamp after `previous`: counts jumps forward over GAP_MS and backwards. */
  private track(previous: number | undefined, timestamp: number): number {
    if (previous !== undefined) {
      if (timestamp < previous) this.backwardJumps += 1;
      else if (timestamp - previous > GAP_MS) this.timestampGaps += 1;
    }
    return timestamp;
  }

  /** Bytes into the message's second; advances the ring when a new second begins. */
  private count(timestamp: number, bytes: number): void {
    this.totalBytes += bytes;
    this.firstTimestamp ??= timestamp;
    if (timestamp > this.lastTimestamp) this.lastTimestamp = timestamp;
    const second = Math.floor(timestamp / 1000);
    if (this.firstSecond < 0) this.firstSecond = second;
    if (second > this.headSecond) {
      // At most RING_SECONDS slots are cleared, however far the timestamps jumped.
      const from = Math.max(this.headSecond + 1, second - RING_SECONDS + 1);
      for (let s = from; s <= second; s++) {
        const slot = s % RING_SECONDS;
        this.bucketSecond[slot] = s;
        this.bucketBytes[slot] = 0;
        this.bucketFrames[slot] = 0;
      }
      this.headSecond = second;
    }
    const slot = this.slotOf(timestamp);
    if (slot >= 0) this.bucketBytes[slot] = (this.bucketBytes[slot] ?? 0) + bytes;
  }

  /** The ring slot holding this timestamp's second, or -1 when it has been overwritten. */
  private slotOf(timestamp: number): number {
    const second = Math.floor(timestamp / 1000);
    const slot = second % RING_SECONDS;
    return this.bucketSecond[slot] === second ? slot : -1;
  }

  /** Complete seconds (before the head) still in the ring, newest last, at most `count`. */
  private completeSeconds(count: number, since: number): number[] {
    const seconds: number[] = [];
    const oldest = Math.max(since, this.headSecond - Math.min(count, RING_SECONDS - 1));
    for (let s = oldest; s < this.headSecond; s++) {
      if (this.bucketSecond[s % RING_SECONDS] === s) seconds.push(s);
    }
    return seconds;
  }

  private bytesIn(second: number): number {
    return this.bucketBytes[second % RING_SECONDS] ?? 0;
  }

  measure(): Measurement {
    // The first second is partial (the encoder started inside it), so it is left out.
    const recent = this.completeSeconds(CURRENT_WINDOW_SECONDS, this.firstSecond + 1);
    const currentKbps =
      recent.length === 0
        ? undefined
        : (recent.reduce((sum, s) => sum + this.bytesIn(s), 0) * 8) / 1000 / recent.length;
    const spanMs = this.firstTimestamp === undefined ? 0 : this.lastTimestamp - this.firstTimestamp;
    const videoSeconds = this.firstVideoSecond < 0 ? [] : this.completeSeconds(10, this.firstVideoSecond + 1);
    const framesPerSecond = videoSeconds.map((s) => this.bucketFrames[s % RING_SECONDS] ?? 0);
    const lastFive = framesPerSecond.slice(-CURRENT_WINDOW_SECONDS);
    const sinceKeyframeFrom = this.lastKeyframeTs ?? this.firstVideoTs;
    return {
      video: this.video,
      audio: this.audio,
      seconds: spanMs / 1000,
      currentKbps,
      averageKbps: spanMs >= 1000 ? (this.totalBytes * 8) / spanMs : undefined,
      frameRate: lastFive.length === 0 ? undefined : lastFive.reduce((a, b) => a + b, 0) / lastFive.length,
      keyframeIntervalSeconds:
        this.keyframeIntervalMs === undefined ? undefined : this.keyframeIntervalMs / 1000,
      secondsSinceKeyframe:
        sinceKeyframeFrom === undefined || this.lastVideoTs === undefined
          ? undefined
          : Math.max(0, this.lastVideoTs - sinceKeyframeFrom) / 1000,
      videoFrames: this.videoFrames,
      audioMessages: this.audioMessages,
      timestampGaps: this.timestampGaps,
      backwardJumps: this.backwardJumps,
      windowKbps: this.windowKbps(),
      framesPerSecond,
    };
  }

  /** 5-second bitrates of the complete seconds of the last 30 (one per second it ends on). */
  private windowKbps(): number[] {
    const seconds = this.completeSeconds(30, this.firstSecond + 1);
    const windows: number[] = [];
    for (let end = CURRENT_WINDOW_SECONDS; end <= seconds.length; end++) {
      let bytes = 0;
      for (const second of seconds.slice(end - CURRENT_WINDOW_SECONDS, end)) bytes += this.bytesIn(second);
      windows.push((bytes * 8) / 1000 / CURRENT_WINDOW_SECONDS);
    }
    return windows;
  }
}
