// Slows down guessing stream keys over RTMP. Each unknown key counts against the address it
// came from; a few within a window lock the address out, and while locked out its publish
// attempts are refused without looking the key up. Each further lockout of the same address
// lasts twice as long (up to a ceiling), and an address is forgotten once it has been quiet
// for as long as the longest lockout. The table is bounded: when full, expired entries go
// first, then the least recently active. IPv6 addresses count per /64, the block one host
// usually has to itself.
import { clientKey } from '../shared/client-address.ts';
import type { Clock } from '../shared/clock.ts';

export interface PenaltyBoxOptions {
  clock: Clock;
  /** Unknown keys from one address within `windowMs` that lock it out. */
  maxFailures?: number;
  windowMs?: number;
  /** The first lockout; each further one doubles, up to `maxLockMs`. */
  lockMs?: number;
  maxLockMs?: number;
  /** Addresses remembered at once. */
  maxEntries?: number;
}

interface Entry {
  windowStart: number;
  failures: number;
  lockedUntil: number;
  /** Lockouts so far, for the doubling. */
  strikes: number;
  lastFailure: number;
}

export const PENALTY_DEFAULTS = {
  maxFailures: 5,
  windowMs: 60_000,
  lockMs: 30_000,
  maxLockMs: 15 * 60_000,
  maxEntries: 10_000,
};

export class PenaltyBox {
  private readonly clock: Clock;
  private readonly settings: typeof PENALTY_DEFAULTS;
  private readonly entries = new Map<string, Entry>();

  constructor(options: PenaltyBoxOptions) {
    this.clock = options.clock;
    this.settings = {
      maxFailures: options.maxFailures ?? PENALTY_DEFAULTS.maxFailures,
      windowMs: options.windowMs ?? PENALTY_DEFAULTS.windowMs,
      lockMs: options.lockMs ?? PENALTY_DEFAULTS.lockMs,
      maxLockMs: options.maxLockMs ?? PENALTY_DEFAULTS.maxLockMs,
      maxEntries: options.maxEntries ?? PENALTY_DEFAULTS.maxEntries,
    };
  }

  get size(): number {
    return this.entries.size;
  }

  /** Milliseconds the address is still locked out for; 0 when it may try a key. */
  lockedFor(address: string): number {
    const key = clientKey(address);
    const entry = this.entries.get(key);
    if (!entry) return 0;
    const now = this.clock.now();
    if (this.expired(entry, now)) {
      this.entries.delete(key);
      return 0;
    }
    return Math.max(0, entry.lockedUntil - now);
  }

  /** An unknown key came from `address`. */
  recordFailure(address: string): void {
    const key = clientKey(address);
    const now = this.clock.now();
    let entry = this.entries.get(key);
    if (entry && this.expired(entry, now)) entry = undefined;
    if (!entry) {
      entry = { windowStart: now, failures: 0, lockedUntil: 0, strikes: 0, lastFailure: now };
      this.makeRoom(now);
    }
    // Re-inserted so the map's order is least recently active first.
    this.entries.delete(key);
    this.entries.set(key, entry);
    entry.lastFailure = now;
    if (now - entry.windowStart > this.settings.windowMs) {
      entry.windowStart = now;
      entry.failures = 0;
    }
    entry.failures += 1;
    if (entry.failures >= this.settings.maxFailures) {
      const lock = Math.min(this.settings.lockMs * 2 ** entry.strikes, this.settings.maxLockMs);
      entry.lockedUntil = now + lock;
      entry.strikes += 1;
      entry.failures = 0;
      entry.windowStart = now;
    }
  }

  private expired(entry: Entry, now: number): boolean {
    return (
      now >= entry.lockedUntil &&
      now - entry.lastFailure > Math.max(this.settings.maxLockMs, this.settings.windowMs)
    );
  }

  private makeRoom(now: number): void {
    if (this.entries.size < this.settings.maxEntries) return;
    for (const [key, entry] of this.entries) {
      if (this.expired(entry, now)) this.entries.delete(key);
    }
    while (this.entries.size >= this.settings.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }
}
