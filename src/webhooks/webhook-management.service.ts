// Managing one webhook after registration: read and change it, enable it again, test it, and
// work with its deliveries (the log, a resend, a recovery of a window of missed events).
import type { Db } from '../db/database.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { KeysetPosition } from '../db/keyset.ts';
import type { EventType } from '../events/event-types.ts';
import { announceOutboxWrite } from '../events/outbox-signal.ts';
import { recordEvent } from '../events/outbox.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError, invalidParameter, notFound, stateConflict } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import * as repo from './management.repository.ts';
import type { DeliveryLogRow } from './management.repository.ts';
import type { WebhookRecoveryRow } from './recovery.table.ts';
import { checkWebhookUrl } from './url-safety.ts';
import type { PublicWebhookRow } from './webhook.repository.ts';
import { checkEvents, urlTakenError } from './webhook.service.ts';
import type { DeliveryAttemptRow, DeliveryStatus } from './webhook.table.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface WebhookManagementOptions {
  allowPrivateTargets: boolean;
  /** How far back delivery history is kept, and so how far back a recovery may reach. */
  historyDays: number;
}

export interface WebhookChanges {
  url?: string | undefined;
  events?: string[] | undefined;
}

export interface DeliveryListRequest {
  status?: DeliveryStatus | undefined;
  eventType?: EventType | undefined;
  after: KeysetPosition | undefined;
  take: number;
}

export interface DeliveryDetail {
  delivery: DeliveryLogRow;
  attempts: Omit<DeliveryAttemptRow, 'delivery_id'>[];
}

export class WebhookManagementService {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly options: WebhookManagementOptions;

  constructor(db: Db, clock: Clock, options: WebhookManagementOptions) {
    this.db = db;
    this.clock = clock;
    this.options = options;
  }

  async get(accountId: string, id: string): Promise<PublicWebhookRow> {
    const webhook = await repo.findOwnWebhook(this.db, id, accountId);
    if (!webhook) throw notFound('webhook', id);
    return webhook;
  }

  /** Changes the URL and/or the events, checked exactly as at registration. */
  async update(accountId: string, id: string, changes: WebhookChanges): Promise<PublicWebhookRow> {
    if (changes.url === undefined && changes.events === undefined) {
      throw new AppError('parameter_missing', "Give 'url', 'events' or both.");
    }
    await this.get(accountId, id);
    const events = changes.events === undefined ? undefined : JSON.stringify(checkEvents(changes.events));
    const url =
      changes.url === undefined
        ? undefined
        : await checkWebhookUrl(changes.url, this.options.allowPrivateTargets);
    try {
      const updated = await this.db.transaction().execute(async (trx) => {
        if (url !== undefined && (await repo.urlTakenByOther(trx, accountId, url, id))) throw urlTakenError();
        return repo.updateOwnWebhook(trx, id, accountId, {
          ...(url === undefined ? {} : { url }),
          ...(events === undefined ? {} : { events }),
          updated_at: this.clock.now(),
        });
      });
      if (!updated) throw notFound('webhook', id);
      return updated;
    } catch (error) {
      if (!(error instanceof AppError) && isUniqueViolation(error)) throw urlTakenError();
      throw error;
    }
  }

  /** A disabled webhook becomes active with a fresh failure count; an active one stays so. */
  async enable(accountId: string, id: string): Promise<PublicWebhookRow> {
    const webhook = await repo.enableOwnWebhook(this.db, id, accountId, this.clock.now());
    if (!webhook) throw notFound('webhook', id);
    return webhook;
  }

  /** Records a `ping` for this webhook only; it is delivered and logged like any event. */
  async test(accountId: string, id: string): Promise<string> {
    const webhook = await this.requireActive(accountId, id);
    return this.db.transaction().execute((trx) =>
      recordEvent(trx, {
        type: 'ping',
        accountId,
        at: this.clock.now(),
        data: { webhook_id: webhook.id },
      }),
    );
  }

