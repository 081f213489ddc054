// The CPU budget for transcoding. Every transcoding ffmpeg is measured: its CPU time from
// /proc/<pid>/stat and its speed from `-progress` (media seconds made per wall second). A new
// stream is admitted to transcode only when its estimated cost fits beside what the running
// ones measurably use (or what the whole machine has busy, /proc/stat, when that is more),
// leaving a headroom for copy-only streams, the API and the system;
// otherwise it is published copy-only. Live and VOD share the budget, but VOD work asks for
// a larger margin (it is admitted only with room to spare) and runs niced, so live wins.
import fs from 'node:fs';
import os from 'node:os';

/** Cores a 1-megapixel-per-second encode costs until a real one has been measured. */
const PRIOR_CORES_PER_MEGAPIXEL = 0.02;
/** Measurements are taken this often. */
const SAMPLE_MS = 2000;
/** Linux reports process CPU time in clock ticks of 1/100 s (USER_HZ). */
const TICKS_PER_SECOND = 100;

export interface BudgetOptions {
  /** Cores the machine has for this service (os.availableParallelism() unless given). */
  cores?: number;
  /** Percent of those kept free of transcoding. */
  headroomPercent: number;
}

export type WorkKind = 'live' | 'vod';

/** One admitted transcoding job: report its process, hear its speed, release it when done. */
export interface BudgetTicket {
  readonly kind: WorkKind;
  /** The estimate it was admitted with, in cores, until its own measurement replaces it. */
  readonly estimatedCores: number;
  /** Set once ffmpeg runs: its CPU is sampled from then on. */
  attach(pid: number): void;
  /** Media seconds produced per wall second, from ffmpeg's `-progress` (1 is real time). */
  reportSpeed(speed: number): void;
  /** The measured cores (undefined before the first two samples). */
  readonly measuredCores: number | undefined;
  readonly speed: number | undefined;
  release(): void;
}

export interface BudgetSnapshot {
  cores: number;
  limitCores: number;
  usedCores: number;
  machineBusyCores: number;
  jobs: { kind: WorkKind; cores: number; speed: number | undefined }[];
}

class Ticket implements BudgetTicket {
  readonly kind: WorkKind;
  readonly estimatedCores: number;
  readonly megapixelsPerSecond: number;
  measuredCores: number | undefined;
  speed: number | undefined;
  pid: number | undefined;
  lastTicks: number | undefined;
  lastAt: number | undefined;
  private readonly onRelease: (ticket: Ticket) => void;

  constructor(
    kind: WorkKind,
    estimatedCores: number,
    megapixelsPerSecond: number,
    onRelease: (ticket: Ticket) => void,
  ) {
    this.kind = kind;
    this.estimatedCores = estimatedCores;
    this.megapixelsPerSecond = megapixelsPerSecond;
    this.onRelease = onRelease;
  }

  attach(pid: number): void {
    this.pid = pid;
  }

  reportSpeed(speed: number): void {
    if (Number.isFinite(speed) && speed >= 0) this.speed = speed;
  }

  get cores(): number {
    return this.measuredCores ?? this.estimatedCores;
  }

  release(): void {
    this.onRelease(this);
  }
}

export class TranscodeBudget {
  readonly cores: number;
  private readonly headroom: number;
  private readonly tickets = new Set<Ticket>();
  private coresPerMegapixel = PRIOR_CORES_PER_MEGAPIXEL;
  private sampler: NodeJS.Timeout | undefined;
  /**
   * The whole machine's busy cores (other services, copy-only packagers, this process), from
   * /proc/stat: what the budget's own measurements cannot see also takes room.
   */
  private machineBusy = 0;
  private lastMachine: { busy: number; total: number } | undefined;
  private readonly machineSampler: NodeJS.Timeout;

  constructor(options: BudgetOptions) {
    this.cores = options.cores ?? os.availableParallelism();
    this.headroom = options.headroomPercent / 100;
    this.sampleMachine();
    this.machineSampler = setInterval(() => {
      this.sampleMachine();
    }, SAMPLE_MS);
    this.machineSampler.unref();
  }

  private sampleMachine(): void {
    const now = machineJiffies();
    const last = this.lastMachine;
    this.lastMachine = now;
    if (!now || !last || now.total <= last.total) return;
    this.machineBusy = ((now.busy - last.busy) / (now.total - last.total)) * os.availableParallelism();
  }

