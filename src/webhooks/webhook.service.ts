import type { Db } from '../db/database.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { EVENT_TYPES, isEventType, type EventType } from '../events/event-types.ts';
import { recordEvent } from '../events/outbox.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError, invalidParameter, notFound, stateConflict } from '../shared/errors.ts';
import { newId, randomBase62 } from '../shared/ids.ts';
import * as deliveries from './delivery/operator.repository.ts';
import type { SecretBox } from '../shared/secret-box.ts';
import { checkWebhookUrl } from './url-safety.ts';
import * as repo from './webhook.repository.ts';
import type { PublicWebhookRow } from './webhook.repository.ts';
import { MAX_WEBHOOKS_PER_ACCOUNT } from './webhook.schemas.ts';
import { announceWebhookRemoved, notifyWebhookRemovedInTransaction } from './delivery/removal-signal.ts';
import type { WebhookEventFilter } from './webhook.table.ts';

export const SECRET_PREFIX = 'whsec_';

/** How long deliveries stay signed with a secret after a rotation replaced it. */
export const PREVIOUS_SECRET_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** 32 base62 characters: also valid base64 (24 bytes), the Standard Webhooks key. */
function newSecret(): string {
  return `${SECRET_PREFIX}${randomBase62(32)}`;
}

export interface RegisterWebhookInput {
  url: string;
  events: string[];
}

export interface WebhookServiceOptions {
  allowPrivateTargets: boolean;
}

export class WebhookService {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly secrets: SecretBox;
  private readonly options: WebhookServiceOptions;

  constructor(db: Db, clock: Clock, secrets: SecretBox, options: WebhookServiceOptions) {
    this.db = db;
    this.clock = clock;
    this.secrets = secrets;
    this.options = options;
  }

  /**
   * Registers a webhook and, in the same transaction, records its `ping` event, so the ping is
   * delivered (asynchronously) exactly when the registration exists. The secret is returned
   * here and never again.
   */
  async register(
    accountId: string,
    input: RegisterWebhookInput,
  ): Promise<{ row: PublicWebhookRow; secret: string }> {
    const events = checkEvents(input.events);
    const url = await checkWebhookUrl(input.url, this.options.allowPrivateTargets);
    const secret = newSecret();
    const now = this.clock.now();
    const id = newId('wh');
    const row = {
      id,
      account_id: accountId,
      url,
      events: JSON.stringify(events),
      secret_ciphertext: this.secrets.seal(secret, id),
      previous_secret_ciphertext: null,
      previous_secret_expires_at: null,
      status: 'active' as const,
      consecutive_failed_events: 0,
      disabled_reason: null,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.db.transaction().execute(async (trx) => {
        await repo.lockAccountForRegistration(trx, accountId);
        if ((await repo.countWebhooks(trx, accountId)) >= MAX_WEBHOOKS_PER_ACCOUNT) {
          throw new AppError(
            'webhook_limit_reached',
            `An account can have at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks; delete one first.`,
          );
        }
        if (await repo.urlTaken(trx, accountId, url)) throw urlTakenError();
        await repo.insertWebhook(trx, row);
        await recordEvent(trx, { type: 'ping', accountId, at: now, data: { webhook_id: id } });
      });
    } catch (error) {
      if (!(error instanceof AppError) && isUniqueViolation(error)) throw urlTakenError();
      throw error;
    }
    return { row, secret };
  }

  async list(accountId: string): Promise<PublicWebhookRow[]> {
    return repo.listWebhooks(this.db, accountId);
  }

  /**
   * Removes the registration for good, with its pending deliveries. Workers abort an attempt
   * in flight to it, and no new attempt starts once this returns.
   */
  async delete(accountId: string, id: string): Promise<void> {
    const deleted = await this.db.transaction().execute(async (trx) => {
      const removed = await repo.deleteWebhook(trx, id, accountId);
      if (removed) await notifyWebhookRemovedInTransaction(trx, id);
      return removed;
    });
    // Another account's webhook is indistinguishable from a missing one.
    if (!deleted) throw notFound('webhook', id);
    announceWebhookRemoved(id);
  }

  /**
   * Gives the webhook a new secret, returned here and never again. Deliveries are signed with
   * the old one too until `previousExpiresAt`, so receivers can switch without losing any; a
   * second rotation before then drops the oldest.
   */
  async rotateSecret(
    accountId: string,
    id: string,
  ): Promise<{ row: PublicWebhookRow; secret: string; previousExpiresAt: number }> {
    const secret = newSecret();
    const now = this.clock.now();
    const previousExpiresAt = now + PREVIOUS_SECRET_LIFETIME_MS;
    const row = await repo.rotateSecret(
      this.db,
      id,
      accountId,
      this.secrets.seal(secret, id),
      previousExpiresAt,
      now,
    );
    // Another account's webhook is indistinguishable from a missing one, as for delete.
    if (!row) throw notFound('webhook', id);
    return { row, secret, previousExpiresAt };
  }

  /** For operators: recent deliveries of a webhook, newest first, with their attempts. */
  async recentDeliveries(webhookId: string, limit: number): Promise<deliveries.DeliveryReport[]> {
    if (!(await repo.findWebhook(this.db, webhookId))) throw notFound('webhook', webhookId);
    return deliveries.recentDeliveries(this.db, webhookId, limit);
  }

  /** For operators: sends an event that was marked failed again, with the same evt_ id. */
  async retryFailed(eventId: string, webhookId: string): Promise<void> {
    const webhook = await repo.findWebhook(this.db, webhookId);
    if (!webhook) throw notFound('webhook', webhookId);
    if (webhook.status !== 'active')
      throw stateConflict(`Webhook ${webhookId} is disabled; nothing is sent to it.`);
    const delivery = await deliveries.findDelivery(this.db, eventId, webhookId);
    if (!delivery) throw notFound('event', eventId);
    if (delivery.status !== 'failed') {
      throw stateConflict(
        `Event ${eventId} is ${delivery.status} for ${webhookId}; only a failed one can be retried.`,
      );
    }
    await deliveries.scheduleManualRetry(this.db, delivery.id, this.clock.now());
  }
}

export function checkEvents(events: string[]): WebhookEventFilter[] {
  if (events.length === 0)
    throw invalidParameter('events', "The field 'events' must have at least one item.");
  if (new Set(events).size !== events.length) {
    throw invalidParameter('events', "The field 'events' must not contain duplicates.");
  }
  if (events.includes('*')) {
    if (events.length > 1)
      throw invalidParameter('events', "'*' selects every event and must be the only item.");
    return ['*'];
  }
  const types: EventType[] = [];
  for (const event of events) {
    if (!isEventType(event)) {
      throw invalidParameter(
        'events',
        `Unknown event type '${event}'. Use ${EVENT_TYPES.join(', ')}, or '*' alone for all events.`,
      );
    }
    types.push(event);
  }
  return types;
}

export function urlTakenError(): AppError {
  return new AppError('webhook_url_taken', 'This account already has a webhook with this URL.', 'url');
}
