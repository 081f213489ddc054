import type { RequestOptions, Transport } from '../http.js';
import { PageIterator } from '../pagination.js';
import type {
  CreatedWebhook,
  CreateWebhookParams,
  DeletedWebhook,
  DeliverySummary,
  ListDeliveriesParams,
  RecoverWebhookParams,
  RotatedWebhook,
  UpdateWebhookParams,
  Webhook,
  WebhookDelivery,
  WebhookList,
  WebhookRecovery,
  WebhookTest,
} from '../types.js';
import { verifyWebhook, type VerifyOptions, type WebhookHeaders } from '../webhooks/verify.js';
import type { WebhookEvent } from '../webhooks/events.js';

/** A webhook's delivery log. */
export class WebhookDeliveries {
  private readonly transport: Transport;
  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** Deliveries to one webhook, newest first: await it for one page, or `for await` over all. */
  list(
    webhookId: string,
    params: ListDeliveriesParams = {},
    options?: RequestOptions,
  ): PageIterator<DeliverySummary> {
    return new PageIterator(
      (cursor) =>
        this.transport.call(
          'listWebhookDeliveries',
          { path: [webhookId], query: { ...params, cursor } },
          options,
        ),
      params.cursor,
    );
  }

  /** One delivery with every attempt, oldest first. */
  get(webhookId: string, eventId: string, options?: RequestOptions): Promise<WebhookDelivery> {
    return this.transport.call('getWebhookDelivery', { path: [webhookId, eventId] }, options);
  }

  /** Sends the event again now, whatever the delivery's status (409 while an attempt is in flight). */
  resend(webhookId: string, eventId: string, options?: RequestOptions): Promise<DeliverySummary> {
    return this.transport.call('resendWebhookDelivery', { path: [webhookId, eventId] }, options);
  }
}

/** Recoveries: the events of a time range queued again for one webhook. */
export class WebhookRecoveries {
  private readonly transport: Transport;
  constructor(transport: Transport) {
    this.transport = transport;
  }

  get(webhookId: string, recoveryId: string, options?: RequestOptions): Promise<WebhookRecovery> {
    return this.transport.call('getWebhookRecovery', { path: [webhookId, recoveryId] }, options);
  }
}

export class Webhooks {
  private readonly transport: Transport;
  readonly deliveries: WebhookDeliveries;
  readonly recoveries: WebhookRecoveries;

  constructor(transport: Transport) {
    this.transport = transport;
    this.deliveries = new WebhookDeliveries(transport);
    this.recoveries = new WebhookRecoveries(transport);
  }

  /** Registers a webhook; keep the returned `secret`, it is shown only here. A ping follows. */
  create(params: CreateWebhookParams, options?: RequestOptions): Promise<CreatedWebhook> {
    return this.transport.call('createWebhook', { body: params, retry: 'keyed' }, options);
  }

  /** The account's webhooks, without secrets (20 at most, so one page). */
  list(options?: RequestOptions): Promise<WebhookList> {
    return this.transport.call('listWebhooks', {}, options);
  }

  get(id: string, options?: RequestOptions): Promise<Webhook> {
    return this.transport.call('getWebhook', { path: [id] }, options);
  }

  /** Changes the URL or the events, checked as on creation. */
  update(id: string, params: UpdateWebhookParams, options?: RequestOptions): Promise<Webhook> {
    return this.transport.call('updateWebhook', { path: [id], body: params }, options);
  }

  /** Deletes the webhook for good; deliveries to it stop at once. */
  delete(id: string, options?: RequestOptions): Promise<DeletedWebhook> {
    return this.transport.call('deleteWebhook', { path: [id] }, options);
  }

  /** Turns a disabled webhook back on. */
  enable(id: string, options?: RequestOptions): Promise<Webhook> {
    return this.transport.call('enableWebhook', { path: [id], retry: 'safe' }, options);
  }

  /** A new secret, shown once; the previous one still signs deliveries for 24 hours. */
  rotateSecret(id: string, options?: RequestOptions): Promise<RotatedWebhook> {
    return this.transport.call('rotateWebhookSecret', { path: [id] }, options);
  }

  /** Sends a ping to this webhook now (an ordinary, logged delivery). */
  test(id: string, options?: RequestOptions): Promise<WebhookTest> {
    return this.transport.call('testWebhook', { path: [id] }, options);
  }

  /** Queues again the events from `since` (to `until`, or now) for this webhook. */
  recover(id: string, params: RecoverWebhookParams, options?: RequestOptions): Promise<WebhookRecovery> {
    return this.transport.call('recoverWebhook', { path: [id], body: params }, options);
  }

  /** The same as `Tributary.webhooks.verify`. */
  verify(
    rawBody: string | Uint8Array | ArrayBuffer,
    headers: WebhookHeaders,
    secret: string | readonly string[],
    options?: VerifyOptions,
  ): Promise<WebhookEvent> {
    return verifyWebhook(rawBody, headers, secret, options);
  }
}
