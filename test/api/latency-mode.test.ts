// A stream's latency_mode: chosen at creation (`normal` unless given), shown on the stream in
// every read (detail and list; the watch page's info in test/media/latency.test.ts), described in the OpenAPI document, and a
// value outside the enum is the usual validation error.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DIALECTS } from '../helpers/databases.ts';
import { startTestServer } from '../helpers/server.ts';

for (const dialect of DIALECTS) {
  describe(`latency_mode on ${dialect}`, () => {
    test('round-trips through create, get and list', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      const low = await server.request('POST', '/v1/streams', {
        key: account.writeKey,
        body: { title: 'Speedrun', latency_mode: 'low' },
      });
      assert.equal(low.status, 201);
      assert.equal(low.body.latency_mode, 'low');
      const plain = await server.request('POST', '/v1/streams', {
        key: account.writeKey,
        body: { title: 'Podcast' },
      });
      assert.equal(plain.status, 201);
      assert.equal(plain.body.latency_mode, 'normal', 'normal unless asked');
      const normal = await server.request('POST', '/v1/streams', {
        key: account.writeKey,
        body: { title: 'Concert', latency_mode: 'normal' },
      });
      assert.equal(normal.body.latency_mode, 'normal');
      const realtime = await server.request('POST', '/v1/streams', {
        key: account.writeKey,
        body: { title: 'Auction', latency_mode: 'realtime' },
      });
      assert.equal(realtime.status, 201);
      assert.equal(realtime.body.latency_mode, 'realtime');

      const read = await server.request('GET', `/v1/streams/${low.body.id}`, { key: account.readKey });
      assert.equal(read.body.latency_mode, 'low');
      const list = await server.request('GET', `/v1/streams?creator_id=${account.userId}`, {
        key: account.readKey,
      });
      const modes = Object.fromEntries(
        list.body.data.map((s: { id: string; latency_mode: string }) => [s.id, s.latency_mode]),
      );
      assert.deepEqual(modes, {
        [low.body.id]: 'low',
        [realtime.body.id]: 'realtime',
        [plain.body.id]: 'normal',
        [normal.body.id]: 'normal',
      });
    });

    test('a value outside normal, low and realtime is a 400 envelope naming the field; nothing is created', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      for (const value of ['ultra', 'LOW', '', 1, null, true]) {
        const res = await server.request('POST', '/v1/streams', {
          key: account.writeKey,
          body: { title: 'Bad', latency_mode: value },
        });
        assert.equal(res.status, 400, `latency_mode ${JSON.stringify(value)}`);
        assert.equal(res.body.error.code, 'parameter_invalid');
        assert.equal(res.body.error.param, 'latency_mode');
        assert.equal(typeof res.body.error.message, 'string');
      }
      const list = await server.request('GET', `/v1/streams?creator_id=${account.userId}`, {
        key: account.readKey,
      });
      assert.deepEqual(list.body.data, []);
    });

    test('the OpenAPI document lists the field on the stream objects and the create body', async (t) => {
      const server = await startTestServer(t, { dialect });
      const doc = (await server.request('GET', '/v1/openapi.json')).body;
      const body = doc.paths['/v1/streams'].post.requestBody.content['application/json'].schema;
      const resolve = (schema: { $ref?: string }) =>
        schema.$ref ? doc.components.schemas[schema.$ref.split('/').at(-1)!] : schema;
      assert.deepEqual(resolve(body).properties.latency_mode.enum, ['normal', 'low', 'realtime']);
      assert.equal(resolve(body).properties.latency_mode.default, 'normal');
      assert.ok(!resolve(body).required.includes('latency_mode'), 'optional on create');
      const created = resolve(
        doc.paths['/v1/streams'].post.responses['201'].content['application/json'].schema,
      );
      assert.deepEqual(created.properties.latency_mode.enum, ['normal', 'low', 'realtime']);
      assert.ok(created.required.includes('latency_mode'), 'always present on a stream');
      const page = resolve(doc.paths['/v1/streams'].get.responses['200'].content['application/json'].schema);
      const item = resolve(page.properties.data.items);
      assert.ok(item.required.includes('latency_mode'));
    });
  });
}
