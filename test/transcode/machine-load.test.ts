// Admission reads the machine's load from synthetic /proc files on a test clock: a moment's
// spike (a publish's own start-up) does not refuse a stream, load that lasts does, and what the
// budget's own transcoders spend is not counted twice.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fits, TranscodeBudget } from '../../src/transcode/budget.ts';
import { MachineLoad, parseMachineJiffies, parseProcessTicks } from '../../src/transcode/machine-load.ts';
import { TestClock } from '../helpers/clock.ts';

/** A 2-core machine whose /proc the test writes: busy ticks accumulate per second. */
class FakeProc {
  busy = 0;
  total = 0;
  readonly processes = new Map<number, number>();
  /** One second passes with `busyCores` of the 2 busy, `own` ticks spent by each pid given. */
  second(busyCores: number, own: Record<number, number> = {}): void {
    this.total += 200;
    this.busy += Math.round(busyCores * 100);
    for (const [pid, ticks] of Object.entries(own)) {
      this.processes.set(Number(pid), (this.processes.get(Number(pid)) ?? 0) + ticks);
    }
  }
  read = (file: string): string | undefined => {
    if (file === '/proc/stat') {
      const idle = this.total - this.busy;
      return [
        `cpu  ${this.busy} 0 0 ${idle} 0 0 0 0 0 0`,
        `cpu0 ${this.busy / 2} 0 0 ${idle / 2} 0 0 0 0 0 0`,
        `cpu1 ${this.busy / 2} 0 0 ${idle / 2} 0 0 0 0 0 0`,
        'intr 0',
      ].join('\n');
    }
    const pid = /^\/proc\/(\d+)\/stat$/.exec(file)?.[1];
    const ticks = pid === undefined ? undefined : this.processes.get(Number(pid));
    if (ticks === undefined) return undefined;
    // utime and stime are fields 14 and 15; the name may hold spaces and parentheses.
    return `${pid} (ffmpeg (x)) S 1 1 1 0 -1 0 0 0 0 0 ${ticks} 0 0 0 20 0 1 0`;
  };
}

function setup() {
  const clock = new TestClock(1_000_000);
  const proc = new FakeProc();
  // 2 cores less 25%: 1.5 for transcoding, the defaults.
  const budget = new TranscodeBudget({
    cores: 2,
    headroomPercent: 25,
    read: proc.read,
    now: () => clock.now(),
    sampling: false,
  });
  /** `seconds` pass at `busyCores`, sampled each second as the service's timer does. */
  const run = (seconds: number, busyCores: number, own: Record<number, number> = {}) => {
    for (let i = 0; i < seconds; i++) {
      proc.second(busyCores, own);
      clock.advance(1000);
      budget.sampleMachine();
    }
  };
  budget.sampleMachine();
  return { clock, proc, budget, run };
}

test('the /proc parsers', () => {
  assert.deepEqual(parseMachineJiffies('cpu  10 0 5 100 3 0 0 0 0 0\ncpu0 1 0 0 1 0\ncpu1 1 0 0 1 0\n'), {
    busy: 15,
    total: 118,
    cpus: 2,
  });
  assert.equal(parseMachineJiffies('garbage'), undefined);
  assert.equal(parseProcessTicks('42 (a) b) c) S 1 1 1 0 -1 0 0 0 0 0 7 5 0 0'), 12);
  assert.equal(parseProcessTicks('nonsense'), undefined);
});

test("a publish's own start-up spike does not refuse it; lasting load does", () => {
  const { budget, run } = setup();
  // 10 s idle (0.07 cores), then the publish's start-up: 2 s at 1.44 cores, as in the issue.
  run(10, 0.07);
  run(2, 1.44);
  // 720p30 → 480p + 360p: about 19 Mpx/s, 0.38 cores at the prior price.
  const admission = budget.decide('live', 19.2);
  assert.equal(admission.admitted, true, JSON.stringify(admission.figures));
  assert.ok(Math.abs(admission.figures.machineOtherCores - 0.07) < 0.01);
  assert.ok(Math.abs((admission.figures.machineBusyCores ?? 0) - 1.44) < 0.01, 'the spike is logged');
  admission.ticket.release();

  // Busy for longer than half the window: refused, with the figures that say why.
  run(6, 1.44);
  const refused = budget.decide('live', 19.2);
  assert.equal(refused.admitted, false);
  assert.ok(refused.figures.machineOtherCores > 1.4);
  assert.equal(fits(refused.figures), false);
  // And admitted again once the load has gone for more than half the window.
  run(6, 0.1);
  assert.equal(budget.decide('live', 19.2).admitted, true);
});

test("the budget's own transcoders are not counted twice, their start-up included", () => {
  const { budget, run } = setup();
  run(10, 0.05);
  // Priced at 0.6 cores each until measured.
  const first = budget.decide('live', 30);
  assert.ok(first.admitted);
  first.ticket.attach(501);
  // It starts (1.2 cores of start-up in its first second), then runs at 0.6; the machine's
  // busy cores include it.
  run(1, 1.25, { 501: 120 });
  run(9, 0.65, { 501: 60 });
  budget.sample();
  const second = budget.decide('live', 30);
  // Beside it: the rest of the machine (0.05) and the job itself (0.6 estimated); 1.25 ≤ 1.5.
  assert.ok(second.admitted, JSON.stringify(second.figures));
  assert.ok(second.figures.machineOtherCores < 0.1, JSON.stringify(second.figures));
  assert.ok(Math.abs(second.figures.jobsCores - 0.6) < 0.01);
  // A third does not fit: the two jobs take 1.2 of 1.5.
  assert.equal(budget.decide('live', 30).admitted, false);
});

test('an ended transcoder gives its room back at once', () => {
  const { budget, run } = setup();
  run(10, 0.05);
  const job = budget.decide('live', 60);
  assert.ok(job.admitted);
  job.ticket.attach(777);
  run(10, 1.25, { 777: 120 });
  assert.equal(budget.decide('live', 30).admitted, false, 'full');
  job.ticket.release();
  // The machine was busy with it for the whole window, but that was its CPU, not others'.
  run(1, 0.05);
  assert.equal(budget.decide('live', 30).admitted, true);
});

test('no reading yet: nothing is counted but the jobs', () => {
  const load = new MachineLoad({ read: () => undefined, cpus: 2 });
  load.sample(0, []);
  load.sample(1000, []);
  assert.deepEqual(load.reading(1000), { otherCores: 0, latestBusyCores: undefined, samples: 0 });
});
