// POST /v1/webhooks/{id}/rotate-secret: the new secret is shown once, the replaced one keeps
// signing for 24 hours, and a receiver that switches at rotation time loses no delivery, even
// of events that were waiting for a retry when the secret changed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TestClock } from '../helpers/clock.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { startReceiver, type ReceivedRequest } from '../helpers/https-receiver.ts';
import type { TestServer } from '../helpers/server.ts';
import { eventually, registerWebhook, startWebhookServer } from './harness.ts';
import { serviceSignatureValid, signatureEntries, verifiesAt } from './standard-webhooks.ts';

const FIELDS = ['created_at', 'events', 'id', 'status', 'url'];
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

async function storedSecrets(server: TestServer, webhookId: string) {
  const row = await server.services.database.db
    .selectFrom('webhooks')
    .select(['secret_ciphertext', 'previous_secret_ciphertext', 'previous_secret_expires_at'])
    .where('id', '=', webhookId)
    .executeTakeFirstOrThrow();
  const box = server.services.webhookSecrets;
  return {
    current: box.open(row.secret_ciphertext, webhookId),
    previous:
      row.previous_secret_ciphertext === null ? null : box.open(row.previous_secret_ciphertext, webhookId),
    previousExpiresAt: row.previous_secret_expires_at,
  };
}

async function deliveries(server: TestServer, webhookId: string) {
  return server.services.database.db
    .selectFrom('webhook_deliveries')
    .select(['event_id', 'status', 'attempt_count'])
    .where('webhook_id', '=', webhookId)
    .orderBy('event_id')
    .execute();
}

