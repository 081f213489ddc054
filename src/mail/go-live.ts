// Go-live mails: when a stream goes live, its transaction queues one `stream.go-live-mail`
// job (src/streams/stream.service.ts); going live waits for nothing more. This job then mails
// every subscriber who wants it, in batches, at most once per channel per QUIET_HOURS (a
// reconnect is the same stream, a new stream soon after is not worth another mail). Each mail
// id is derived from the stream and the subscription, so a fan-out retried after a crash
// queues nothing twice.
import { createHash } from 'node:crypto';
import type { Db } from '../db/database.ts';
import type { JobHandler } from '../jobs/job-runner.ts';
import { GO_LIVE_MAIL_JOB } from '../jobs/job-kinds.ts';
import type { Clock } from '../shared/clock.ts';
import type { MailOutbox } from './mail-outbox.ts';
import { claimGoLiveNotice, findLiveStream, goLiveRecipients } from './mail.repository.ts';

export { GO_LIVE_MAIL_JOB };

export interface GoLiveOptions {
  /** A channel mails its subscribers at most once in this time. */
  quietMs: number;
  /** Mails queued per transaction. */
  batchSize: number;
}

export const DEFAULT_GO_LIVE: GoLiveOptions = { quietMs: 4 * 3_600_000, batchSize: 500 };

export class GoLiveFanout {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly outbox: MailOutbox;
  private readonly options: GoLiveOptions;

  constructor(db: Db, clock: Clock, outbox: MailOutbox, options: Partial<GoLiveOptions> = {}) {
    this.db = db;
    this.clock = clock;
    this.outbox = outbox;
    this.options = { ...DEFAULT_GO_LIVE, ...options };
  }

  handler(retryDelaysMs?: number[]): JobHandler {
    return {
      kind: GO_LIVE_MAIL_JOB,
      retryDelaysMs: retryDelaysMs ?? [10_000, 60_000, 300_000],
      run: async (job) => {
        await this.fanOut(job.subject_id);
      },
      failed: () => Promise.resolve(),
    };
  }

  /** Queues the stream's go-live mails; the number queued (0 when the channel mailed lately). */
  async fanOut(streamId: string): Promise<number> {
    const stream = await findLiveStream(this.db, streamId);
    if (!stream || stream.status !== 'live') return 0;
    const now = this.clock.now();
    if (!(await claimGoLiveNotice(this.db, stream.creator_id, stream.id, now, this.options.quietMs)))
      return 0;
    const watchUrl = this.outbox.link(`/watch/${stream.id}`);
    let after = '';
    let queued = 0;
    for (;;) {
      const page = await goLiveRecipients(
        this.db,
        stream.creator_id,
        after,
        this.options.batchSize,
        this.outbox.verificationRequired,
      );
      if (page.length === 0) break;
      const mails = page.map((recipient) => {
        const unsubscribeUrl = this.outbox.unsubscribeUrl(recipient.subscription_id);
        return this.outbox.render(
          'go-live',
          recipient.email,
          {
            name: recipient.name,
            channel: stream.channel,
            title: stream.title,
            url: watchUrl,
            unsubscribeUrl,
          },
          {
            'List-Unsubscribe': `<${unsubscribeUrl}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          },
          mailId(stream.id, recipient.subscription_id),
        );
      });
      await this.outbox.enqueueBatch(mails);
      queued += mails.length;
      after = page[page.length - 1]?.subscription_id ?? after;
      if (page.length < this.options.batchSize) break;
    }
    return queued;
  }
}

function mailId(streamId: string, subscriptionId: string): string {
  return `msg_${createHash('sha256').update(`${streamId}/${subscriptionId}`).digest('base64url').slice(0, 22)}`;
}
