import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DIALECTS } from '../helpers/databases.ts';
import { startWebhookServer } from './harness.ts';

const FIELDS = ['created_at', 'events', 'id', 'status', 'url'];

for (const dialect of DIALECTS) {
  describe(`webhook registration on ${dialect}`, () => {
    test('POST creates an active webhook and shows its secret once; GET lists it without the secret', async (t) => {
      const { server } = await startWebhookServer(t, { dialect, worker: false });
      const account = await server.createAccount();
      const res = await server.request('POST', '/v1/webhooks', {
        key: account.writeKey,
        body: { url: 'https://127.0.0.1:9/hooks', events: ['stream.started', 'video.published'] },
      });
      assert.equal(res.status, 201);
      assert.deepEqual(Object.keys(res.body).sort(), [...FIELDS, 'secret'].sort());
      assert.match(res.body.id, /^wh_[0-9A-Za-z]{22}$/);
      assert.match(res.body.secret, /^whsec_[0-9A-Za-z]{32}$/);
      assert.equal(res.body.status, 'active');
      assert.deepEqual(res.body.events, ['stream.started', 'video.published']);
      assert.equal(res.body.url, 'https://127.0.0.1:9/hooks');

      const list = await server.request('GET', '/v1/webhooks', { key: account.readKey });
      assert.equal(list.status, 200);
      assert.deepEqual(Object.keys(list.body), ['data']);
      assert.equal(list.body.data.length, 1);
      assert.deepEqual(Object.keys(list.body.data[0]).sort(), FIELDS);
      assert.ok(!JSON.stringify(list.body).includes(res.body.secret));

      // Encrypted at rest: the stored column is not the secret and does not contain it.
      const stored = await server.services.database.db
        .selectFrom('webhooks')
        .select('secret_ciphertext')
        .executeTakeFirstOrThrow();
      assert.ok(!stored.secret_ciphertext.includes(res.body.secret.slice(6)));
      assert.equal(
        server.services.webhookSecrets.open(stored.secret_ciphertext, res.body.id),
        res.body.secret,
      );
    });

    test('registration records a ping event for that webhook alone', async (t) => {
      const { server } = await startWebhookServer(t, { dialect, worker: false });
      const account = await server.createAccount();
      const res = await server.request('POST', '/v1/webhooks', {
        key: account.writeKey,
        body: { url: 'https://127.0.0.1:9/a', events: ['video.published'] },
      });
      const events = await server.services.database.db
        .selectFrom('events')
        .select(['type', 'account_id', 'data'])
        .execute();
      assert.deepEqual(
        events.map((event) => ({ ...event })),
        [{ type: 'ping', account_id: account.userId, data: JSON.stringify({ webhook_id: res.body.id }) }],
      );
    });

    test('DELETE removes the webhook for good; a second DELETE and another account get 404', async (t) => {
      const { server } = await startWebhookServer(t, { dialect, worker: false });
      const owner = await server.createAccount('owner');
      const other = await server.createAccount('other');
      const created = await server.request('POST', '/v1/webhooks', {
        key: owner.writeKey,
        body: { url: 'https://127.0.0.1:9/x', events: ['*'] },
      });
      const foreign = await server.request('DELETE', `/v1/webhooks/${created.body.id}`, {
        key: other.writeKey,
      });
      assert.equal(foreign.status, 404);
      assert.equal(foreign.body.error.code, 'resource_not_found');
      const otherList = await server.request('GET', '/v1/webhooks', { key: other.readKey });
      assert.deepEqual(otherList.body, { data: [] });

      const readOnly = await server.request('DELETE', `/v1/webhooks/${created.body.id}`, {
        key: owner.readKey,
      });
      assert.equal(readOnly.status, 403);
      assert.equal(readOnly.body.error.code, 'insufficient_scope');

      const deleted = await server.request('DELETE', `/v1/webhooks/${created.body.id}`, {
        key: owner.writeKey,
      });
      assert.equal(deleted.status, 200);
      assert.deepEqual(deleted.body, { deleted: true, id: created.body.id });
      const again = await server.request('DELETE', `/v1/webhooks/${created.body.id}`, {
        key: owner.writeKey,
      });
      assert.equal(again.status, 404);
      const list = await server.request('GET', '/v1/webhooks', { key: owner.readKey });
      assert.deepEqual(list.body, { data: [] });
    });

    test('a read key cannot register; no key is 401', async (t) => {
      const { server } = await startWebhookServer(t, { dialect, worker: false });
      const account = await server.createAccount();
      const body = { url: 'https://127.0.0.1:9/x', events: ['*'] };
      const read = await server.request('POST', '/v1/webhooks', { key: account.readKey, body });
      assert.equal(read.status, 403);
      assert.equal(read.body.error.code, 'insufficient_scope');
      const anonymous = await server.request('GET', '/v1/webhooks');
      assert.equal(anonymous.status, 401);
    });

    const invalid: [string, unknown, string, string][] = [
      ['an http:// URL', { url: 'http://127.0.0.1:9/x', events: ['*'] }, 'parameter_invalid', 'url'],
      ['a malformed URL', { url: 'not a url', events: ['*'] }, 'parameter_invalid', 'url'],
      ['a URL with user info', { url: 'https://u:p@127.0.0.1/x', events: ['*'] }, 'parameter_invalid', 'url'],
      ['a URL with a fragment', { url: 'https://127.0.0.1/x#f', events: ['*'] }, 'parameter_invalid', 'url'],
      ['an ftp URL', { url: 'ftp://127.0.0.1/x', events: ['*'] }, 'parameter_invalid', 'url'],
      ['an empty event list', { url: 'https://127.0.0.1/x', events: [] }, 'parameter_invalid', 'events'],
      [
        'an unknown event',
        { url: 'https://127.0.0.1/x', events: ['stream.paused'] },
        'parameter_invalid',
        'events',
      ],
      [
        'a duplicated event',
        { url: 'https://127.0.0.1/x', events: ['stream.ended', 'stream.ended'] },
        'parameter_invalid',
        'events',
      ],
      [
        '* mixed with others',
        { url: 'https://127.0.0.1/x', events: ['*', 'stream.ended'] },
        'parameter_invalid',
        'events',
      ],
      [
        'events not an array',
        { url: 'https://127.0.0.1/x', events: 'stream.ended' },
        'parameter_invalid',
        'events',
      ],
      ['a missing url', { events: ['*'] }, 'parameter_missing', 'url'],
      ['a missing events', { url: 'https://127.0.0.1/x' }, 'parameter_missing', 'events'],
      [
        'an unknown field',
        { url: 'https://127.0.0.1/x', events: ['*'], secret: 'x' },
        'parameter_unknown',
        'secret',
      ],
    ];
    for (const [what, body, code, param] of invalid) {
      test(`${what} is 400 ${code} naming ${param}`, async (t) => {
        const { server } = await startWebhookServer(t, { dialect, worker: false });
        const account = await server.createAccount();
        const res = await server.request('POST', '/v1/webhooks', { key: account.writeKey, body });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.error.code, code);
        assert.equal(res.body.error.param, param);
        const list = await server.request('GET', '/v1/webhooks', { key: account.readKey });
        assert.equal(list.body.data.length, 0);
      });
    }

    test('without WEBHOOK_ALLOW_PRIVATE_TARGETS, loopback, private, link-local and metadata targets are refused', async (t) => {
      const { server } = await startWebhookServer(t, {
        dialect,
        worker: false,
        webhooks: { allowPrivateTargets: false },
      });
      const account = await server.createAccount();
      for (const url of [
        'https://127.0.0.1/x',
        'https://localhost:8443/x',
        'https://10.1.2.3/x',
        'https://192.168.0.10/x',
        'https://172.20.0.1/x',
        'https://169.254.169.254/latest/meta-data',
        'https://[::1]/x',
        'https://[fd00:ec2::254]/x',
        'https://[::ffff:127.0.0.1]/x',
        'https://0.0.0.0/x',
        'https://224.0.0.1/x',
      ]) {
        const res = await server.request('POST', '/v1/webhooks', {
          key: account.writeKey,
          body: { url, events: ['*'] },
        });
        assert.equal(res.status, 400, url);
        assert.equal(res.body.error.code, 'parameter_invalid', url);
        assert.equal(res.body.error.param, 'url', url);
      }
    });

    test('the same URL twice for one account is 409 webhook_url_taken, even when disabled; another account may use it', async (t) => {
      const { server } = await startWebhookServer(t, { dialect, worker: false });
      const first = await server.createAccount('first');
      const second = await server.createAccount('second');
      const body = { url: 'https://127.0.0.1:9/same', events: ['*'] };
      const created = await server.request('POST', '/v1/webhooks', { key: first.writeKey, body });
      assert.equal(created.status, 201);
      const duplicate = await server.request('POST', '/v1/webhooks', { key: first.writeKey, body });
      assert.equal(duplicate.status, 409);
      assert.equal(duplicate.body.error.code, 'webhook_url_taken');
      await server.services.database.db
        .updateTable('webhooks')
        .set({ status: 'disabled' })
        .where('id', '=', created.body.id)
        .execute();
      const whileDisabled = await server.request('POST', '/v1/webhooks', { key: first.writeKey, body });
      assert.equal(whileDisabled.status, 409);
      const elsewhere = await server.request('POST', '/v1/webhooks', { key: second.writeKey, body });
      assert.equal(elsewhere.status, 201);
    });

    test('the same URL registered by many requests at once is one 201 and 409s, never a 500', async (t) => {
      const { server } = await startWebhookServer(t, { dialect, worker: false });
      const account = await server.createAccount();
      const body = { url: 'https://127.0.0.1:9/raced', events: ['*'] };
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          server.request('POST', '/v1/webhooks', { key: account.writeKey, body }),
        ),
      );
      const statuses = answers.map((res) => res.status).sort();
      assert.deepEqual(statuses, [201, 409, 409, 409, 409, 409, 409, 409]);
      for (const res of answers.filter((answer) => answer.status === 409)) {
        assert.equal(res.body.error.code, 'webhook_url_taken');
      }
      const list = await server.request('GET', '/v1/webhooks', { key: account.readKey });
      assert.equal(list.body.data.length, 1);
    });

    test('the 21st webhook is 409 webhook_limit_reached; deleting one makes room', async (t) => {
      const { server } = await startWebhookServer(t, { dialect, worker: false });
      const account = await server.createAccount();
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) {
        const res = await server.request('POST', '/v1/webhooks', {
          key: account.writeKey,
          body: { url: `https://127.0.0.1:9/hook/${i}`, events: ['*'] },
        });
        assert.equal(res.status, 201);
        ids.push(res.body.id);
      }
      const over = await server.request('POST', '/v1/webhooks', {
        key: account.writeKey,
        body: { url: 'https://127.0.0.1:9/hook/20', events: ['*'] },
      });
      assert.equal(over.status, 409);
      assert.equal(over.body.error.code, 'webhook_limit_reached');
      await server.request('DELETE', `/v1/webhooks/${ids[0]}`, { key: account.writeKey });
      const room = await server.request('POST', '/v1/webhooks', {
        key: account.writeKey,
        body: { url: 'https://127.0.0.1:9/hook/20', events: ['*'] },
      });
      assert.equal(room.status, 201);
    });
  });
}
