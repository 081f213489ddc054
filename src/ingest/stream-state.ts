// Where one stream is in its life while ingest handles it, from an admitted publish to its end.
// The phases and what moves a stream between them (stream-lifecycle.ts does the moving):
//
//   publishing   --publisher dropped-->   reconnecting --publish again--> publishing
//   publishing   --publisher stopped-->   stopping     --publish again--> publishing
//   reconnecting / stopping --window or grace over--> finishing (recording) --> gone
//   any phase    --ended elsewhere, or a publish that never went live ends--> finishing
//
// `live` is separate: a stream goes live once its first segment is playable, in whichever
// phase that happens.
import type { LivePublish } from '../live/live-publish.ts';
import type { LiveStream } from '../live/live-stream.ts';
import type { StreamRow } from '../streams/stream.table.ts';

export type StreamPhase = 'publishing' | 'reconnecting' | 'stopping' | 'finishing';

export class StreamState {
  readonly streamId: string;
  readonly creatorId: string;
  /** The stream's media: segments of each publish, its ladder, its folder, its queue. */
  readonly media: LiveStream;
  phase: StreamPhase = 'publishing';
  live: boolean;
  /** The publish taking media now, if any. */
  publish: LivePublish | undefined;
  /** Every publish whose packagers may still be writing. */
  readonly publishes = new Set<LivePublish>();
  reconnectTimer: NodeJS.Timeout | undefined;
  /** The latest publish's outputs finishing (the next publish opens its own after). */
  outputsFinished: Promise<void> = Promise.resolve();

  constructor(stream: StreamRow, media: LiveStream) {
    this.streamId = stream.id;
    this.creatorId = stream.creator_id;
    this.media = media;
    this.live = stream.status === 'live';
  }

  get finishing(): boolean {
    return this.phase === 'finishing';
  }

  /** Inside a reconnect window after a drop (the watch page says so). */
  get reconnecting(): boolean {
    return this.phase === 'reconnecting';
  }

  /** Live and taking media: what upkeep looks after. */
  get active(): boolean {
    return this.live && this.phase !== 'finishing';
  }
}
