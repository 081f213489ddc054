// The CPU budget for transcoding. Every transcoding ffmpeg is measured: its CPU time from
// /proc/<pid>/stat and its speed from `-progress` (media seconds made per wall second). A new
// stream is admitted to transcode only when its estimated cost fits beside what the running
// ones use (measured, or their estimate until then) and what the rest of the machine has busy
// (machine-load.ts: /proc/stat less the transcoders, the median of the last 10 s, so a
// moment's spike such as the publish's own start-up does not decide), leaving a headroom for
// copy-only streams, the API and the system; otherwise it is published copy-only. Live and VOD
// share the budget, but VOD work asks for a larger margin (it is admitted only with room to
// spare) and runs niced, so live wins.
import os from 'node:os';
import { MachineLoad, parseProcessTicks, readProc, type ProcReader } from './machine-load.ts';

/** Cores a 1-megapixel-per-second encode costs until a real one has been measured. */
const PRIOR_CORES_PER_MEGAPIXEL = 0.02;
/** Transcoders are measured this often. */
const SAMPLE_MS = 2000;
/** The machine is read this often (admission takes the median of a window of these). */
const MACHINE_SAMPLE_MS = 1000;
/** Linux reports process CPU time in clock ticks of 1/100 s (USER_HZ). */
const TICKS_PER_SECOND = 100;

export interface BudgetOptions {
  /** Cores the machine has for this service (os.availableParallelism() unless given). */
  cores?: number;
  /** Percent of those kept free of transcoding. */
  headroomPercent: number;
  /** Reads /proc (tests give synthetic files). */
  read?: ProcReader | undefined;
  /** The clock of the load window (Date.now unless given). */
  now?: () => number;
  /** False: no timers; the caller calls sample() and sampleMachine() (tests). */
  sampling?: boolean;
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

/** What an admission was decided on, in cores; logged with every decision. */
export interface AdmissionFigures {
  /** The work's estimated cost. */
  estimatedCores: number;
  /** What must be free for it: its cost, twice that for VOD. */
  neededCores: number;
  limitCores: number;
  /** The admitted transcoders: measured, or their estimate until measured. */
  jobsCores: number;
  /** The rest of the machine: the median over the load window, transcoders left out. */
  machineOtherCores: number;
  /** The latest second's busy cores of the whole machine (not what decides). */
  machineBusyCores: number | undefined;
  /** Seconds of machine load the median is over. */
  loadSamples: number;
}

export type Admission =
  | { admitted: true; ticket: BudgetTicket; figures: AdmissionFigures }
  | { admitted: false; ticket: undefined; figures: AdmissionFigures };

export interface BudgetSnapshot {
  cores: number;
  limitCores: number;
  usedCores: number;
  /** The rest of the machine, as admission reads it (the median over the load window). */
  machineOtherCores: number;
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
  private readonly sampling: boolean;
  private readonly read: ProcReader;
  private readonly now: () => number;
  /**
   * The rest of the machine (other services, copy-only packagers, this process), from
   * /proc/stat: what the budget's own measurements cannot see also takes room.
   */
  private readonly load: MachineLoad;
  private readonly machineSampler: NodeJS.Timeout | undefined;

  constructor(options: BudgetOptions) {
    this.cores = options.cores ?? os.availableParallelism();
    this.headroom = options.headroomPercent / 100;
    this.read = options.read ?? readProc;
    this.now = options.now ?? Date.now;
    this.sampling = options.sampling !== false;
    this.load = new MachineLoad({ read: this.read, cpus: os.availableParallelism() });
    if (!this.sampling) return;
    this.sampleMachine();
    this.machineSampler = setInterval(() => {
      this.sampleMachine();
    }, MACHINE_SAMPLE_MS);
    this.machineSampler.unref();
  }

  /** Reads the machine's load now (the sampler does this every second). */
  sampleMachine(now = this.now()): void {
    const pids: number[] = [];
    for (const ticket of this.tickets) if (ticket.pid !== undefined) pids.push(ticket.pid);
    this.load.sample(now, pids);
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
    return this.decide(kind, megapixelsPerSecond).ticket;
  }

  /** admit(), with the figures it was decided on (for the log and the creator's health). */
  decide(kind: WorkKind, megapixelsPerSecond: number): Admission {
    const cost = this.estimate(megapixelsPerSecond);
    const reading = this.load.reading(this.now());
    const figures: AdmissionFigures = {
      estimatedCores: cost,
      neededCores: kind === 'vod' ? cost * 2 : cost,
      limitCores: this.limitCores,
      jobsCores: this.usedCores(),
      machineOtherCores: reading.otherCores,
      machineBusyCores: reading.latestBusyCores,
      loadSamples: reading.samples,
    };
    if (!fits(figures)) return { admitted: false, ticket: undefined, figures };
    const ticket = new Ticket(kind, cost, megapixelsPerSecond, (done) => {
      this.tickets.delete(done);
      if (this.tickets.size === 0) this.stopSampling();
    });
    this.tickets.add(ticket);
    this.startSampling();
    return { admitted: true, ticket, figures };
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
      machineOtherCores: this.load.reading(this.now()).otherCores,
      jobs: [...this.tickets].map((ticket) => ({
        kind: ticket.kind,
        cores: ticket.cores,
        speed: ticket.speed,
      })),
    };
  }

  /** Takes one measurement of every running job now (the sampler does this periodically). */
  sample(now = this.now()): void {
    for (const ticket of this.tickets) {
      if (ticket.pid === undefined) continue;
      const stat = this.read(`/proc/${ticket.pid}/stat`);
      const ticks = stat === undefined ? undefined : parseProcessTicks(stat);
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
    if (this.sampler || !this.sampling) return;
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
  const text = readProc(`/proc/${pid}/stat`);
  return text === undefined ? undefined : parseProcessTicks(text);
}

/** Whether work needing `neededCores` fits beside the transcoders and the rest of the machine. */
export function fits(figures: AdmissionFigures): boolean {
  return figures.jobsCores + figures.machineOtherCores + figures.neededCores <= figures.limitCores;
}

/** ffmpeg's `-progress` speed line (`speed=1.01x`), or undefined for any other line. */
export function progressSpeed(line: string): number | undefined {
  const match = /^speed=\s*([\d.]+)x$/.exec(line.trim());
  return match ? Number(match[1]) : undefined;
}
