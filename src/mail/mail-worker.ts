// Sends the queued mail: JobRunners (src/jobs) over the `mail.send` and go-live fan-out jobs,
// a few at once. A mail the SMTP server refuses, or a server that is down or hangs (bounded by
// the transport's timeouts), is tried again after a back-off; a process killed mid-send leaves
// a lease that lapses, and the mail is sent by the next runner. A mail is marked sent when the
// server accepted it.
import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import { JobRunner, type JobHandler } from '../jobs/job-runner.ts';
import type { Clock } from '../shared/clock.ts';
import { GO_LIVE_MAIL_JOB, GoLiveFanout, type GoLiveOptions } from './go-live.ts';
import type { MailOutbox } from './mail-outbox.ts';
import { findMessage, markSent, SEND_MAIL_JOB } from './mail.repository.ts';
import type { MailTransport } from './mail-transport.ts';

/** Delays before attempts 2..8 of a mail: about a day in all. */
export const MAIL_RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 43_200_000];

export interface MailWorkerOptions {
  db: Db;
  clock: Clock;
  logger: Logger;
  outbox: MailOutbox;
  transport: MailTransport;
  from: string;
  /** Runners at once (each sends one mail at a time over the transport's pool). */
  concurrency?: number;
  retryDelaysMs?: number[];
  leaseMs?: number;
  pollMs?: number;
  goLive?: Partial<GoLiveOptions>;
}

export class MailWorker {
  readonly runners: JobRunner[];
  private readonly transport: MailTransport;
  private readonly unlisten: () => void;

  constructor(options: MailWorkerOptions) {
    const { db, clock, transport } = options;
    this.transport = transport;
    const send: JobHandler = {
      kind: SEND_MAIL_JOB,
      retryDelaysMs: options.retryDelaysMs ?? MAIL_RETRY_DELAYS_MS,
      async run(job) {
        const message = await findMessage(db, job.subject_id);
        if (!message || message.sent_at !== null) return;
        await transport.send({
          id: message.id,
          from: options.from,
          to: message.to_address,
          subject: message.subject,
          text: message.text_body,
          html: message.html_body,
          headers: JSON.parse(message.headers) as Record<string, string>,
        });
        await markSent(db, message.id, clock.now());
      },
      failed(job, error) {
        options.logger.error(
          { err: error, mailId: job.subject_id },
          'mail could not be sent; its attempts are spent (media_jobs keeps the last error)',
        );
        return Promise.resolve();
      },
    };
    const fanout = new GoLiveFanout(db, clock, options.outbox, options.goLive);
    const handlers = [send, fanout.handler(options.retryDelaysMs)];
    const count = Math.max(1, options.concurrency ?? 4);
    this.runners = Array.from(
      { length: count },
      () =>
        new JobRunner({
          db,
          clock,
          logger: options.logger,
          handlers,
          label: 'mail job',
          leaseMs: options.leaseMs ?? 60_000,
          pollMs: options.pollMs ?? 1000,
        }),
    );
    this.unlisten = options.outbox.onEnqueue(() => {
      for (const runner of this.runners) runner.wake();
    });
  }

  start(): void {
    for (const runner of this.runners) runner.start();
  }

  async stop(): Promise<void> {
    this.unlisten();
    await Promise.all(this.runners.map((runner) => runner.stop()));
    this.transport.close();
  }
}

export { GO_LIVE_MAIL_JOB };
