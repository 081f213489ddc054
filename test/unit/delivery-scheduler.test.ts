// The delivery worker's scheduler, driven by a TestClock and timers that fire only when the
// test moves the clock: no real waiting, so every assertion about "not yet" is exact.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CycleScheduler, type SchedulerOptions, type Timers } from '../../src/webhooks/delivery/scheduler.ts';
import { TestClock } from '../helpers/clock.ts';

interface FakeTimer {
  at: number;
  callback: () => void;
  cancelled: boolean;
}

/** Timers on a TestClock: a timeout fires when advance() moves the clock past its time. */
class FakeTimers implements Timers {
  private readonly clock: TestClock;
  private timeouts: FakeTimer[] = [];
  private immediates: (() => void)[] = [];

  constructor(clock: TestClock) {
    this.clock = clock;
  }

  setTimeout(callback: () => void, ms: number): FakeTimer {
    const timer = { at: this.clock.now() + ms, callback, cancelled: false };
    this.timeouts.push(timer);
    return timer;
  }

  clearTimeout(handle: unknown): void {
    if (handle) (handle as FakeTimer).cancelled = true;
  }

  setImmediate(callback: () => void): void {
    this.immediates.push(callback);
  }

  /** When the pending timeouts fire, relative to now. */
  pending(): number[] {
    return this.live()
      .map((timer) => timer.at - this.clock.now())
      .sort((a, b) => a - b);
  }

  /** Runs queued immediates and lets the promises they start settle, until nothing is left. */
  async settle(): Promise<void> {
    for (let round = 0; round < 1000; round++) {
      // A real macrotask turn: every promise callback queued so far runs first.
      await new Promise((resolve) => setImmediate(resolve));
      if (this.immediates.length === 0) return;
      const batch = this.immediates;
      this.immediates = [];
      for (const callback of batch) callback();
    }
    throw new Error('the scheduler never went idle');
  }

  /** Moves the clock by `ms`, firing each timeout due on the way at its own time. */
  async advance(ms: number): Promise<void> {
    const target = this.clock.now() + ms;
    await this.settle();
    for (;;) {
      const next = this.live()
        .filter((timer) => timer.at <= target)
        .sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.clock.set(next.at);
      next.cancelled = true;
      next.callback();
      await this.settle();
    }
    this.clock.set(target);
    await this.settle();
  }

  private live(): FakeTimer[] {
    this.timeouts = this.timeouts.filter((timer) => !timer.cancelled);
    return this.timeouts;
  }
}

const POLL_MS = 1000;
const REFILL_MS = 2;

/** A scheduler whose cycles the test scripts: each returns the next queued result (false when none). */
function harness(overrides: Partial<SchedulerOptions> = {}) {
  const clock = new TestClock(1_000_000);
  const timers = new FakeTimers(clock);
  const state = {
    cycles: 0,
    running: 0,
    mostAtOnce: 0,
    results: [] as boolean[],
    nextDue: undefined as number | undefined,
    errors: [] as unknown[],
    /** When set, a cycle waits for this before it ends. */
    gate: undefined as Promise<void> | undefined,
  };
  const scheduler = new CycleScheduler({
    clock,
    timers,
    pollMs: POLL_MS,
    refillDelayMs: REFILL_MS,
    cycle: async () => {
      state.cycles += 1;
      state.running += 1;
      state.mostAtOnce = Math.max(state.mostAtOnce, state.running);
      try {
        if (state.gate) await state.gate;
        return state.results.shift() ?? false;
      } finally {
        state.running -= 1;
      }
    },
    nextDueAt: () => Promise.resolve(state.nextDue),
    onError: (error) => {
      state.errors.push(error);
    },
    ...overrides,
  });
  return { clock, timers, state, scheduler };
}

