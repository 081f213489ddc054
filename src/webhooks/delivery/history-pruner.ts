// Keeps delivery history to WEBHOOK_HISTORY_DAYS: at most once a minute, the worker deletes
// settled deliveries (with their attempts) and then the events left without any delivery,
// in small batches so no statement holds locks for long.
import type { Db } from '../../db/database.ts';
import * as history from './history.repository.ts';
import { oldestRunningRecoverySince } from './recovery.repository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
export const PRUNE_INTERVAL_MS = 60_000;
export const PRUNE_BATCH_ROWS = 500;
/** Statements per run and kind; a larger backlog is worked off over the following minutes. */
const MAX_BATCHES_PER_RUN = 20;

export interface PruneResult {
  deliveries: number;
  events: number;
}

export class HistoryPruner {
  private readonly db: Db;
  private readonly historyDays: number;
  private readonly batchRows: number;
  private lastRun = -Infinity;

  constructor(db: Db, historyDays: number, batchRows = PRUNE_BATCH_ROWS) {
    this.db = db;
    this.historyDays = historyDays;
    this.batchRows = batchRows;
  }

  /** Prunes unless it did less than a minute ago; undefined when it did not run. */
  async maybeRun(now: number): Promise<PruneResult | undefined> {
    if (now - this.lastRun < PRUNE_INTERVAL_MS) return undefined;
    this.lastRun = now;
    return this.run(now);
  }

  async run(now: number): Promise<PruneResult> {
    const before = now - this.historyDays * DAY_MS;
    const deliveries = await this.repeat((limit) => history.pruneSettledDeliveries(this.db, before, limit));
    // A running recovery still reads the events of its window.
    const recoverySince = await oldestRunningRecoverySince(this.db);
    const eventsBefore = recoverySince === undefined ? before : Math.min(before, recoverySince);
    const events = await this.repeat((limit) => history.pruneUnusedEvents(this.db, eventsBefore, limit));
    return { deliveries, events };
  }

  private async repeat(batch: (limit: number) => Promise<number>): Promise<number> {
    let total = 0;
    for (let i = 0; i < MAX_BATCHES_PER_RUN; i += 1) {
      const deleted = await batch(this.batchRows);
      total += deleted;
      if (deleted < this.batchRows) break;
    }
    return total;
  }
}
