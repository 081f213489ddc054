// Fixed one-minute windows (decisions.md, Limits). The store is an interface so several
// processes can share one budget per key through Redis; the in-process store serves the
// embedded, single-process mode.

export const RATE_LIMIT_WINDOW_MS = 60_000;

export interface RateLimitHit {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** When the current window ends, in epoch milliseconds. */
  resetAt: number;
}

export interface RateLimitStore {
  /**
   * Counts one request. A store that knows the count without I/O returns it directly, so the
   * access check of every request does not wait a turn of the event loop for it.
   */
  hit(bucket: string, now: number): RateLimitHit | Promise<RateLimitHit>;
  close(): Promise<void>;
}

export function windowStart(now: number): number {
  return now - (now % RATE_LIMIT_WINDOW_MS);
}

export class MemoryRateLimitStore implements RateLimitStore {
  private window = 0;
  private counts = new Map<string, number>();

  hit(bucket: string, now: number): RateLimitHit {
    const start = windowStart(now);
    // Windows are aligned for every bucket, so a new window simply starts a new map.
    if (start !== this.window) {
      this.window = start;
      this.counts = new Map();
    }
    const count = (this.counts.get(bucket) ?? 0) + 1;
    this.counts.set(bucket, count);
    return { count, resetAt: start + RATE_LIMIT_WINDOW_MS };
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
