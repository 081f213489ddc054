// /proc as a dedicated machine would show it to a service: `/proc/stat` counts only this process
// and its descendants (the service under test, its packagers and transcoders, the test's own
// publishers) on as many cores as this machine has, so a test of the CPU budget on a machine
// shared with other work sees "an otherwise idle server", with its own work, start-ups
// included, still in it. Every other file is read as it is.
import fs from 'node:fs';
import os from 'node:os';
import { readProc, type ProcReader } from '../../src/transcode/machine-load.ts';

/** User+system ticks of a process, its waited-for children and its live descendants. */
function treeTicks(pid: number): number {
  const text = readProc(`/proc/${pid}/stat`);
  if (text === undefined) return 0;
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // utime, stime, cutime, cstime.
  let ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index] ?? 0), 0);
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return ticks;
  }
  for (const task of tasks) {
    const children = readProc(`/proc/${pid}/task/${task}/children`) ?? '';
    for (const child of children.trim().split(/\s+/).filter(Boolean)) ticks += treeTicks(Number(child));
  }
  return ticks;
}

/**
 * A CPU spike injected into what ownTreeProc reports: while it lasts, `cores` more cores are
 * busy. Real busy processes would get only their share of a machine that other work shares,
 * so the spike's size would depend on the machine; this one is exactly what it says.
 */
export class InjectedSpike {
  private readonly cores: number;
  private since: number | undefined;
  private accumulated = 0;

  constructor(cores: number) {
    this.cores = cores;
  }

  start(): void {
    this.since ??= performance.now();
  }

  stop(): void {
    this.accumulated = this.ticks();
    this.since = undefined;
  }

  /** Busy ticks (1/100 s of one core) the spike has added so far. */
  ticks(): number {
    const running = this.since === undefined ? 0 : ((performance.now() - this.since) / 10) * this.cores;
    return this.accumulated + running;
  }
}

export function ownTreeProc(spike?: InjectedSpike): ProcReader {
  const cpus = os.availableParallelism();
  const startedAt = performance.now();
  const base = treeTicks(process.pid);
  let lastBusy = 0;
  return (file) => {
    if (file !== '/proc/stat') return readProc(file);
    // A child's ticks move into its parent's as it is waited for: never count backwards.
    lastBusy = Math.max(lastBusy, treeTicks(process.pid) - base + Math.round(spike?.ticks() ?? 0));
    const total = Math.round(((performance.now() - startedAt) / 10) * cpus);
    const idle = Math.max(0, total - lastBusy);
    const line = (name: string, busy: number, free: number) => `${name} ${busy} 0 0 ${free} 0 0 0 0 0 0`;
    const perCpu = Array.from({ length: cpus }, (_, index) =>
      line(`cpu${index}`, Math.round(lastBusy / cpus), Math.round(idle / cpus)),
    );
    return [line('cpu ', lastBusy, idle), ...perCpu, ''].join('\n');
  };
}
