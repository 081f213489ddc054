// Delivery signatures as receivers check them: Standard Webhooks headers verified with the
// `standardwebhooks` package, X-Service-Signature with node:crypto, both over the raw bytes
// that real HTTPS receivers got, before and after a secret rotation.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { TestClock } from '../helpers/clock.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { startReceiver, type HttpsReceiver, type ReceivedRequest } from '../helpers/https-receiver.ts';
import type { TestServer } from '../helpers/server.ts';
import { eventually, registerWebhook, startWebhookServer } from './harness.ts';
import {
  headersOf,
  serviceSignatureValid,
  signatureEntries,
  TOLERANCE_MS,
  verifiesAt,
  verifyAt,
} from './standard-webhooks.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const ENTRY = /^v1,[A-Za-z0-9+/]{43}=$/;

/** A stream goes live: one `stream.started` event; resolves with the request that delivered it. */
async function streamStarted(
  server: TestServer,
  userId: string,
  receiver: HttpsReceiver,
): Promise<ReceivedRequest> {
  const { stream } = await server.services.streams.create(userId, { title: 'Signed' });
  await server.services.streams.goLive(stream.id);
  for (;;) {
    const found = receiver.requests.find(
      (request) => request.body?.type === 'stream.started' && request.body.data.id === stream.id,
    );
    if (found) return found;
    await receiver.waitForRequests(receiver.requests.length + 1);
  }
}

