// A live stream's viewer count over time, for the creator's chart. The ingest's upkeep offers
// the current count of each stream it publishes every couple of seconds; one sample per stream
// is kept per interval (10 s), so a stream live for a day is 8,640 rows. Samples older than
// the retention are pruned (and a stream's samples go with the stream), so the table is bounded.
import type { Db } from '../db/database.ts';
import type { Clock } from '../shared/clock.ts';
import * as repo from './viewer-sample.repository.ts';

export const SAMPLE_INTERVAL_MS = 10_000;
export const SAMPLE_RETENTION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** The chart reads at most this many points (a day at one per 10 s). */
export const MAX_CHART_SAMPLES = 8640;

export interface ViewerSample {
  at: number;
  viewerCount: number;
}

export interface ViewerSamplesOptions {
  intervalMs?: number;
  retentionDays?: number;
}

export class ViewerSamples {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly intervalMs: number;
  private readonly retentionMs: number;
  /** When each stream was last sampled by this process; forgotten when it stops being offered. */
  private readonly lastSampled = new Map<string, number>();
  private lastPruned = 0;

  constructor(db: Db, clock: Clock, options: ViewerSamplesOptions = {}) {
    this.db = db;
    this.clock = clock;
    this.intervalMs = options.intervalMs ?? SAMPLE_INTERVAL_MS;
    this.retentionMs = (options.retentionDays ?? SAMPLE_RETENTION_DAYS) * DAY_MS;
  }

  /** Records `count` for the stream unless it was sampled less than an interval ago. */
  async offer(streamId: string, count: number): Promise<boolean> {
    const now = this.clock.now();
    const last = this.lastSampled.get(streamId);
    if (last !== undefined && now - last < this.intervalMs) return false;
    this.lastSampled.set(streamId, now);
    await repo.insertSample(this.db, { stream_id: streamId, at: now, viewer_count: count });
    return true;
  }

  /** The stream is no longer live here: its next live period samples at once. */
  forget(streamId: string): void {
    this.lastSampled.delete(streamId);
  }

  /** Deletes samples older than the retention, at most once an hour. */
  async pruneIfDue(): Promise<number> {
    const now = this.clock.now();
    if (now - this.lastPruned < PRUNE_EVERY_MS) return 0;
    this.lastPruned = now;
    return repo.deleteSamplesBefore(this.db, now - this.retentionMs);
  }

  /** Oldest first; the latest MAX_CHART_SAMPLES of the stream. */
  async history(streamId: string): Promise<ViewerSample[]> {
    const rows = await repo.listSamples(this.db, streamId, MAX_CHART_SAMPLES);
    return rows.map((row) => ({ at: row.at, viewerCount: row.viewer_count }));
  }
}
