// An output of a live publish: something the publisher's media goes to besides the stream's
// own HLS (simulcast to another platform today; later, other recorders or a WebRTC fan-out).
// Outputs are registered in one place, the composition root (src/container.ts), and the
// pipeline opens each registered output for every publish; an output that fails or falls
// behind never disturbs the publish, the stream's HLS or the other outputs.
import type { Logger } from 'pino';
import type { FlvSink } from '../rtmp/rtmp-server.ts';
import type { LatencyMode } from './live-stream.ts';

/** What an output is told of the publish it serves. */
export interface PublishInfo {
  streamId: string;
  /** The stream's creator (the account whose settings apply). */
  creatorId: string;
  /** The stream's latency mode (`realtime` streams are also sent over WebRTC). */
  latencyMode: LatencyMode;
  /** 0 for the stream's first publish, 1 for the publish after a reconnect, and so on. */
  index: number;
  /** A child logger naming the stream and the publish. */
  logger: Logger;
}

/**
 * One output's work for one publish. Its sink receives the publisher's FLV as the ingest reads
 * it: the FLV header, then one tag per chunk. A run opened late (after an asynchronous open) is
 * first given the header and the audio and video sequence headers, then media from the next
 * video keyframe. `end()` is a clean end of the publish; `stop()` an abrupt one (shutdown, or the
 * stream ended elsewhere). Writes must never throw or wait.
 */
export interface OutputRun {
  readonly sink: FlvSink;
  stop(): void;
  /** Settles once the run has let go of everything it held (after `end()` or `stop()`). */
  readonly finished: Promise<void>;
}

export interface PublishOutput {
  /** Names the output in log lines. */
  readonly name: string;
  /** A run for this publish, or undefined when the output has nothing to do for it. */
  open(publish: PublishInfo): Promise<OutputRun | undefined>;
}
