// When the next attempt happens. Attempt 1 is immediate; attempt n+1 waits delays[n-1],
// spread by ±10% jitter so a receiver coming back is not hit by every retry at once.

export const JITTER = 0.1;

export interface RetrySchedule {
  /** Delays before attempts 2..n in milliseconds; attempts allowed = delays + 1. */
  delaysMs: readonly number[];
}

export function maxAttempts(schedule: RetrySchedule): number {
  return schedule.delaysMs.length + 1;
}

/**
 * The delay before the next attempt after `attemptsMade` attempts failed, or undefined when
 * none is left. A Retry-After from a 429 or 503 is honoured within the schedule's bounds: never
 * sooner than the scheduled delay, never later than the schedule's longest delay.
 */
export function nextRetryDelay(
  schedule: RetrySchedule,
  attemptsMade: number,
  random: () => number,
  retryAfterMs?: number,
): number | undefined {
  const scheduled = schedule.delaysMs[attemptsMade - 1];
  if (scheduled === undefined) return undefined;
  const jittered = Math.round(scheduled * (1 - JITTER + 2 * JITTER * random()));
  if (retryAfterMs === undefined) return jittered;
  const longest = Math.max(...schedule.delaysMs);
  return Math.min(Math.max(jittered, retryAfterMs), longest);
}

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
