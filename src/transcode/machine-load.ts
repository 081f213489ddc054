// The machine's load as transcoding admission reads it. One /proc/stat reading every second
// gives the busy cores of each second; the CPU the budget's own transcoders spent in that second
// (their /proc/<pid>/stat) is taken out, because the budget counts them itself. Admission reads
// the median of the last 10 s of what is left, so a moment's spike (a publish's own start-up:
// the RTMP handshake, the packager's ffmpeg being spawned, the publisher's encoder on the same
// host) does not decide it, while load that lasts more than half the window does.
import fs from 'node:fs';

/** Reads a /proc file; undefined when it cannot be read (a process that is gone, no /proc). */
export type ProcReader = (file: string) => string | undefined;

export const readProc: ProcReader = (file) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

/** How long a window of seconds admission reads the median of. */
export const LOAD_WINDOW_MS = 10_000;

export interface MachineJiffies {
  busy: number;
  total: number;
  /** The `cpuN` lines: the processors the totals are summed over. */
  cpus: number;
}

/** Busy and total jiffies of the whole machine (the first line of /proc/stat). */
export function parseMachineJiffies(text: string): MachineJiffies | undefined {
  const lines = text.split('\n');
  const first = lines[0] ?? '';
  if (!first.startsWith('cpu ')) return undefined;
  const values = first.trim().split(/\s+/).slice(1).map(Number);
  if (values.length < 5 || values.some((value) => !Number.isFinite(value))) return undefined;
  const total = values.reduce((sum, value) => sum + value, 0);
  const cpus = lines.filter((line) => /^cpu\d+ /.test(line)).length;
  // idle and iowait are the 4th and 5th values.
  return { busy: total - (values[3] ?? 0) - (values[4] ?? 0), total, cpus };
}

/** User plus system CPU time of a process in clock ticks (its /proc/<pid>/stat). */
export function parseProcessTicks(text: string): number | undefined {
  // The command name (field 2) may hold spaces and parentheses: count fields after its end.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? utime + stime : undefined;
}

/** One second (or so) of the machine, in cores. */
export interface LoadSample {
  at: number;
  /** Everything the machine had busy. */
  busyCores: number;
  /** What the budget's own transcoders spent of it. */
  ownCores: number;
  /** The rest: other services, copy-only packagers, this process, the system. */
  otherCores: number;
}

export interface LoadReading {
  /** The median of `otherCores` over the window (0 before any sample). */
  otherCores: number;
  /** The latest sample's busy cores, for the log. */
  latestBusyCores: number | undefined;
  samples: number;
}

export class MachineLoad {
  private readonly read: ProcReader;
  private readonly windowMs: number;
  private readonly fallbackCpus: number;
  private last: MachineJiffies | undefined;
  /** The tracked processes' ticks at the last reading. */
  private lastOwn = new Map<number, number>();
  private readonly samples: LoadSample[] = [];

  constructor(options: { read?: ProcReader; windowMs?: number; cpus: number }) {
    this.read = options.read ?? readProc;
    this.windowMs = options.windowMs ?? LOAD_WINDOW_MS;
    this.fallbackCpus = options.cpus;
  }

  /** Reads the machine now; `own` are the pids of the budget's transcoders. */
  sample(now: number, own: Iterable<number>): void {
    const text = this.read('/proc/stat');
    const current = text === undefined ? undefined : parseMachineJiffies(text);
    const ownTicks = new Map<number, number>();
    let ownSpent = 0;
    for (const pid of own) {
      const stat = this.read(`/proc/${pid}/stat`);
      const ticks = stat === undefined ? undefined : parseProcessTicks(stat);
      if (ticks === undefined) continue;
      ownTicks.set(pid, ticks);
      // First seen: it was spawned since the last reading (tickets are attached at spawn), so
      // all it spent so far, its start-up included, falls in this second.
      ownSpent += ticks - (this.lastOwn.get(pid) ?? 0);
    }
    const last = this.last;
    this.last = current;
    this.lastOwn = ownTicks;
    if (!current || !last || current.total <= last.total) return;
    const cpus = current.cpus > 0 ? current.cpus : this.fallbackCpus;
    // /proc/stat's jiffies and a process's ticks are both in USER_HZ: per second of wall
    // clock the machine counts `cpus` times as many total jiffies.
    const perCore = (current.total - last.total) / cpus;
    const busyCores = (current.busy - last.busy) / perCore;
    const ownCores = Math.max(0, ownSpent) / perCore;
    this.samples.push({ at: now, busyCores, ownCores, otherCores: Math.max(0, busyCores - ownCores) });
    while ((this.samples[0]?.at ?? now) <= now - this.windowMs) this.samples.shift();
  }

  reading(now: number): LoadReading {
    const recent = this.samples.filter((sample) => sample.at > now - this.windowMs);
    return {
      otherCores: median(recent.map((sample) => sample.otherCores)),
      latestBusyCores: recent.at(-1)?.busyCores,
      samples: recent.length,
    };
  }
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
