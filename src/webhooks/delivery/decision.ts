// What an attempt's outcome means for the delivery: done, try again later, or give up.
import { nextRetryDelay, parseRetryAfter, type RetrySchedule } from './retry-schedule.ts';
import type { SendOutcome } from './sender.ts';

export type Decision =
  | { kind: 'succeeded' }
  | { kind: 'retry'; at: number; reason: string }
  /** No attempts left. `disable` is set when the answer itself ends the webhook (410 Gone). */
  | { kind: 'failed'; reason: string; disable?: string };

export function describeOutcome(outcome: Exclude<SendOutcome, { kind: 'aborted' }>): string {
  return outcome.kind === 'answered' ? `HTTP ${outcome.statusCode}` : outcome.error;
}

export function decide(
  outcome: Exclude<SendOutcome, { kind: 'aborted' }>,
  attempt: number,
  schedule: RetrySchedule,
  now: number,
  random: () => number,
): Decision {
  if (outcome.kind === 'answered' && outcome.statusCode >= 200 && outcome.statusCode < 300) {
    return { kind: 'succeeded' };
  }
  const reason = describeOutcome(outcome);
  if (outcome.kind === 'answered' && outcome.statusCode === 410) {
    return { kind: 'failed', reason, disable: 'the receiver answered 410 Gone' };
  }
  const honoursRetryAfter =
    outcome.kind === 'answered' && (outcome.statusCode === 429 || outcome.statusCode === 503);
  const retryAfterMs = honoursRetryAfter ? parseRetryAfter(outcome.retryAfter, now) : undefined;
  const delay = nextRetryDelay(schedule, attempt, random, retryAfterMs);
  if (delay === undefined) return { kind: 'failed', reason };
  return { kind: 'retry', at: now + delay, reason };
}
