// The delivery worker: a cycle of small named steps.
//   recover expired leases -> fan out the outbox -> a batch of a recovery -> prune old history
//   (at most once a minute) -> claim due deliveries (as many as the limiter
//   allows, overall and per webhook) -> prepare (envelope, signatures) -> send -> decide ->
//   record (batched).
// When a cycle runs is the scheduler's business (scheduler.ts): on an in-process signal or
// PostgreSQL NOTIFY when events are written, when an attempt frees a slot, at the next retry's
// due time, and otherwise on a modest poll (for writers in other processes on SQLite).
import type { Logger } from 'pino';
import type { WebhookConfig } from '../../config.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import { dialectOf } from '../../db/dialect.ts';
import { findEventsForSending, type EventForSending } from '../../events/outbox.repository.ts';
import { onOutboxWrite } from '../../events/outbox-signal.ts';
import type { Clock } from '../../shared/clock.ts';
import { randomBase62 } from '../../shared/ids.ts';
import * as deliveries from './delivery.repository.ts';
import type { Claim } from './delivery.repository.ts';
import { decide, describeOutcome } from './decision.ts';
import { DeliveryRecorder } from './recorder.ts';
import { deliveryHeaders, envelopeBody } from './envelope.ts';
import { fanOutAll } from './fan-out.ts';
import { PostgresListener } from './pg-listener.ts';
import type { SecretBox } from '../../shared/secret-box.ts';
import { WebhookSender } from './sender.ts';
import { AttemptAborts } from './attempt-aborts.ts';
import { KeyedLimiter } from './keyed-limiter.ts';
import { CycleScheduler } from './scheduler.ts';
import { SecretCache } from './secret-cache.ts';
import { findWebhooksForSending, type SendingWebhook } from '../webhook.repository.ts';
import { onWebhookRemoved } from './removal-signal.ts';
import { runRecoveryStep } from './recovery-runner.ts';
import { HistoryPruner } from './history-pruner.ts';

export interface DeliveryWorkerOptions {
  database: DatabaseHandle;
  clock: Clock;
  config: WebhookConfig;
  secrets: SecretBox;
  logger: Logger;
  /** The database's URL, to LISTEN on when it is PostgreSQL; without it, or on SQLite, the worker polls. */
  listenUrl?: string | undefined;
  /** Tests only: the CA that signed the test receivers' certificates. */
  ca?: string | Buffer | undefined;
  /** Attempts in flight at once, overall. */
  concurrency?: number;
  /** Attempts in flight at once to one webhook, so a slow receiver holds only its own share. */
  perWebhookConcurrency?: number;
  pollIntervalMs?: number;
  random?: () => number;
  /** Rows deleted per pruning statement (tests make it small). */
  pruneBatchRows?: number;
}

export const DEFAULT_CONCURRENCY = 256;
export const DEFAULT_PER_WEBHOOK_CONCURRENCY = 16;
const SQLITE_POLL_MS = 100;
const POSTGRES_POLL_MS = 1000;
const LEASE_RECOVERY_INTERVAL_MS = 1000;
/** Slots freed within this long of each other are refilled by one claim instead of one each. */
const REFILL_DELAY_MS = 2;
/** How many webhooks with due deliveries one claim looks at. */
const CLAIM_WEBHOOKS = 1000;

/** A claimed delivery made ready to send. */
interface PreparedDelivery {
  claim: Claim;
  event: EventForSending;
  url: string;
  body: Buffer;
  headers: Record<string, string>;
  controller: AbortController;
}

export class DeliveryWorker {
  private readonly options: DeliveryWorkerOptions;
  private readonly sender: WebhookSender;
  private readonly recorder: DeliveryRecorder;
  private readonly scheduler: CycleScheduler;
  private readonly slots: KeyedLimiter<string>;
  private readonly aborts = new AttemptAborts();
  private readonly secrets: SecretCache;
  private readonly pruner: HistoryPruner;
  private readonly leaseToken = `lease_${randomBase62(16)}`;
  private readonly leaseMs: number;

  private readonly sends = new Set<Promise<void>>();
  private listener: PostgresListener | undefined;
  private unsubscribe: (() => void)[] = [];
  private lastLeaseRecovery = -Infinity;
  private stopping = false;

