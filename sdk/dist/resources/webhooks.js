import { PageIterator } from '../pagination.js';
import { verifyWebhook } from '../webhooks/verify.js';
/** A webhook's delivery log. */
export class WebhookDeliveries {
    transport;
    constructor(transport) {
        this.transport = transport;
    }
    /** Deliveries to one webhook, newest first: await it for one page, or `for await` over all. */
    list(webhookId, params = {}, options) {
        return new PageIterator((cursor) => this.transport.call('listWebhookDeliveries', { path: [webhookId], query: { ...params, cursor } }, options), params.cursor);
    }
    /** One delivery with every attempt, oldest first. */
    get(webhookId, eventId, options) {
        return this.transport.call('getWebhookDelivery', { path: [webhookId, eventId] }, options);
    }
    /** Sends the event again now, whatever the delivery's status (409 while an attempt is in flight). */
    resend(webhookId, eventId, options) {
        return this.transport.call('resendWebhookDelivery', { path: [webhookId, eventId] }, options);
    }
}
/** Recoveries: the events of a time range queued again for one webhook. */
export class WebhookRecoveries {
    transport;
    constructor(transport) {
        this.transport = transport;
    }
    get(webhookId, recoveryId, options) {
        return this.transport.call('getWebhookRecovery', { path: [webhookId, recoveryId] }, options);
    }
}
export class Webhooks {
    transport;
    deliveries;
    recoveries;
    constructor(transport) {
        this.transport = transport;
        this.deliveries = new WebhookDeliveries(transport);
        this.recoveries = new WebhookRecoveries(transport);
    }
    /** Registers a webhook; keep the returned `secret`, it is shown only here. A ping follows. */
    create(params, options) {
        return this.transport.call('createWebhook', { body: params, retry: 'keyed' }, options);
    }
    /** The account's webhooks, without secrets (20 at most, so one page). */
    list(options) {
        return this.transport.call('listWebhooks', {}, options);
    }
    get(id, options) {
        return this.transport.call('getWebhook', { path: [id] }, options);
    }
    /** Changes the URL or the events, checked as on creation. */
    update(id, params, options) {
        return this.transport.call('updateWebhook', { path: [id], body: params }, options);
    }
    /** Deletes the webhook for good; deliveries to it stop at once. */
    delete(id, options) {
        return this.transport.call('deleteWebhook', { path: [id] }, options);
    }
    /** Turns a disabled webhook back on. */
    enable(id, options) {
        return this.transport.call('enableWebhook', { path: [id], retry: 'safe' }, options);
    }
    /** A new secret, shown once; the previous one still signs deliveries for 24 hours. */
    rotateSecret(id, options) {
        return this.transport.call('rotateWebhookSecret', { path: [id] }, options);
    }
    /** Sends a ping to this webhook now (an ordinary, logged delivery). */
    test(id, options) {
        return this.transport.call('testWebhook', { path: [id] }, options);
    }
    /** Queues again the events from `since` (to `until`, or now) for this webhook. */
    recover(id, params, options) {
        return this.transport.call('recoverWebhook', { path: [id], body: params }, options);
    }
    /** The same as `Tributary.webhooks.verify`. */
    verify(rawBody, headers, secret, options) {
        return verifyWebhook(rawBody, headers, secret, options);
    }
}
