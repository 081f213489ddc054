// Runs media jobs from the durable queue (media_jobs): claims one under a lease, renews the
// lease while its handler works, and settles it. A handler that throws is tried again after a
// back-off until its job's attempts run out (or at once gives up on a PermanentJobError), and
// then its `failed` hook records why where the user sees it. A process killed mid-job leaves
// a lease that lapses; any runner then claims the job again, so nothing is lost.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import type { Clock } from '../shared/clock.ts';
import { claimJob, nextDueAt, renewLease, settleJob } from './job.repository.ts';
import type { MediaJobRow } from './job.table.ts';

/** A failure that another attempt cannot fix (the file is not a video): no retry. */
export class PermanentJobError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'PermanentJobError';
    this.code = code;
  }
}

export interface JobContext {
  /** Aborted when the runner stops (the handler should stop its ffmpeg) or loses the lease. */
  signal: AbortSignal;
  attempt: number;
}

export interface JobHandler {
  kind: string;
  run(job: MediaJobRow, context: JobContext): Promise<void>;
  /** Called once when the job is given up (attempts spent, or a permanent failure). */
  failed(job: MediaJobRow, error: unknown): Promise<void>;
  /** Delays before attempts 2..n of this kind's jobs; the runner's own unless given. */
  retryDelaysMs?: number[] | undefined;
}

export interface JobRunnerOptions {
  db: Db;
  clock: Clock;
  logger: Logger;
  handlers: JobHandler[];
  /** How long a claim holds without renewal; renewed every third of it. */
  leaseMs?: number | undefined;
  /** Idle poll: how soon a job enqueued by another process is seen. */
  pollMs?: number | undefined;
  /** Delays before attempts 2..n. */
  retryDelaysMs?: number[] | undefined;
  /** What the log calls a job (`media job` unless given; the mail worker's are `mail job`). */
  label?: string | undefined;
}

export const DEFAULT_JOB_LEASE_MS = 60_000;
const DEFAULT_RETRY_DELAYS_MS = [10_000, 60_000, 300_000];

export class JobRunner {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly handlers: Map<string, JobHandler>;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly retryDelaysMs: number[];
  /** Only kinds this runner has a handler for are claimed: several runners share the table. */
  private readonly kinds: string[];
  private readonly label: string;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private readonly running = new Set<AbortController>();

  constructor(options: JobRunnerOptions) {
    this.db = options.db;
    this.clock = options.clock;
    this.logger = options.logger;
    this.handlers = new Map(options.handlers.map((handler) => [handler.kind, handler]));
    this.leaseMs = options.leaseMs ?? DEFAULT_JOB_LEASE_MS;
    this.pollMs = options.pollMs ?? 1000;
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.kinds = [...this.handlers.keys()];
    this.label = options.label ?? 'media job';
  }

  start(): void {
    if (this.loop) return;
    this.loop = this.runLoop();
  }

  /** A job was enqueued in this process: look now rather than at the next poll. */
  wake(): void {
    this.wakeUp?.();
  }

  /** Stops claiming; a job in progress is aborted and handed back to the queue. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const controller of this.running) controller.abort(new Error('the job runner is stopping'));
    this.wake();
    await this.loop;
  }

  /**
   * Claims and runs one due job (only `jobId` when given). Returns false when none was due.
   * The CLI's import and the tests call it directly.
   */
  async runOnce(jobId?: string): Promise<boolean> {
    const token = randomUUID();
    const now = this.clock.now();
    const job = await claimJob(this.db, {
      now,
      leaseUntil: now + this.leaseMs,
      leaseToken: token,
      jobId,
      kinds: this.kinds,
    });
    if (!job) return false;
    await this.execute(job, token);
    return true;
  }

  private async runLoop(): Promise<void> {
    while (!this.stopped) {
      let ran = false;
      try {
        ran = await this.runOnce();
      } catch (error) {
        this.logger.error({ err: error }, 'media job runner: claiming a job failed; retrying');
      }
      if (ran) continue;
      await this.idle();
    }
  }

