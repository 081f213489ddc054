// Who is watching each live stream now, as the ingest reads it to write viewer_count. A live
// viewer is a (client address, viewer) pair whose player sent presence within the window
// (viewer-contract.md). Two stores: this process's memory (ViewerTracker), or Redis when
// REDIS_URL is set so that every API process adds to one count per stream
// (redis-live-viewers.ts).
import { ViewerTracker, VIEWER_LIMITS, type ViewerLimits } from '../media/viewer-tracker.ts';
import type { Clock } from '../shared/clock.ts';

/** Players send presence every 5 s; three missed signals and a viewer has left. */
export const PRESENCE_WINDOW_MS = 15_000;

export interface LiveViewers {
  /** Records the viewer's presence now; one beyond its address's share or the bounds is dropped. */
  seen(streamId: string, address: string, viewer: string): Promise<void>;
  /** Viewers seen within the window, over every process sharing the store. */
  count(streamId: string): Promise<number>;
  /** Streams this process recorded viewers of (the ingest also asks for its own live streams). */
  streamIds(): string[];
  close(): Promise<void>;
}

export class MemoryLiveViewers implements LiveViewers {
  readonly tracker: ViewerTracker;

  constructor(clock: Clock, windowMs = PRESENCE_WINDOW_MS, limits: ViewerLimits = VIEWER_LIMITS) {
    this.tracker = new ViewerTracker(clock, windowMs, limits);
  }

  async seen(streamId: string, address: string, viewer: string): Promise<void> {
    this.tracker.seen(streamId, address, viewer);
  }

  async count(streamId: string): Promise<number> {
    return this.tracker.count(streamId);
  }

  streamIds(): string[] {
    return this.tracker.streamIds();
  }

  async close(): Promise<void> {
    // Nothing held outside memory.
  }
}
