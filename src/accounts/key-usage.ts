// When each API key was last used, kept coarse so the API's key check stays as cheap as it
// was: the check only notes the key id in memory (when it reads the key from the database,
// at most every half second per key), and the ids are written in one UPDATE at most once per
// FLUSH_EVERY_MS, or when the keys page asks. A crash loses at most that much of it.
import type { Db } from '../db/database.ts';
import type { Clock } from '../shared/clock.ts';
import { recordKeyUse } from './key-usage.repository.ts';

export const FLUSH_EVERY_MS = 60_000;

export class KeyUsage {
  private readonly db: Db;
  private readonly clock: Clock;
  private pending = new Set<string>();
  private lastFlush: number;
  private flushing: Promise<void> = Promise.resolve();

  constructor(db: Db, clock: Clock) {
    this.db = db;
    this.clock = clock;
    this.lastFlush = clock.now();
  }

  /** Called by the key check: no I/O unless a flush is due. */
  noteUse(keyId: string): void {
    this.pending.add(keyId);
    if (this.clock.now() - this.lastFlush >= FLUSH_EVERY_MS) void this.flush();
  }

  /** Writes what is pending, with the time of the flush. */
  flush(): Promise<void> {
    const ids = [...this.pending];
    this.pending = new Set();
    const at = this.clock.now();
    this.lastFlush = at;
    // Chained, so a page that asks waits for a flush already under way; a failed write is
    // only a stale "last used", never a failed request.
    this.flushing = this.flushing.then(() => recordKeyUse(this.db, ids, at)).catch(() => undefined);
    return this.flushing;
  }
}
