// Who is watching a live stream now: each player that fetched the stream's playlist within
// the window counts once. A live player refetches the playlist every segment (2 s), so a
// player that stops, closes or pauses drops out within the window. Counts are per process;
// the ingest writes them to the stream (viewer_count, peak_viewer_count) every few seconds.
import type { Clock } from '../shared/clock.ts';

export const VIEWER_WINDOW_MS = 10_000;
/** A bound on memory per stream, far above any one process's real audience. */
const MAX_VIEWERS_PER_STREAM = 100_000;

export class ViewerTracker {
  private readonly clock: Clock;
  private readonly windowMs: number;
  private readonly seenByStream = new Map<string, Map<string, number>>();

  constructor(clock: Clock, windowMs = VIEWER_WINDOW_MS) {
    this.clock = clock;
    this.windowMs = windowMs;
  }

  /** Records that the player `viewer` fetched the stream's playlist now. */
  seen(streamId: string, viewer: string): void {
    let seen = this.seenByStream.get(streamId);
    if (!seen) {
      seen = new Map();
      this.seenByStream.set(streamId, seen);
    }
    if (!seen.has(viewer) && seen.size >= MAX_VIEWERS_PER_STREAM) this.prune(streamId, seen);
    if (seen.has(viewer) || seen.size < MAX_VIEWERS_PER_STREAM) seen.set(viewer, this.clock.now());
  }

  /** Distinct players seen within the window. */
  count(streamId: string): number {
    const seen = this.seenByStream.get(streamId);
    if (!seen) return 0;
    this.prune(streamId, seen);
    return seen.size;
  }

  /** Streams with viewers recorded, including ones whose viewers have just left. */
  streamIds(): string[] {
    return [...this.seenByStream.keys()];
  }

  private prune(streamId: string, seen: Map<string, number>): void {
    const oldest = this.clock.now() - this.windowMs;
    for (const [viewer, at] of seen) if (at < oldest) seen.delete(viewer);
    if (seen.size === 0) this.seenByStream.delete(streamId);
  }
}
