import type { RequestOptions, Transport } from '../http.js';
import { PageIterator } from '../pagination.js';
import type { CreatedWebhook, CreateWebhookParams, DeletedWebhook, DeliverySummary, ListDeliveriesParams, RecoverWebhookParams, RotatedWebhook, UpdateWebhookParams, Webhook, WebhookDelivery, WebhookList, WebhookRecovery, WebhookTest } from '../types.js';
import { type VerifyOptions, type WebhookHeaders } from '../webhooks/verify.js';
import type { WebhookEvent } from '../webhooks/events.js';
/** A webhook's delivery log. */
export declare class WebhookDeliveries {
    private readonly transport;
    constructor(transport: Transport);
    /** Deliveries to one webhook, newest first: await it for one page, or `for await` over all. */
    list(webhookId: string, params?: ListDeliveriesParams, options?: RequestOptions): PageIterator<DeliverySummary>;
    /** One delivery with every attempt, oldest first. */
    get(webhookId: string, eventId: string, options?: RequestOptions): Promise<WebhookDelivery>;
    /** Sends the event again now, whatever the delivery's status (409 while an attempt is in flight). */
    resend(webhookId: string, eventId: string, options?: RequestOptions): Promise<DeliverySummary>;
}
/** Recoveries: the events of a time range queued again for one webhook. */
export declare class WebhookRecoveries {
    private readonly transport;
    constructor(transport: Transport);
    get(webhookId: string, recoveryId: string, options?: RequestOptions): Promise<WebhookRecovery>;
}
export declare class Webhooks {
    private readonly transport;
    readonly deliveries: WebhookDeliveries;
    readonly recoveries: WebhookRecoveries;
    constructor(transport: Transport);
    /** Registers a webhook; keep the returned `secret`, it is shown only here. A ping follows. */
    create(params: CreateWebhookParams, options?: RequestOptions): Promise<CreatedWebhook>;
    /** The account's webhooks, without secrets (20 at most, so one page). */
    list(options?: RequestOptions): Promise<WebhookList>;
    get(id: string, options?: RequestOptions): Promise<Webhook>;
    /** Changes the URL or the events, checked as on creation. */
    update(id: string, params: UpdateWebhookParams, options?: RequestOptions): Promise<Webhook>;
    /** Deletes the webhook for good; deliveries to it stop at once. */
    delete(id: string, options?: RequestOptions): Promise<DeletedWebhook>;
    /** Turns a disabled webhook back on. */
    enable(id: string, options?: RequestOptions): Promise<Webhook>;
    /** A new secret, shown once; the previous one still signs deliveries for 24 hours. */
    rotateSecret(id: string, options?: RequestOptions): Promise<RotatedWebhook>;
    /** Sends a ping to this webhook now (an ordinary, logged delivery). */
    test(id: string, options?: RequestOptions): Promise<WebhookTest>;
    /** Queues again the events from `since` (to `until`, or now) for this webhook. */
    recover(id: string, params: RecoverWebhookParams, options?: RequestOptions): Promise<WebhookRecovery>;
    /** The same as `Tributary.webhooks.verify`. */
    verify(rawBody: string | Uint8Array | ArrayBuffer, headers: WebhookHeaders, secret: string | readonly string[], options?: VerifyOptions): Promise<WebhookEvent>;
}
