// verify() on real deliveries: the service's delivery worker signs and sends them over HTTPS to
// a real receiver, and the SDK checks what arrived, byte for byte as received.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Tributary, WebhookVerificationError, type WebhookEvent } from '@tributary/sdk';
import { DIALECTS } from '../helpers/databases.ts';
import { startReceiver, type ReceivedRequest } from '../helpers/https-receiver.ts';
import { startWebhookServer } from '../webhooks/harness.ts';

function withoutStandardHeaders(request: ReceivedRequest): Record<string, string | string[] | undefined> {
  const headers = { ...request.headers };
  delete headers['webhook-signature'];
  delete headers['webhook-id'];
  delete headers['webhook-timestamp'];
  return headers;
}

for (const dialect of DIALECTS) {
  describe(`verify on real deliveries (${dialect})`, () => {
    test('the ping and a stream.started verify with the secret from webhooks.create', async (t) => {
      const { server } = await startWebhookServer(t, { dialect });
      const receiver = await startReceiver();
      t.after(() => receiver.close());
      const account = await server.createAccount();
      const client = new Tributary({ apiKey: account.writeKey, baseUrl: server.origin });

      const webhook = await client.webhooks.create({ url: receiver.url(), events: ['*'] });
      const [ping] = await receiver.waitForRequests(1);
      assert.ok(ping);
      const event: WebhookEvent = await Tributary.webhooks.verify(ping.rawBody, ping.headers, webhook.secret);
      assert.equal(event.type, 'ping');
      assert.equal(event.data.webhook_id, webhook.id);
      assert.equal(event.id, ping.headers['x-service-event-id']);

      const stream = await client.streams.create({ title: 'Going live' });
      await server.services.streams.goLive(stream.id);
      const requests = await receiver.waitForRequests(2);
      const started = requests[1];
      assert.ok(started);
      const live = await client.webhooks.verify(started.rawBody, started.headers, webhook.secret);
      assert.equal(live.type, 'stream.started');
      assert.equal(live.data.id, stream.id);
      assert.equal(live.data.title, 'Going live');
      assert.equal(live.data.status, 'live');
      assert.ok(!('ingest' in live.data), 'a stream event carries no stream key');

      // The legacy header alone verifies too (what the service sends before Standard Webhooks).
      assert.deepEqual(
        await Tributary.webhooks.verify(started.rawBody, withoutStandardHeaders(started), webhook.secret),
        live,
      );
      // Whichever scheme is checked, a wrong secret or a changed body is refused.
      const other = await client.webhooks.create({ url: receiver.url('/other'), events: ['ping'] });
      for (const [body, secret] of [
        [started.rawBody, other.secret],
        [Buffer.from(started.rawBody.toString('utf8').replace('Going live', 'Going lime')), webhook.secret],
      ] as const) {
        const error: unknown = await Tributary.webhooks.verify(body, started.headers, secret).then(
          () => undefined,
          (e: unknown) => e,
        );
        assert.ok(error instanceof WebhookVerificationError);
        assert.equal(error.code, 'signature_mismatch');
      }

      // A receiver that refuses the legacy scheme accepts a delivery only with webhook-signature.
      const strict = Tributary.webhooks
        .verify(started.rawBody, started.headers, webhook.secret, { legacy: false })
        .then(
          (verified) => verified.id,
          (e: unknown) => (e instanceof WebhookVerificationError ? e.code : e),
        );
      assert.equal(
        await strict,
        started.headers['webhook-signature'] === undefined ? 'legacy_signature_refused' : live.id,
      );
    });
  });
}