for (const dialect of DIALECTS) {
  describe(`delivery signatures on ${dialect}`, () => {
    test('a delivery verifies with the standardwebhooks package; a changed byte, another secret and a replay 6 minutes later are refused', async (t) => {
      const clock = new TestClock();
      const { server } = await startWebhookServer(t, { dialect, clock });
      const receiver = await startReceiver();
      t.after(() => receiver.close());
      const account = await server.createAccount();
      const webhook = await registerWebhook(server, account.writeKey, receiver.url());
      const other = await registerWebhook(server, account.writeKey, receiver.url('/other'));
      const [ping] = (await receiver.waitForRequests(2)).filter((request) => request.path === '/hook');
      assert.ok(ping);

      assert.equal(ping.headers['webhook-id'], ping.body.id, 'the evt_ id');
      assert.equal(ping.headers['webhook-timestamp'], String(Math.floor(clock.now() / 1000)));
      assert.match(String(ping.headers['webhook-signature']), ENTRY, 'one signature: no rotation yet');
      // As a receiver runs it, on its own (real) clock: the service's clock is real time here.
      const payload = new Webhook(webhook.secret).verify(
        ping.rawBody.toString('utf8'),
        headersOf(ping.headers),
      );
      assert.deepEqual(payload, ping.body);

      // X-Service-Signature is as it always was, and alone.
      assert.ok(serviceSignatureValid(webhook.secret, ping));
      assert.equal(ping.headers['x-service-signature-previous'], undefined);
      assert.equal(ping.headers['x-service-webhook-id'], webhook.id);
      assert.equal(ping.headers['x-service-event-id'], ping.body.id);

      const now = Date.now();
      assert.ok(verifyAt(other.secret, ping, now) instanceof WebhookVerificationError, 'another secret');
      for (const at of [0, Math.floor(ping.rawBody.length / 2), ping.rawBody.length - 1]) {
        const changed = Buffer.from(ping.rawBody);
        changed.writeUInt8(changed.readUInt8(at) ^ 0x01, at);
        assert.ok(
          verifyAt(webhook.secret, ping, now, changed) instanceof WebhookVerificationError,
          `byte ${at} changed`,
        );
      }
      const forged = { ...ping, headers: { ...ping.headers, 'webhook-id': 'evt_other' } };
      assert.ok(verifyAt(webhook.secret, forged, now) instanceof WebhookVerificationError, 'another id');
      const shifted = {
        ...ping,
        headers: {
          ...ping.headers,
          'webhook-timestamp': String(Number(ping.headers['webhook-timestamp']) + 60),
        },
      };
      assert.ok(
        verifyAt(webhook.secret, shifted, now) instanceof WebhookVerificationError,
        'a later timestamp',
      );

      // Replayed: the same request, byte for byte, 6 minutes later is too old; 4 minutes is not.
      assert.ok(verifiesAt(webhook.secret, ping, now + 4 * MINUTE));
      const replayed = verifyAt(webhook.secret, ping, now + 6 * MINUTE);
      assert.ok(replayed instanceof WebhookVerificationError);
      assert.match(replayed.message, /too old/);
    });

    test('each attempt is signed at its own time: sent with a clock 6 minutes behind it is refused, the retry once the clock caught up is accepted', async (t) => {
      const clock = new TestClock(Date.now() - 6 * MINUTE);
      const { server, worker } = await startWebhookServer(t, {
        dialect,
        clock,
        webhooks: { retryDelaysMs: [MINUTE] },
        workerOptions: { random: () => 0.5 },
      });
      // Answers as a receiver verifying with the package would: the secret is known by the
      // time the retry comes, and the first attempt is refused by its timestamp alone.
      const known: { secret?: string } = {};
      const receiver = await startReceiver((request) =>
        known.secret !== undefined && verifiesAt(known.secret, request, Date.now())
          ? { status: 204 }
          : { status: 400, body: 'unverified' },
      );
      t.after(() => receiver.close());
      const account = await server.createAccount();
      const webhook = await registerWebhook(server, account.writeKey, receiver.url());
      known.secret = webhook.secret;
      const [first] = await receiver.waitForRequests(1);
      assert.ok(first);
      const firstTimestamp = Number(first.headers['webhook-timestamp']);
      assert.equal(firstTimestamp, Math.floor(clock.now() / 1000));
      assert.ok(Date.now() - firstTimestamp * 1000 > TOLERANCE_MS);
      const refused = verifyAt(webhook.secret, first, first.receivedAt);
      assert.ok(refused instanceof WebhookVerificationError);
      assert.match(refused.message, /too old/);
      assert.ok(serviceSignatureValid(webhook.secret, first), 'X-Service-Signature has no timestamp');

      const deliveryOf = () =>
        server.services.database.db
          .selectFrom('webhook_deliveries')
          .select(['status', 'attempt_count'])
          .where('webhook_id', '=', webhook.id)
          .executeTakeFirstOrThrow();
      // Recorded (a retry is pending) before the clock moves, or the jump would expire its lease.
      await eventually(async () => ((await deliveryOf()).status === 'pending' ? true : undefined));
      // The retry falls due a minute later on the service's clock; move it to real time.
      clock.set(Date.now());
      worker?.wake();
      const [, second] = await receiver.waitForRequests(2);
      assert.ok(second);
      assert.equal(second.headers['x-service-delivery-attempt'], '2');
      assert.equal(second.headers['webhook-id'], first.headers['webhook-id'], 'the same id on every attempt');
      assert.ok(second.rawBody.equals(first.rawBody), 'the same bytes on every attempt');
      assert.equal(second.headers['webhook-timestamp'], String(Math.floor(clock.now() / 1000)));
      assert.ok(verifiesAt(webhook.secret, second, second.receivedAt));
      assert.notEqual(second.headers['webhook-signature'], first.headers['webhook-signature']);
      assert.equal(second.headers['x-service-signature'], first.headers['x-service-signature']);
      const settled = await eventually(async () => {
        const row = await deliveryOf();
        return row.status === 'sending' ? undefined : row;
      });
      assert.deepEqual({ ...settled }, { status: 'succeeded', attempt_count: 2 });
    });

    test('after a rotation deliveries carry both signatures in both schemes, until 24 h later only the new one', async (t) => {
      const clock = new TestClock();
      const { server } = await startWebhookServer(t, { dialect, clock });
      const receiver = await startReceiver();
      t.after(() => receiver.close());
      const account = await server.createAccount();
      const webhook = await registerWebhook(server, account.writeKey, receiver.url());
      await receiver.waitForRequests(1);
      const oldSecret = webhook.secret;
      const rotated = await server.request('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, {
        key: account.writeKey,
      });
      assert.equal(rotated.status, 200);
      const newSecret: string = rotated.body.secret;
      assert.equal(Date.parse(rotated.body.previous_secret_expires_at), clock.now() + DAY);

      const during = await streamStarted(server, account.userId, receiver);
      const entries = signatureEntries(during);
      assert.equal(entries.length, 2);
      for (const entry of entries) assert.match(entry, ENTRY);
      const at = clock.now();
      assert.ok(verifiesAt(newSecret, during, at), 'a receiver that switched verifies');
      assert.ok(verifiesAt(oldSecret, during, at), 'a receiver that has not switched yet verifies');
      // The new secret's signature comes first, the previous one's second.
      const only = (entry: string | undefined) => ({
        ...during,
        headers: { ...during.headers, 'webhook-signature': entry },
      });
      assert.ok(verifiesAt(newSecret, only(entries[0]), at));
      assert.ok(!verifiesAt(oldSecret, only(entries[0]), at));
      assert.ok(verifiesAt(oldSecret, only(entries[1]), at));
      assert.ok(!verifiesAt(newSecret, only(entries[1]), at));
      assert.ok(serviceSignatureValid(newSecret, during));
      assert.ok(serviceSignatureValid(oldSecret, during, 'x-service-signature-previous'));
      assert.ok(!serviceSignatureValid(oldSecret, during));

      clock.advance(DAY - 1);
      const lastMoment = await streamStarted(server, account.userId, receiver);
      assert.equal(signatureEntries(lastMoment).length, 2, 'a millisecond before expiry: both');
      assert.ok(verifiesAt(oldSecret, lastMoment, clock.now()));
      assert.ok(serviceSignatureValid(oldSecret, lastMoment, 'x-service-signature-previous'));

      clock.advance(1);
      const after = await streamStarted(server, account.userId, receiver);
      assert.equal(signatureEntries(after).length, 1, 'expired: the new one only');
      assert.ok(verifiesAt(newSecret, after, clock.now()));
      assert.ok(!verifiesAt(oldSecret, after, clock.now()));
      assert.ok(serviceSignatureValid(newSecret, after));
      assert.equal(after.headers['x-service-signature-previous'], undefined);
    });
  });
}
