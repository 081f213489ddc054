// The SDK's methods for the webhook management routes, against the real service with its
// delivery worker and a real HTTPS receiver.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InvalidRequestError, NotFoundError, Tributary, type DeliverySummary } from '@tributary/sdk';
import { DIALECTS } from '../helpers/databases.ts';
import { startReceiver } from '../helpers/https-receiver.ts';
import type { TestServer } from '../helpers/server.ts';
import { eventually, startWebhookServer } from '../webhooks/harness.ts';

const CONTRACT = [
  'getWebhook',
  'updateWebhook',
  'enableWebhook',
  'rotateWebhookSecret',
  'testWebhook',
  'listWebhookDeliveries',
  'getWebhookDelivery',
  'resendWebhookDelivery',
  'recoverWebhook',
  'getWebhookRecovery',
];

async function assertServesContract(server: TestServer): Promise<void> {
  const document = await server.request('GET', '/v1/openapi.json');
  const served = new Set<string>();
  for (const item of Object.values(document.body.paths as Record<string, Record<string, any>>)) {
    for (const operation of Object.values(item)) served.add(operation.operationId);
  }
  assert.deepEqual(
    CONTRACT.filter((id) => !served.has(id)),
    [],
    'every operation the SDK calls is served',
  );
}

for (const dialect of DIALECTS) {
  describe(`SDK webhook management on ${dialect}`, () => {
    test('get, update, test, the delivery log, resend, rotate, enable and recover', async (t) => {
      const { server } = await startWebhookServer(t, { dialect });
      await assertServesContract(server);
      const receiver = await startReceiver();
      t.after(() => receiver.close());
      const owner = await server.createAccount('owner');
      const stranger = await server.createAccount('stranger');
      const client = new Tributary({ apiKey: owner.writeKey, baseUrl: server.origin });

      const created = await client.webhooks.create({ url: receiver.url(), events: ['stream.started'] });
      await receiver.waitForRequests(1); // the ping
      const fetched = await client.webhooks.get(created.id);
      assert.equal('secret' in fetched, false);
      assert.deepEqual({ ...fetched, secret: created.secret }, created);
      const other = new Tributary({ apiKey: stranger.writeKey, baseUrl: server.origin });
      const hidden = await other.webhooks.get(created.id).catch((e: unknown) => e);
      assert.ok(hidden instanceof NotFoundError);

      const updated = await client.webhooks.update(created.id, {
        events: ['stream.started', 'stream.ended'],
      });
      assert.deepEqual(updated.events, ['stream.started', 'stream.ended']);
      const refused = await client.webhooks
        .update(created.id, { url: 'http://insecure.test/' })
        .catch((e: unknown) => e);
      assert.ok(refused instanceof InvalidRequestError);
      assert.equal(refused.param, 'url');

      // A test ping is an ordinary, logged delivery.
      const ping = await client.webhooks.test(created.id);
      assert.equal(ping.type, 'ping');
      const requests = await receiver.waitForRequests(2);
      const verified = await client.webhooks.verify(
        requests[1]!.rawBody,
        requests[1]!.headers,
        created.secret,
        {
          legacy: false,
        },
      );
      assert.equal(verified.id, ping.event_id);

      const succeeded = await eventually(async () => {
        const delivery = await client.webhooks.deliveries.get(created.id, ping.event_id);
        return delivery.status === 'succeeded' ? delivery : undefined;
      });
      assert.equal(succeeded.attempts.length, 1);
      assert.equal(succeeded.attempts[0]?.status_code, 200);

      // Both pings in the log, newest first, over pages of one.
      const log: DeliverySummary[] = [];
      for await (const delivery of client.webhooks.deliveries.list(created.id, { limit: 1 }))
        log.push(delivery);
      assert.deepEqual(
        log.map((d) => d.event_type),
        ['ping', 'ping'],
      );
      assert.equal(log[0]?.event_id, ping.event_id);
      const pings = await client.webhooks.deliveries.list(created.id, {
        event_type: 'ping',
        status: 'succeeded',
      });
      assert.equal(pings.data.length, 2);

      const resent = await client.webhooks.deliveries.resend(created.id, ping.event_id);
      assert.equal(resent.event_id, ping.event_id);
      const again = await receiver.waitForRequests(3);
      assert.equal(again[2]?.headers['webhook-id'], ping.event_id);

      // After a rotation both secrets verify for a while.
      const rotated = await client.webhooks.rotateSecret(created.id);
      assert.notEqual(rotated.secret, created.secret);
      assert.ok(Date.parse(rotated.previous_secret_expires_at) > Date.now());
      const second = await client.webhooks.test(created.id);
      const afterRotation = (await receiver.waitForRequests(4))[3]!;
      for (const secret of [rotated.secret, created.secret]) {
        const event = await Tributary.webhooks.verify(afterRotation.rawBody, afterRotation.headers, secret, {
          legacy: false,
        });
        assert.equal(event.id, second.event_id);
      }

      assert.equal((await client.webhooks.enable(created.id)).status, 'active');

      const since = new Date(Date.now() - 60_000).toISOString();
      const recovery = await client.webhooks.recover(created.id, { since });
      assert.match(recovery.id, /^rcv_/);
      assert.equal(recovery.webhook_id, created.id);
      const done = await eventually(async () => {
        const state = await client.webhooks.recoveries.get(created.id, recovery.id);
        return state.status === 'done' ? state : undefined;
      });
      assert.equal(done.id, recovery.id);
    });
  });
}
