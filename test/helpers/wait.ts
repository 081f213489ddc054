// Tests wait for what they expect to happen, never for a fixed time: a loaded machine makes
// things slower, not different, so a deadline only bounds how long a failure takes to report.

export interface WaitOptions {
  /** Give up after this long (default 20 s: generous, since it only delays a failure). */
  timeoutMs?: number;
  /** What is awaited, for the failure message. */
  what?: string;
  /** How often to look again (default 25 ms). */
  intervalMs?: number;
  /** A condition that throws fails the wait at once, instead of counting as not yet. */
  failOnError?: boolean;
}

/**
 * Polls `condition` until it returns something other than undefined or false, and returns
 * that. A condition that throws counts as not yet (unless `failOnError`); its last error is
 * the failure's cause.
 */
export async function waitFor<T>(
  condition: () => Promise<T | undefined | false> | T | undefined | false,
  options: WaitOptions = {},
): Promise<T> {
  const deadline = performance.now() + (options.timeoutMs ?? 20_000);
  let lastError: unknown;
  for (;;) {
    try {
      const value = await condition();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      if (options.failOnError === true) throw error;
      lastError = error;
    }
    if (performance.now() > deadline) {
      throw new Error(`timed out waiting for ${options.what ?? 'a condition'}`, { cause: lastError });
    }
    await pause(options.intervalMs ?? 25);
  }
}

/**
 * Lets `ms` pass. Only for a test that checks that nothing more happens: the caller says in
 * a comment why that long is enough. Never before an assertion that something did happen.
 */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