  constructor(options: DeliveryWorkerOptions) {
    this.options = options;
    const { config } = options;
    this.sender = new WebhookSender({
      timeoutMs: config.timeoutMs,
      allowPrivateTargets: config.allowPrivateTargets,
      ca: options.ca,
    });
    // A claim lives through one attempt (at most the timeout) and its recording, with room to spare.
    this.leaseMs = 2 * config.timeoutMs + 2000;
    this.slots = new KeyedLimiter(
      options.concurrency ?? DEFAULT_CONCURRENCY,
      options.perWebhookConcurrency ?? DEFAULT_PER_WEBHOOK_CONCURRENCY,
    );
    this.secrets = new SecretCache(options.secrets);
    this.pruner = new HistoryPruner(options.database.db, config.historyDays, options.pruneBatchRows);
    const postgres = dialectOf(options.database.db) === 'postgres';
    const pollMs = options.pollIntervalMs ?? (postgres ? POSTGRES_POLL_MS : SQLITE_POLL_MS);
    this.scheduler = new CycleScheduler({
      clock: options.clock,
      pollMs,
      refillDelayMs: REFILL_DELAY_MS,
      cycle: () => this.cycle(),
      nextDueAt: () => deliveries.nextDueAt(options.database.db),
      onError: (error) => {
        options.logger.error({ err: error }, 'webhook delivery cycle failed; retrying shortly');
      },
    });
    this.recorder = new DeliveryRecorder({
      db: options.database.db,
      leaseToken: this.leaseToken,
      disableAfterFailedEvents: config.disableAfterFailedEvents,
      now: () => options.clock.now(),
      logger: options.logger,
      onRetryScheduled: (at) => {
        this.scheduler.wakeAt(at);
      },
    });
  }

  async start(): Promise<void> {
    this.unsubscribe.push(
      onOutboxWrite(() => {
        this.wake();
      }),
      onWebhookRemoved((id) => {
        this.aborts.remove(id);
      }),
    );
    if (dialectOf(this.options.database.db) === 'postgres' && this.options.listenUrl !== undefined) {
      this.listener = new PostgresListener(
        this.options.listenUrl,
        {
          onOutbox: () => {
            this.wake();
          },
          onWebhookRemoved: (id) => {
            this.aborts.remove(id);
          },
        },
        this.options.logger,
      );
      await this.listener.start();
    }
    this.options.logger.info(
      { concurrency: this.slots.overall, perWebhook: this.slots.perKey, leaseMs: this.leaseMs },
      'webhook delivery worker started',
    );
    this.wake();
  }

