// The deliveries' ceiling (issue 29): the same signed requests the worker sends, to the same
// receivers, from a minimal undici loop with the worker's concurrency, and nothing else: no
// database, no outbox, no leases, no attempt records. Each delivery's body is the envelope the
// worker builds (envelope.ts) and carries both signatures (X-Service-Signature and Standard
// Webhooks), computed per delivery as the worker computes them.
import { Agent } from 'undici';
import type { EventForSending } from '../src/events/outbox.repository.ts';
import { newId } from '../src/shared/ids.ts';
import { deliveryHeaders, envelopeBody } from '../src/webhooks/delivery/envelope.ts';
import { signingKey } from '../src/webhooks/delivery/signing.ts';
import { DEFAULT_CONCURRENCY, DEFAULT_PER_WEBHOOK_CONCURRENCY } from '../src/webhooks/delivery/worker.ts';

export interface BareSendOptions {
  urls: string[];
  events: number;
  /** The CA the receivers' certificate is signed by. */
  ca: string;
}

/** Sends `events` events to every URL; resolves when every answer has arrived. */
export async function bareSend(options: BareSendOptions): Promise<void> {
  const agent = new Agent({
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 60_000,
    headersTimeout: 5000,
    bodyTimeout: 5000,
    connect: { timeout: 5000, ca: options.ca },
  });
  const keys = {
    current: signingKey(`whsec_${Buffer.alloc(24, 7).toString('base64')}`),
    previous: undefined,
  };
  const accountId = 'usr_bench';
  // The worker's limits: DEFAULT_CONCURRENCY in all, DEFAULT_PER_WEBHOOK_CONCURRENCY per webhook.
  const lanesPerUrl = Math.min(
    DEFAULT_PER_WEBHOOK_CONCURRENCY,
    Math.floor(DEFAULT_CONCURRENCY / Math.max(1, options.urls.length)),
  );
  try {
    await Promise.all(
      options.urls.flatMap((url, webhookIndex) =>
        Array.from({ length: lanesPerUrl }, async (_lane, lane) => {
          const webhookId = `wh_bench${webhookIndex}`;
          for (let i = lane; i < options.events; i += lanesPerUrl) {
            const event: EventForSending = {
              id: newId('evt'),
              type: 'stream.started',
              created_at: Date.now(),
              data: JSON.stringify({
                id: `str_bench${i}`,
                title: `Bench stream ${i}`,
                status: 'live',
                creator_id: accountId,
              }),
            };
            const body = envelopeBody(event);
            const headers = deliveryHeaders(keys, body, event, webhookId, 1, Math.floor(Date.now() / 1000));
            const response = await agent.request({
              origin: new URL(url).origin,
              path: '/hook',
              method: 'POST',
              headers,
              body,
            });
            await response.body.dump();
            if (response.statusCode !== 200) throw new Error(`the receiver answered ${response.statusCode}`);
          }
        }),
      ),
    );
  } finally {
    await agent.close();
  }
}
