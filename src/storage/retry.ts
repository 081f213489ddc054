// Trying a storage operation again when its failure may pass: a bounded number of attempts,
// exponential back-off with jitter, longer after throttling. Only StorageErrors marked retryable
// are tried again; anything else (a refusal, a bug) is thrown at once.
//
// This is the operation-level retry (a whole put, a whole delete of a prefix). Below it the AWS
// SDK retries each HTTP request on its own (S3MediaStorage's `maxAttempts`, so one failed part
// of a multipart upload does not restart the upload).
import { StorageError } from './storage-errors.ts';

export interface RetryOptions {
  /** Attempts in all, the first included (at least 1). */
  attempts?: number;
  /** The pause after the first failure; doubled after each, up to maxDelayMs. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Stops waiting and rethrows the last error when aborted. */
  signal?: AbortSignal;
  /** Told of each failure that will be tried again, before the pause (for logs and states). */
  onRetry?: (error: StorageError, attempt: number, delayMs: number) => void;
  /** The pause itself; tests pass one that does not wait. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A number in [0, 1) for the jitter; Math.random unless given. */
  random?: () => number;
}

export const RETRY_DEFAULTS = { attempts: 5, baseDelayMs: 200, maxDelayMs: 10_000 } as const;

/** After throttling the pause is at least this long: the store said it is overloaded. */
const THROTTLED_MIN_DELAY_MS = 1000;

/**
 * The pause before attempt `attempt + 1`: base × 2^(attempt − 1), capped, then between half and
 * all of it ("equal jitter"), so processes that failed together do not come back together.
 */
export function backoffDelay(
  attempt: number,
  options: { baseDelayMs: number; maxDelayMs: number; throttled: boolean; random: () => number },
): number {
  const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  const floor = options.throttled ? Math.min(options.maxDelayMs, THROTTLED_MIN_DELAY_MS) : 0;
  const capped = Math.max(exponential, floor);
  return Math.round(capped / 2 + (capped / 2) * options.random());
}

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Runs `operation` until it succeeds, fails with an error that is not retryable, or has been
 * tried `attempts` times; the last error is thrown as it was. `operation` gets the attempt's
 * number (1 for the first) and must be safe to run again (a put from a file, not from a stream
 * already consumed).
 */
export async function withRetry<T>(
  operation: (attempt: number) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const attempts = Math.max(1, Math.floor(options.attempts ?? RETRY_DEFAULTS.attempts));
  const baseDelayMs = options.baseDelayMs ?? RETRY_DEFAULTS.baseDelayMs;
  const maxDelayMs = options.maxDelayMs ?? RETRY_DEFAULTS.maxDelayMs;
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation(attempt);
    } catch (error) {
      if (!(error instanceof StorageError) || !error.retryable) throw error;
      if (attempt >= attempts || isAborted(options.signal)) throw error;
      const delayMs = backoffDelay(attempt, {
        baseDelayMs,
        maxDelayMs,
        throttled: error.kind === 'throttled',
        random,
      });
      options.onRetry?.(error, attempt, delayMs);
      await sleep(delayMs, options.signal);
      if (isAborted(options.signal)) throw error;
    }
  }
}