  async listDeliveries(
    accountId: string,
    id: string,
    request: DeliveryListRequest,
  ): Promise<DeliveryLogRow[]> {
    await this.get(accountId, id);
    return repo.listDeliveries(this.db, {
      webhookId: id,
      status: request.status,
      eventType: request.eventType,
      after: request.after,
      take: request.take,
    });
  }

  async getDelivery(accountId: string, id: string, eventId: string): Promise<DeliveryDetail> {
    await this.get(accountId, id);
    const delivery = await repo.findDeliveryOfEvent(this.db, id, eventId);
    if (!delivery) throw notFound('event', eventId);
    return { delivery, attempts: await repo.findAttempts(this.db, delivery.id) };
  }

  /**
   * Sends the event to the webhook once more, now, with the same event id, whatever became of
   * it before. Refused while an attempt is in flight, and while the webhook is disabled (its
   * deliveries would wait unsent until it is enabled).
   */
  async resend(accountId: string, id: string, eventId: string): Promise<DeliveryLogRow> {
    await this.requireActive(accountId, id);
    const delivery = await repo.findDeliveryOfEvent(this.db, id, eventId);
    if (!delivery) throw notFound('event', eventId);
    const scheduled = await this.db.transaction().execute(async (trx) => {
      const done = await repo.scheduleResend(trx, delivery.id, this.clock.now());
      // Wakes the workers as a new event would: there is a delivery due now.
      if (done) await announceOutboxWrite(trx);
      return done;
    });
    if (!scheduled) {
      throw new AppError(
        'delivery_in_progress',
        `Event ${eventId} is being sent to ${id} right now; try again once this attempt is recorded.`,
      );
    }
    const updated = await repo.findDeliveryOfEvent(this.db, id, eventId);
    if (!updated) throw notFound('event', eventId);
    return updated;
  }

  /**
   * Queues a recovery: a worker sends again, oldest first, every event of the window that this
   * webhook should have had and did not get. The window ends now unless `until` is given (a
   * time later than now counts as now, so a client's clock running ahead is no error).
   */
  async recover(
    accountId: string,
    id: string,
    window: { since: string; until?: string | undefined },
  ): Promise<WebhookRecoveryRow> {
    await this.requireActive(accountId, id);
    const now = this.clock.now();
    const since = Date.parse(window.since);
    const until = window.until === undefined ? now : Math.min(Date.parse(window.until), now);
    const oldest = now - this.options.historyDays * DAY_MS;
    if (since < oldest) {
      throw invalidParameter(
        'since',
        `'since' must be within the delivery history: the last ${this.options.historyDays} days.`,
      );
    }
    if (since >= until) {
      throw invalidParameter(
        window.until === undefined ? 'since' : 'until',
        "'since' must be before 'until' (which is now when not given, and at most now).",
      );
    }
    const row: WebhookRecoveryRow = {
      id: newId('rcv'),
      webhook_id: id,
      since,
      until,
      status: 'running',
      events_queued: 0,
      after_created_at: null,
      after_event_id: null,
      created_at: now,
      updated_at: now,
    };
    await this.db.transaction().execute(async (trx) => {
      await repo.insertRecovery(trx, row);
      await announceOutboxWrite(trx);
    });
    return row;
  }

  async getRecovery(accountId: string, id: string, recoveryId: string): Promise<WebhookRecoveryRow> {
    await this.get(accountId, id);
    const recovery = await repo.findRecovery(this.db, id, recoveryId);
    if (!recovery) throw notFound('recovery', recoveryId);
    return recovery;
  }

  private async requireActive(accountId: string, id: string): Promise<PublicWebhookRow> {
    const webhook = await this.get(accountId, id);
    if (webhook.status !== 'active') {
      throw stateConflict(`Webhook ${id} is disabled; enable it first (POST /v1/webhooks/${id}/enable).`);
    }
    return webhook;
  }
}
