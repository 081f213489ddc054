// When the delivery worker runs a cycle: one at a time, at once when woken (many wake-ups in
// one tick make one cycle), again straight after a cycle that says work is left or was woken while it
// ran, a moment after an attempt frees a slot, at a retry's due time, and otherwise after the
// poll interval. The clock and timers are injected, so tests drive it without real waiting.
import type { Clock } from '../../shared/clock.ts';

/** The timer functions the scheduler uses; Node's unless a test gives its own. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setImmediate(callback: () => void): void;
}

export const nodeTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => {
    clearTimeout(handle as NodeJS.Timeout | undefined);
  },
  setImmediate: (callback) => {
    setImmediate(callback);
  },
};

export interface SchedulerOptions {
  clock: Clock;
  timers?: Timers;
  /** One cycle of work; resolves true when work is left for it, so another runs straight after. */
  cycle: () => Promise<boolean>;
  /** Asked after an idle cycle: when the next known work falls due (clock time), if any. */
  nextDueAt: () => Promise<number | undefined>;
  /** The longest sleep: work written where no signal reaches is found this late. */
  pollMs: number;
  /** How long after an attempt ends its slot is refilled, so slots freed together share a claim. */
  refillDelayMs: number;
  /** A cycle failed; the next one runs after the poll interval. */
  onError: (error: unknown) => void;
}

export class CycleScheduler {
  private readonly options: SchedulerOptions;
  private readonly timers: Timers;
  private running: Promise<void> | undefined;
  private again = false;
  private wakeQueued = false;
  private refillTimer: unknown;
  private timer: unknown;
  /** When `timer` fires; Infinity when none is set. */
  private timerAt = Infinity;
  private stopped = false;

  constructor(options: SchedulerOptions) {
    this.options = options;
    this.timers = options.timers ?? nodeTimers;
  }

  /** Runs a cycle soon; many wake-ups in one tick make one cycle. */
  wake(): void {
    if (this.stopped || this.wakeQueued) return;
    this.wakeQueued = true;
    this.timers.setImmediate(() => {
      this.wakeQueued = false;
      this.run();
    });
  }

  /** A slot was freed: wakes after the refill delay, unless a wake-up is already on its way. */
  wakeSoon(): void {
    if (this.stopped || this.wakeQueued || this.refillTimer !== undefined) return;
    this.refillTimer = this.timers.setTimeout(() => {
      this.refillTimer = undefined;
      this.wake();
    }, this.options.refillDelayMs);
  }

  /** Makes sure a cycle runs at `at` (clock time), unless one is already set for sooner. */
  wakeAt(at: number): void {
    if (at >= this.timerAt) return;
    this.sleep(Math.max(0, at - this.options.clock.now()));
  }

  /** Whether stop() was called. */
  get isStopped(): boolean {
    return this.stopped;
  }

  /** No cycle starts after this; resolves once the one running (if any) has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timers.clearTimeout(this.timer);
    this.timers.clearTimeout(this.refillTimer);
    this.timer = undefined;
    this.refillTimer = undefined;
    this.timerAt = Infinity;
    while (this.running) await this.running;
  }

  private run(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.cycleThenSleep()
      .catch((error: unknown) => {
        this.options.onError(error);
        this.sleep(this.options.pollMs);
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async cycleThenSleep(): Promise<void> {
    if (await this.options.cycle()) this.again = true;
    if (this.again || this.stopped) return;
    // Sleeps until the next retry falls due, or the poll interval, whichever is sooner.
    const { clock, pollMs } = this.options;
    const next = await this.options.nextDueAt();
    const now = clock.now();
    this.sleep(next === undefined || next <= now ? pollMs : Math.min(pollMs, next - now));
  }

  private sleep(ms: number): void {
    this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
    if (this.stopped) return;
    this.timerAt = this.options.clock.now() + ms;
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.wake();
    }, ms);
  }
}