describe('delivery cycle scheduler', () => {
  test('many wake-ups in one tick make one cycle', async () => {
    const { timers, state, scheduler } = harness();
    for (let i = 0; i < 50; i++) scheduler.wake();
    await timers.settle();
    assert.equal(state.cycles, 1);
  });

  test('a cycle that found work is followed by another at once, until one finds none', async () => {
    const { timers, state, scheduler } = harness();
    state.results = [true, true, true];
    scheduler.wake();
    await timers.settle();
    assert.equal(state.cycles, 4, 'three busy cycles and the idle one after them');
    assert.deepEqual(timers.pending(), [POLL_MS], 'then it sleeps for the poll interval');
  });

  test('idle, it sleeps the poll interval exactly, then looks again', async () => {
    const { timers, state, scheduler } = harness();
    scheduler.wake();
    await timers.settle();
    assert.equal(state.cycles, 1);
    await timers.advance(POLL_MS - 1);
    assert.equal(state.cycles, 1, 'not a millisecond early');
    await timers.advance(1);
    assert.equal(state.cycles, 2);
  });

  test('a retry due before the poll interval wakes it at the due time; one already due waits a poll', async () => {
    const { clock, timers, state, scheduler } = harness();
    state.nextDue = clock.now() + 300;
    scheduler.wake();
    await timers.settle();
    assert.deepEqual(timers.pending(), [300]);
    await timers.advance(299);
    assert.equal(state.cycles, 1);
    // Due now (its webhook is at its limit, say): a freed slot wakes the worker, not a busy loop.
    state.nextDue = clock.now() + 1;
    await timers.advance(1);
    assert.equal(state.cycles, 2);
    assert.deepEqual(timers.pending(), [POLL_MS]);
  });

  test('a wake-up while a cycle runs makes one more cycle after it, never two at once', async () => {
    const { timers, state, scheduler } = harness();
    let open!: () => void;
    state.gate = new Promise((resolve) => (open = resolve));
    scheduler.wake();
    await timers.settle();
    assert.equal(state.running, 1);
    for (let i = 0; i < 5; i++) {
      scheduler.wake();
      await timers.settle();
    }
    assert.equal(state.cycles, 1, 'the running cycle is not joined by another');
    state.gate = undefined;
    open();
    await timers.settle();
    assert.equal(state.cycles, 2, 'the wake-ups during it make exactly one more');
    assert.equal(state.mostAtOnce, 1);
  });

  test('wakeAt brings a later timer forward, and leaves a sooner one alone', async () => {
    const { clock, timers, state, scheduler } = harness();
    scheduler.wake();
    await timers.settle();
    assert.deepEqual(timers.pending(), [POLL_MS]);
    scheduler.wakeAt(clock.now() + 200);
    assert.deepEqual(timers.pending(), [200]);
    scheduler.wakeAt(clock.now() + 500);
    assert.deepEqual(timers.pending(), [200], 'a later retry does not push the wake-up back');
    await timers.advance(200);
    assert.equal(state.cycles, 2);
  });

  test('freed slots are refilled after the refill delay, by one cycle for many', async () => {
    const { timers, state, scheduler } = harness();
    scheduler.wake();
    await timers.settle();
    for (let i = 0; i < 10; i++) scheduler.wakeSoon();
    assert.deepEqual(timers.pending(), [REFILL_MS, POLL_MS]);
    await timers.advance(REFILL_MS - 1);
    assert.equal(state.cycles, 1);
    await timers.advance(1);
    assert.equal(state.cycles, 2);
  });

  test('a failed cycle is reported and tried again after the poll interval', async () => {
    const failure = new Error('database went away');
    let calls = 0;
    const { timers, state, scheduler } = harness({
      cycle: () => {
        calls += 1;
        return calls === 1 ? Promise.reject(failure) : Promise.resolve(false);
      },
    });
    scheduler.wake();
    await timers.settle();
    assert.deepEqual(state.errors, [failure]);
    assert.deepEqual(timers.pending(), [POLL_MS]);
    await timers.advance(POLL_MS);
    assert.equal(calls, 2);
  });

  test('stop waits for the running cycle, clears its timers, and nothing runs after', async () => {
    const { timers, state, scheduler } = harness();
    let open!: () => void;
    state.gate = new Promise((resolve) => (open = resolve));
    state.results = [true];
    scheduler.wake();
    await timers.settle();
    scheduler.wakeSoon();
    let stopped = false;
    const stopping = scheduler.stop().then(() => (stopped = true));
    await timers.settle();
    assert.equal(stopped, false, 'the cycle in progress is waited for');
    open();
    await stopping;
    assert.equal(state.cycles, 1, 'the busy cycle is not followed by another once stopped');
    assert.deepEqual(timers.pending(), []);
    scheduler.wake();
    scheduler.wakeSoon();
    scheduler.wakeAt(0);
    await timers.advance(10 * POLL_MS);
    assert.equal(state.cycles, 1);
  });
});