  /**
   * Stops claiming, lets attempts in flight finish (each is bounded by the timeout), records
   * them, and returns with nothing left claimed by this worker.
   */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    const cycleDone = this.scheduler.stop();
    await this.listener?.close();
    await cycleDone;
    await Promise.allSettled([...this.sends]);
    await this.recorder.flush();
    await this.sender.close();
    this.options.logger.info('webhook delivery worker stopped');
  }

  /** Runs a cycle soon; many wake-ups in one tick make one cycle. */
  wake(): void {
    this.scheduler.wake();
  }

  /** One cycle; true when due work may be left for free slots, so the scheduler runs another at once. */
  private async cycle(): Promise<boolean> {
    const { database, clock } = this.options;
    const now = clock.now();
    if (now - this.lastLeaseRecovery >= LEASE_RECOVERY_INTERVAL_MS) {
      this.lastLeaseRecovery = now;
      const recovered = await deliveries.recoverExpiredLeases(database.db, now);
      if (recovered > 0) this.options.logger.warn({ recovered }, 'took over deliveries whose lease expired');
    }
    await fanOutAll(database.db, () => clock.now());
    const recovering = !this.stopping && (await runRecoveryStep(database.db, clock.now()));
    const pruned = await this.pruner.maybeRun(clock.now());
    if (pruned && pruned.deliveries + pruned.events > 0) {
      this.options.logger.info(pruned, 'pruned webhook delivery history');
    }
    const { claims, more } = await this.claim();
    if (claims.length > 0) await this.prepareAndSend(claims);
    return recovering || more;
  }

  /**
   * Claims as many due deliveries as there are free slots, overall and per webhook. `more`
   * when due deliveries may be left that free slots could take now (webhooks past the
   * claim's look): the scheduler then runs the next cycle at once. Otherwise the next claim waits for a slot to
   * be freed (the refill delay gathers those freed together) or new events: a cycle straight
   * after each claim found only the one or two slots freed meanwhile, and paid its commit
   * and its queries for them (issue 29: the claim and its commit were the largest cost of a
   * delivery).
   */
  private async claim(): Promise<{ claims: Claim[]; more: boolean }> {
    const none = { claims: [], more: false };
    if (this.stopping) return none;
    let budget = this.slots.free;
    if (budget <= 0) return none;
    const { database, clock } = this.options;
    const now = clock.now();
    const webhookIds = await deliveries.findWebhooksWithDueDeliveries(
      database.db,
      now,
      this.slots.fullKeys(),
      CLAIM_WEBHOOKS,
    );
    if (webhookIds.length === 0) return none;
    // One transaction for all the webhooks' claims: one commit instead of one per webhook.
    const claimed = await database.db.transaction().execute(async (trx) => {
      const taken: Claim[] = [];
      for (const webhookId of webhookIds) {
        if (budget <= 0) break;
        const slots = Math.min(budget, this.slots.freeFor(webhookId));
        if (slots <= 0) continue;
        const claims = await deliveries.claimDueDeliveries(trx, {
          webhookId,
          now,
          leaseUntil: now + this.leaseMs,
          leaseToken: this.leaseToken,
          limit: slots,
        });
        budget -= claims.length;
        taken.push(...claims);
      }
      return taken;
    });
    for (const claim of claimed) this.slots.occupy(claim.webhook_id);
    // Every webhook looked at got what its free slots allowed (or the budget ran out); only
    // webhooks past the look may still have due deliveries that free slots could take.
    const more = webhookIds.length >= CLAIM_WEBHOOKS && this.slots.free > 0;
    return { claims: claimed, more };
  }

  private async prepareAndSend(claims: Claim[]): Promise<void> {
    const { db } = this.options.database;
    const [events, webhooks] = await Promise.all([
      findEventsForSending(db, [...new Set(claims.map((claim) => claim.event_id))]),
      findWebhooksForSending(db, [...new Set(claims.map((claim) => claim.webhook_id))]),
    ]);
    const eventsById = new Map(events.map((event) => [event.id, event]));
    const webhooksById = new Map(webhooks.map((webhook) => [webhook.id, webhook]));
    for (const claim of claims) {
      const webhook = webhooksById.get(claim.webhook_id);
      const event = eventsById.get(claim.event_id);
      if (!webhook || !event || this.aborts.isRemoved(claim.webhook_id)) {
        // Deleted since the claim: its rows went with it, and nothing is sent.
        this.slots.release(claim.webhook_id);
        this.scheduler.wakeSoon();
        continue;
      }
      if (webhook.status !== 'active') {
        this.recorder.add({
          deliveryId: claim.id,
          webhookId: claim.webhook_id,
          eventId: claim.event_id,
          attempt: undefined,
          decision: { kind: 'failed', reason: 'dropped: webhook disabled' },
        });
        this.slots.release(claim.webhook_id);
        this.scheduler.wakeSoon();
        continue;
      }
      const prepared = this.prepare(claim, event, webhook);
      const task = this.deliver(prepared).finally(() => {
        this.sends.delete(task);
        this.aborts.untrack(claim.webhook_id, prepared.controller);
        this.slots.release(claim.webhook_id);
        this.scheduler.wakeSoon();
      });
      this.sends.add(task);
    }
  }

  private prepare(claim: Claim, event: EventForSending, webhook: SendingWebhook): PreparedDelivery {
    const body = envelopeBody(event);
    // The attempt's own time: receivers refuse a stale webhook-timestamp, so a retry is re-signed.
    const now = this.options.clock.now();
    const keys = this.secrets.keysAt(webhook, now);
    const timestamp = Math.floor(now / 1000);
    return {
      claim,
      event,
      url: webhook.url,
      body,
      headers: deliveryHeaders(keys, body, event, webhook.id, claim.attempt_count, timestamp),
      controller: this.aborts.track(claim.webhook_id),
    };
  }

  private async deliver(prepared: PreparedDelivery): Promise<void> {
    const { clock, logger, config } = this.options;
    const { claim } = prepared;
    const startedAt = clock.now();
    const outcome = await this.sender.send({
      url: prepared.url,
      body: prepared.body,
      headers: prepared.headers,
      controller: prepared.controller,
    });
    if (outcome.kind === 'aborted') {
      logger.info(
        { webhookId: claim.webhook_id, eventId: claim.event_id },
        'delivery aborted: webhook deleted',
      );
      return;
    }
    const decision = decide(
      outcome,
      claim.attempt_count,
      { delaysMs: config.retryDelaysMs },
      clock.now(),
      this.options.random ?? Math.random,
    );
    this.recorder.add({
      deliveryId: claim.id,
      webhookId: claim.webhook_id,
      eventId: claim.event_id,
      attempt: {
        delivery_id: claim.id,
        attempt_number: claim.attempt_count,
        started_at: startedAt,
        latency_ms: outcome.latencyMs,
        status_code: outcome.kind === 'answered' ? outcome.statusCode : null,
        error: outcome.kind === 'failed' ? outcome.error : null,
        response_excerpt: outcome.kind === 'answered' ? outcome.excerpt : null,
      },
      decision,
    });
    if (decision.kind !== 'succeeded') {
      logger.info(
        {
          webhookId: claim.webhook_id,
          eventId: claim.event_id,
          attempt: claim.attempt_count,
          outcome: describeOutcome(outcome),
          next: decision.kind === 'retry' ? new Date(decision.at).toISOString() : 'none',
        },
        decision.kind === 'retry' ? 'delivery attempt failed; will retry' : 'delivery failed for good',
      );
    }
  }
}