  private async idle(): Promise<void> {
    let wait = this.pollMs;
    try {
      const due = await nextDueAt(this.db, this.kinds);
      if (due !== undefined) wait = Math.max(0, Math.min(wait, due - this.clock.now()));
    } catch {
      // The claim that follows reports a database that is down.
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, wait);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wakeUp = undefined;
  }

  private async execute(job: MediaJobRow, token: string): Promise<void> {
    const handler = this.handlers.get(job.kind);
    const controller = new AbortController();
    this.running.add(controller);
    const renewal = setInterval(
      () => {
        renewLease(this.db, job.id, token, this.clock.now() + this.leaseMs)
          .then((held) => {
            if (!held) controller.abort(new Error('the job lease was lost'));
          })
          .catch((error: unknown) => {
            this.logger.warn({ err: error, jobId: job.id }, 'media job: renewing the lease failed');
          });
      },
      Math.max(50, Math.floor(this.leaseMs / 3)),
    );
    const fields = { jobId: job.id, kind: job.kind, subject: job.subject_id, attempt: job.attempts };
    try {
      if (!handler)
        throw new PermanentJobError('unknown_job', `No handler for media jobs of kind ${job.kind}.`);
      // Which process took which job, for an operator running several workers.
      this.logger.info(fields, `${this.label} started`);
      await handler.run(job, { signal: controller.signal, attempt: job.attempts });
      await settleJob(this.db, { id: job.id, token, status: 'done', now: this.clock.now() });
      this.logger.info(fields, `${this.label} done`);
    } catch (error) {
      await this.settleFailure(job, token, handler, error, controller.signal.aborted && this.stopped);
    } finally {
      clearInterval(renewal);
      this.running.delete(controller);
    }
  }

  private async settleFailure(
    job: MediaJobRow,
    token: string,
    handler: JobHandler | undefined,
    error: unknown,
    interrupted: boolean,
  ): Promise<void> {
    const now = this.clock.now();
    const message = error instanceof Error ? error.message : String(error);
    if (interrupted) {
      // Stopped, not failed: the next runner starts it again without spending an attempt.
      await this.db
        .updateTable('media_jobs')
        .set((eb) => ({
          status: 'pending',
          attempts: eb('attempts', '-', 1),
          locked_until: null,
          lease_token: null,
          run_after: now,
          updated_at: now,
        }))
        .where('id', '=', job.id)
        .where('lease_token', '=', token)
        .execute();
      this.logger.info(
        { jobId: job.id, kind: job.kind },
        'media job interrupted by shutdown; it will run again',
      );
      return;
    }
    const permanent = error instanceof PermanentJobError;
    if (!permanent && job.attempts < job.max_attempts) {
      const delays = handler?.retryDelaysMs ?? this.retryDelaysMs;
      const delay = delays[Math.min(job.attempts - 1, delays.length - 1)] ?? 60_000;
      this.logger.error(
        { err: error, jobId: job.id, kind: job.kind, subject: job.subject_id, attempt: job.attempts },
        'media job failed; it will be tried again',
      );
      await settleJob(this.db, {
        id: job.id,
        token,
        status: 'pending',
        runAfter: now + delay,
        error: message,
        now,
      });
      return;
    }
    if (!permanent) {
      this.logger.error(
        { err: error, jobId: job.id, kind: job.kind, subject: job.subject_id, attempt: job.attempts },
        'media job failed on its last attempt; giving up',
      );
    }
    const settled = await settleJob(this.db, { id: job.id, token, status: 'failed', error: message, now });
    if (settled && handler) {
      try {
        await handler.failed(job, error);
      } catch (hookError) {
        this.logger.error({ err: hookError, jobId: job.id }, 'media job: recording the failure failed');
      }
    }
  }
}
