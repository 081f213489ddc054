// A publisher as the ingest sees it, whatever carries its media: an RTMP connection
// (rtmp-server.ts) or a WHIP session (src/whip/). Either one hands its audio and video here as
// FLV messages (type 8 or 9, a millisecond timestamp, the RTMP/FLV payload); this part holds
// them back until the ingest has decided whether the key may publish, refuses a codec HLS
// players cannot play, measures the media and times its first frame. The transport says what
// admission, a refusal and a hang-up mean on its side.
import type { Clock } from '../shared/clock.ts';
import { codecRefusal } from './codecs.ts';
import { flvHeader, flvTag } from './flv.ts';
import { StreamMeter } from './stream-meter.ts';

/** Where an accepted publisher's FLV bytes go (the packager's stdin). */
export interface FlvSink {
  write(chunk: Buffer): void;
  end(): void;
}

/** The onStatus codes a refused publish gets: the name (key, app) is wrong, or the publish is not allowed now. */
export type RefusalCode = 'NetStream.Publish.BadName' | 'NetStream.Publish.Rejected';

/** Why a publish was refused: a short reason for the log, and what the encoder was told. */
export interface Refusal {
  reason: string;
  code: RefusalCode;
  description: string;
}

/** What a publisher may send before it is admitted; admission takes milliseconds. */
const MAX_PENDING_BYTES = 4 * 1024 * 1024;

export abstract class Publisher {
  /** The RTMP application name (WHIP publishers are given the ingest's own). */
  readonly app: string;
  readonly streamKey: string;
  readonly remoteAddress: string;
  private state: 'pending' | 'accepted' | 'closed' = 'pending';
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private sink: FlvSink | undefined;
  private readonly closeListeners: (() => void)[] = [];
  private readonly clock: Clock;
  /** When the first audio or video frame arrived (epoch ms), for time-to-live figures. */
  firstMediaAt: number | undefined;
  /** The media timestamp (ms) of the first frame. */
  firstMediaTimestamp: number | undefined;
  /**
   * The wall-clock time (epoch ms) of media timestamp 0, from the frame that arrived least
   * late: an encoder's start-up burst arrives late, never early. Dates the segments.
   */
  mediaClockOrigin: number | undefined;
  /** Set once the publish was refused (by admission or for its codec). */
  refusal: Refusal | undefined;
  /**
   * The encoder said it stopped (RTMP: FCUnpublish, deleteStream or closeStream; WHIP: the
   * DELETE of its session) before it went away: a creator's Stop Streaming, not a drop.
   */
  stoppedCleanly = false;
  /** Measures the media from the first message on (sequence headers come before admission). */
  readonly meter = new StreamMeter();

  protected constructor(identity: { app: string; streamKey: string; remoteAddress: string }, clock: Clock) {
    this.app = identity.app;
    this.streamKey = identity.streamKey;
    this.remoteAddress = identity.remoteAddress;
    this.clock = clock;
  }

  get closed(): boolean {
    return this.state === 'closed';
  }

  /** Whether the ingest admitted it (and it has not gone since). */
  get accepted(): boolean {
    return this.state === 'accepted';
  }

  /**
   * Admits the publisher: the transport tells the encoder (only now), and FLV bytes flow into
   * `sink`, beginning with anything that arrived while pending.
   */
  accept(sink: FlvSink): void {
    if (this.state !== 'pending') return;
    this.state = 'accepted';
    this.sink = sink;
    sink.write(flvHeader());
    for (const chunk of this.pending) sink.write(chunk);
    this.pending = [];
    this.pendingBytes = 0;
    this.admitted();
  }

  /** Refuses the publish and tells the encoder why. Works before and after admission. */
  reject(description: string, code: RefusalCode = 'NetStream.Publish.Rejected', reason = 'refused'): void {
    if (this.state === 'closed' || this.refusal) return;
    this.refusal = { reason, code, description };
    this.refused(this.refusal);
  }

  /** Ends the publish from the server's side (the stream ended, the server is stopping). */
  abstract disconnect(): void;

  /** The transport's part of an admission: tell the encoder it may go on. */
  protected abstract admitted(): void;

  /** The transport's part of a refusal: tell the encoder, then hang up. */
  protected abstract refused(refusal: Refusal): void;

  onClose(listener: () => void): void {
    if (this.state === 'closed') listener();
    else this.closeListeners.push(listener);
  }

  /** One audio (8) or video (9) message of the publisher's media. */
  receive(type: number, timestamp: number, payload: Buffer): void {
    if (this.state === 'closed' || this.refusal) return;
    // The packager copies media as it is: a codec HLS players cannot play is refused here,
    // before any of it reaches a segment.
    const unsupported = codecRefusal(type === 8 ? 8 : 9, payload);
    if (unsupported) {
      this.reject(
        unsupported.description,
        'NetStream.Publish.Rejected',
        `unsupported_${unsupported.kind}_codec`,
      );
      return;
    }
    const now = this.clock.now();
    this.firstMediaAt ??= now;
    this.firstMediaTimestamp ??= timestamp;
    if (this.mediaClockOrigin === undefined || now - timestamp < this.mediaClockOrigin) {
      this.mediaClockOrigin = now - timestamp;
    }
    this.meter.receive(type === 8 ? 8 : 9, timestamp, payload);
    const tag = flvTag(type, timestamp, payload);
    if (this.state === 'accepted') {
      this.sink?.write(tag);
      return;
    }
    this.pending.push(tag);
    this.pendingBytes += tag.length;
    if (this.pendingBytes > MAX_PENDING_BYTES) {
      this.reject(
        'The server could not admit the stream in time. Try again.',
        'NetStream.Publish.Rejected',
        'admission_too_slow',
      );
    }
  }

  /** The transport is gone: the sink ends (unless refused) and the close listeners run. */
  protected transportClosed(): void {
    if (this.state === 'closed') return;
    const wasAccepted = this.state === 'accepted';
    this.state = 'closed';
    this.pending = [];
    // A refused publish's packager is killed by its owner, not left to finish what it got.
    if (wasAccepted && !this.refusal) this.sink?.end();
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}