  /** Cores transcoding may use in all: the machine's less the headroom. */
  get limitCores(): number {
    return this.cores * (1 - this.headroom);
  }

  /** What encoding this many megapixels per second is expected to cost, from what was measured. */
  estimate(megapixelsPerSecond: number): number {
    return megapixelsPerSecond * this.coresPerMegapixel;
  }

  /**
   * A ticket when the work fits, undefined when it does not (the caller then copies only).
   * VOD work must leave a whole estimate's room beside it, so a live stream arriving next still
   * fits.
   */
  admit(kind: WorkKind, megapixelsPerSecond: number): BudgetTicket | undefined {
    const cost = this.estimate(megapixelsPerSecond);
    // The larger of what its own transcoders measurably use and what the machine has busy.
    const used = Math.max(this.usedCores(), this.machineBusy);
    const needed = kind === 'vod' ? cost * 2 : cost;
    if (used + needed > this.limitCores) return undefined;
    const ticket = new Ticket(kind, cost, megapixelsPerSecond, (done) => {
      this.tickets.delete(done);
      if (this.tickets.size === 0) this.stopSampling();
    });
    this.tickets.add(ticket);
    this.startSampling();
    return ticket;
  }

  usedCores(): number {
    let used = 0;
    for (const ticket of this.tickets) used += ticket.cores;
    return used;
  }

  snapshot(): BudgetSnapshot {
    return {
      cores: this.cores,
      limitCores: this.limitCores,
      usedCores: this.usedCores(),
      machineBusyCores: this.machineBusy,
      jobs: [...this.tickets].map((ticket) => ({
        kind: ticket.kind,
        cores: ticket.cores,
        speed: ticket.speed,
      })),
    };
  }

  /** Takes one measurement of every running job now (the sampler does this periodically). */
  sample(now = Date.now()): void {
    for (const ticket of this.tickets) {
      if (ticket.pid === undefined) continue;
      const ticks = processTicks(ticket.pid);
      if (ticks === undefined) continue;
      if (ticket.lastTicks !== undefined && ticket.lastAt !== undefined && now > ticket.lastAt) {
        const cores = (ticks - ticket.lastTicks) / TICKS_PER_SECOND / ((now - ticket.lastAt) / 1000);
        // Smoothed: one busy sample (a keyframe burst) does not swing admission.
        ticket.measuredCores =
          ticket.measuredCores === undefined ? cores : ticket.measuredCores * 0.7 + cores * 0.3;
        if (ticket.kind === 'live' && ticket.megapixelsPerSecond > 0) {
          const perMegapixel = ticket.measuredCores / ticket.megapixelsPerSecond;
          this.coresPerMegapixel = this.coresPerMegapixel * 0.8 + perMegapixel * 0.2;
        }
      }
      ticket.lastTicks = ticks;
      ticket.lastAt = now;
    }
  }

  close(): void {
    this.stopSampling();
    clearInterval(this.machineSampler);
  }

  private startSampling(): void {
    if (this.sampler) return;
    this.sampler = setInterval(() => {
      this.sample();
    }, SAMPLE_MS);
    this.sampler.unref();
  }

  private stopSampling(): void {
    clearInterval(this.sampler);
    this.sampler = undefined;
  }
}

/** User plus system CPU time of a process in clock ticks, or undefined once it is gone. */
export function processTicks(pid: number): number | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: count fields after its end.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? utime + stime : undefined;
}

/** Busy and total jiffies of the whole machine (the first line of /proc/stat). */
function machineJiffies(): { busy: number; total: number } | undefined {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const values = line.trim().split(/\s+/).slice(1).map(Number);
    const total = values.reduce((sum, value) => sum + value, 0);
    // idle and iowait are the 4th and 5th values.
    return { busy: total - (values[3] ?? 0) - (values[4] ?? 0), total };
  } catch {
    return undefined;
  }
}

/** ffmpeg's `-progress` speed line (`speed=1.01x`), or undefined for any other line. */
export function progressSpeed(line: string): number | undefined {
  const match = /^speed=\s*([\d.]+)x$/.exec(line.trim());
  return match ? Number(match[1]) : undefined;
}
