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

export function ownTreeProc(): ProcReader {
  const cpus = os.availableParallelism();
  const startedAt = performance.now();
  const base = treeTicks(process.pid);
  let lastBusy = 0;
  return (file) => {
    if (file !== '/proc/stat') return readProc(file);
    // A child's ticks move into its parent's as it is waited for: never count backwards.
    lastBusy = Math.max(lastBusy, treeTicks(process.pid) - base);
    const total = Math.round(((performance.now() - startedAt) / 10) * cpus);
    const idle = Math.max(0, total - lastBusy);
    const line = (name: string, busy: number, free: number) => `${name} ${busy} 0 0 ${free} 0 0 0 0 0 0`;
    const perCpu = Array.from({ length: cpus }, (_, index) =>
      line(`cpu${index}`, Math.round(lastBusy / cpus), Math.round(idle / cpus)),
    );
    return [line('cpu ', lastBusy, idle), ...perCpu, ''].join('\n');
  };
}