for (const dialect of DIALECTS) {
  describe(`webhook secret rotation on ${dialect}`, () => {
    test('rotate-secret returns a new secret once, keeps the previous one sealed for 24 h, and a second rotation drops the oldest', async (t) => {
      const clock = new TestClock(Date.parse('2026-11-23T12:00:00.000Z'));
      const { server } = await startWebhookServer(t, { dialect, clock, worker: false });
      const account = await server.createAccount();
      const created = await registerWebhook(server, account.writeKey, 'https://127.0.0.1:9/hook');

      clock.advance(HOUR);
      const first = await server.request('POST', `/v1/webhooks/${created.id}/rotate-secret`, {
        key: account.writeKey,
      });
      assert.equal(first.status, 200);
      assert.deepEqual(
        Object.keys(first.body).sort(),
        [...FIELDS, 'previous_secret_expires_at', 'secret'].sort(),
      );
      assert.equal(first.body.id, created.id);
      assert.equal(first.body.status, 'active');
      assert.match(first.body.secret, /^whsec_[0-9A-Za-z]{32}$/);
      assert.notEqual(first.body.secret, created.secret);
      assert.equal(first.body.previous_secret_expires_at, '2026-11-24T13:00:00.000Z');
      assert.deepEqual(await storedSecrets(server, created.id), {
        current: first.body.secret,
        previous: created.secret,
        previousExpiresAt: Date.parse('2026-11-24T13:00:00.000Z'),
      });

      // Never shown again, and encrypted at rest.
      const list = await server.request('GET', '/v1/webhooks', { key: account.readKey });
      assert.deepEqual(Object.keys(list.body.data[0]).sort(), FIELDS);
      const listed = JSON.stringify(list.body);
      assert.ok(!listed.includes(first.body.secret.slice(6)) && !listed.includes(created.secret.slice(6)));
      const raw = await server.services.database.db
        .selectFrom('webhooks')
        .select(['secret_ciphertext', 'previous_secret_ciphertext'])
        .executeTakeFirstOrThrow();
      assert.ok(!JSON.stringify(raw).includes(first.body.secret.slice(6)));
      assert.ok(!JSON.stringify(raw).includes(created.secret.slice(6)));

      clock.advance(2 * HOUR);
      const second = await server.request('POST', `/v1/webhooks/${created.id}/rotate-secret`, {
        key: account.writeKey,
      });
      assert.equal(second.status, 200);
      assert.equal(second.body.previous_secret_expires_at, '2026-11-24T15:00:00.000Z');
      assert.deepEqual(await storedSecrets(server, created.id), {
        current: second.body.secret,
        previous: first.body.secret,
        previousExpiresAt: Date.parse('2026-11-24T15:00:00.000Z'),
      });
      assert.equal(new Set([created.secret, first.body.secret, second.body.secret]).size, 3);

      // Two at once: one ends current, the other previous; neither handed-out secret is lost.
      const racing = await Promise.all(
        [1, 2].map(() =>
          server.request('POST', `/v1/webhooks/${created.id}/rotate-secret`, { key: account.writeKey }),
        ),
      );
      assert.deepEqual(
        racing.map((r) => r.status),
        [200, 200],
      );
      const stored = await storedSecrets(server, created.id);
      assert.deepEqual(
        [stored.current, stored.previous].sort(),
        racing.map((r) => r.body.secret as string).sort(),
      );
    });

    test("another account's webhook is not found, a read key may not rotate, and neither changes anything", async (t) => {
      const { server } = await startWebhookServer(t, { dialect, clock: new TestClock(), worker: false });
      const owner = await server.createAccount('owner');
      const other = await server.createAccount('other');
      const webhook = await registerWebhook(server, owner.writeKey, 'https://127.0.0.1:9/hook');
      const before = await storedSecrets(server, webhook.id);

      const foreign = await server.request('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, {
        key: other.writeKey,
      });
      assert.equal(foreign.status, 404);
      assert.equal(foreign.body.error.code, 'resource_not_found');
      const foreignDelete = await server.request('DELETE', `/v1/webhooks/${webhook.id}`, {
        key: other.writeKey,
      });
      assert.deepEqual(foreign.body, foreignDelete.body, 'exactly as DELETE answers');

      const readOnly = await server.request('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, {
        key: owner.readKey,
      });
      assert.equal(readOnly.status, 403);
      assert.equal(readOnly.body.error.code, 'insufficient_scope');
      const anonymous = await server.request('POST', `/v1/webhooks/${webhook.id}/rotate-secret`);
      assert.equal(anonymous.status, 401);
      const missing = await server.request('POST', '/v1/webhooks/wh_missing/rotate-secret', {
        key: owner.writeKey,
      });
      assert.equal(missing.status, 404);
      assert.equal(missing.body.error.code, 'resource_not_found');
      const withQuery = await server.request('POST', `/v1/webhooks/${webhook.id}/rotate-secret?now=1`, {
        key: owner.writeKey,
      });
      assert.equal(withQuery.status, 400);

      assert.deepEqual(await storedSecrets(server, webhook.id), before);
      assert.equal(before.previous, null);

      const document = await server.request('GET', '/v1/openapi.json', { key: owner.readKey });
      const operation = document.body.paths['/v1/webhooks/{id}/rotate-secret'].post;
      assert.equal(operation.operationId, 'rotateWebhookSecret');
      assert.match(operation.responses['200'].content['application/json'].example.secret, /^whsec_/);
    });

    test('a rotation while deliveries are retrying loses none: the receiver switches to the new secret at once and every event is delivered, verified with it', async (t) => {
      const clock = new TestClock();
      const { server, worker } = await startWebhookServer(t, {
        dialect,
        clock,
        // The third attempt comes after the previous secret expired.
        webhooks: { retryDelaysMs: [MINUTE, 25 * HOUR] },
        workerOptions: { random: () => 0.5 },
      });
      assert.ok(worker);
      // The receiver: down at first; then it checks every delivery with the one secret it
      // knows, on its own clock (the test's), with both schemes, and accepts only what verifies.
      const receiver = {
        down: true,
        secret: undefined as string | undefined,
        failOnce: new Set<string>(),
        accepted: [] as ReceivedRequest[],
        refused: [] as ReceivedRequest[],
      };
      const server_ = await startReceiver((request) => {
        if (receiver.down) return { status: 503 };
        const secret = receiver.secret;
        if (
          secret === undefined ||
          !verifiesAt(secret, request, clock.now()) ||
          !serviceSignatureValid(secret, request)
        ) {
          receiver.refused.push(request);
          return { status: 400, body: 'signature not verified' };
        }
        if (receiver.failOnce.delete(request.body.id as string)) return { status: 500 };
        receiver.accepted.push(request);
        return { status: 204 };
      });
      t.after(() => server_.close());
      const account = await server.createAccount();
      const webhook = await registerWebhook(server, account.writeKey, server_.url());
      for (let i = 0; i < 4; i++) {
        const { stream } = await server.services.streams.create(account.userId, { title: `Stream ${i}` });
        await server.services.streams.goLive(stream.id);
      }
      // Five events (the ping, four stream.started), each failed once and waiting for its retry.
      const waiting = await eventually(async () => {
        const rows = await deliveries(server, webhook.id);
        const ready = rows.length === 5 && rows.every((r) => r.status === 'pending' && r.attempt_count === 1);
        return ready ? rows : undefined;
      });
      assert.equal(server_.requests.length, 5);
      const eventIds = waiting.map((row) => row.event_id);

      const rotated = await server.request('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, {
        key: account.writeKey,
      });
      assert.equal(rotated.status, 200);
      const newSecret: string = rotated.body.secret;
      receiver.secret = newSecret;
      receiver.down = false;
      // Two events fail once more, so their last attempt comes after the old secret expired.
      const [late1, late2] = eventIds;
      assert.ok(late1 && late2);
      receiver.failOnce = new Set([late1, late2]);

      clock.advance(MINUTE);
      worker.wake();
      await eventually(async () => {
        const rows = await deliveries(server, webhook.id);
        const settled = rows.filter((r) => r.status === 'succeeded').length === 3;
        const late = rows.filter((r) => r.status === 'pending' && r.attempt_count === 2).length === 2;
        return settled && late ? true : undefined;
      });

      clock.advance(25 * HOUR);
      worker.wake();
      const final = await eventually(async () => {
        const rows = await deliveries(server, webhook.id);
        return rows.every((r) => r.status === 'succeeded') ? rows : undefined;
      });
      assert.deepEqual(
        final.map((row) => [row.event_id, row.attempt_count]),
        eventIds.map((id) => [id, id === late1 || id === late2 ? 3 : 2]),
      );
      assert.deepEqual(receiver.refused, [], 'nothing the receiver could not verify');
      assert.deepEqual(receiver.accepted.map((r) => r.body.id as string).sort(), [...eventIds].sort());
      for (const request of receiver.accepted) {
        const id = request.body.id as string;
        const afterExpiry: boolean = id === late1 || id === late2;
        assert.equal(signatureEntries(request).length, afterExpiry ? 1 : 2, id);
        assert.equal(request.headers['x-service-delivery-attempt'], afterExpiry ? '3' : '2');
        assert.equal(request.headers['x-service-signature-previous'] === undefined, afterExpiry);
      }
      // What the receiver would have refused had a delivery still gone out with the old secret
      // alone: the attempts sent before the rotation.
      const beforeRotation = server_.requests.slice(0, 5);
      for (const request of beforeRotation) {
        const at = Number(request.headers['webhook-timestamp']) * 1000;
        assert.ok(!verifiesAt(newSecret, request, at));
        assert.ok(verifiesAt(webhook.secret, request, at));
      }
    });
  });
}
