// Every body field of POST /v1/streams, each way it can be wrong, and the order of checks:
// authentication, then scope (before the body is read), then validation.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DIALECTS } from '../helpers/databases.ts';
import { startTestServer } from '../helpers/server.ts';

const HOUR = 3_600_000;

for (const dialect of DIALECTS) {
  describe(`POST /v1/streams validation on ${dialect}`, () => {
    test('each invalid field is a 400 naming the field, and nothing is created', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      const future = new Date(server.clock.now() + HOUR).toISOString();
      const past = new Date(server.clock.now() - 1000).toISOString();
      const cases: [string, unknown, string, string | undefined][] = [
        ['missing title', { description: 'x' }, 'parameter_missing', 'title'],
        ['empty title', { title: '' }, 'parameter_invalid', 'title'],
        ['blank title', { title: '   \t ' }, 'parameter_invalid', 'title'],
        ['title of 121 characters', { title: 'a'.repeat(121) }, 'parameter_invalid', 'title'],
        ['title of 121 emoji', { title: '🎥'.repeat(121) }, 'parameter_invalid', 'title'],
        ['numeric title', { title: 42 }, 'parameter_invalid', 'title'],
        ['null title', { title: null }, 'parameter_invalid', 'title'],
        [
          'description of 2001 characters',
          { title: 't', description: 'd'.repeat(2001) },
          'parameter_invalid',
          'description',
        ],
        ['scheduled_at in the past', { title: 't', scheduled_at: past }, 'parameter_invalid', 'scheduled_at'],
        [
          'scheduled_at now',
          { title: 't', scheduled_at: new Date(server.clock.now()).toISOString() },
          'parameter_invalid',
          'scheduled_at',
        ],
        [
          'scheduled_at without a time zone',
          { title: 't', scheduled_at: '2099-01-01T10:00:00' },
          'parameter_invalid',
          'scheduled_at',
        ],
        [
          'scheduled_at as a date only',
          { title: 't', scheduled_at: '2099-01-01' },
          'parameter_invalid',
          'scheduled_at',
        ],
        [
          'impossible scheduled_at',
          { title: 't', scheduled_at: '2099-02-30T10:00:00Z' },
          'parameter_invalid',
          'scheduled_at',
        ],
        [
          'numeric scheduled_at',
          { title: 't', scheduled_at: 4102444800 },
          'parameter_invalid',
          'scheduled_at',
        ],
        ['unknown category', { title: 't', category: 'cooking-shows' }, 'parameter_invalid', 'category'],
        ['malformed category', { title: 't', category: 'Gaming' }, 'parameter_invalid', 'category'],
        ['bad privacy', { title: 't', privacy: 'secret' }, 'parameter_invalid', 'privacy'],
        ['non-boolean record', { title: 't', record: 'no' }, 'parameter_invalid', 'record'],
        ['unknown field', { title: 't', status: 'live' }, 'parameter_unknown', 'status'],
        ['an array body', [{ title: 't' }], 'parameter_invalid', undefined],
        ['a string body', 'title', 'parameter_invalid', undefined],
      ];
      for (const [name, body, code, param] of cases) {
        const res = await server.request('POST', '/v1/streams', { key: account.writeKey, body });
        assert.equal(res.status, 400, name);
        assert.equal(res.body.error.code, code, name);
        assert.equal(res.body.error.param, param, name);
        assert.equal(typeof res.body.error.message, 'string');
      }
      const ok = await server.request('POST', '/v1/streams', {
        key: account.writeKey,
        body: { title: '🎥'.repeat(120), description: 'd'.repeat(2000), scheduled_at: future },
      });
      assert.equal(ok.status, 201);
      const count = await server.services.database.db
        .selectFrom('streams')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 1);
    });

    test('scheduled_at with an offset is stored and returned in UTC with milliseconds', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      const res = await server.request('POST', '/v1/streams', {
        key: account.writeKey,
        body: { title: 't', scheduled_at: '2099-06-01T12:30:00+02:00' },
      });
      assert.equal(res.status, 201);
      assert.equal(res.body.scheduled_at, '2099-06-01T10:30:00.000Z');
    });

    test('malformed bodies: invalid JSON, wrong content type, empty body, oversize body', async (t) => {
      const server = await startTestServer(t, { dialect });
      const { writeKey } = await server.createAccount();
      const json = { 'content-type': 'application/json' };
      const cases: [string, { rawBody?: string; headers?: Record<string, string> }, number, string][] = [
        ['truncated JSON', { rawBody: '{"title": "a"', headers: json }, 400, 'invalid_json'],
        ['empty JSON body', { rawBody: '', headers: json }, 400, 'invalid_json'],
        [
          'prototype pollution',
          { rawBody: '{"title":"a","__proto__":{"x":1}}', headers: json },
          400,
          'invalid_json',
        ],
        [
          'text/plain',
          { rawBody: '{"title":"a"}', headers: { 'content-type': 'text/plain' } },
          400,
          'invalid_content_type',
        ],
        [
          'form encoded',
          { rawBody: 'title=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
          400,
          'invalid_content_type',
        ],
        ['no content type', { rawBody: '{"title":"a"}', headers: {} }, 400, 'invalid_content_type'],
        ['no body at all', {}, 400, 'parameter_missing'],
        ['JSON null', { rawBody: 'null', headers: json }, 400, 'parameter_invalid'],
        [
          '65 KiB body',
          { rawBody: JSON.stringify({ title: 'a', description: 'x'.repeat(65 * 1024) }), headers: json },
          413,
          'payload_too_large',
        ],
      ];
      for (const [name, options, status, code] of cases) {
        const res = await server.request('POST', '/v1/streams', { key: writeKey, ...options });
        assert.equal(res.status, status, name);
        assert.equal(res.body.error.code, code, name);
        assert.match(res.headers.get('content-type') ?? '', /^application\/json/, name);
      }
      const charset = await server.request('POST', '/v1/streams', {
        key: writeKey,
        rawBody: '{"title":"ok"}',
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      assert.equal(charset.status, 201);
    });

    test('authentication comes before validation, and scope before the body is read', async (t) => {
      const server = await startTestServer(t, { dialect });
      const { readKey } = await server.createAccount();
      const anonymous = await server.request('POST', '/v1/streams', {
        rawBody: '{bad',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.body.error.code, 'authentication_required');
      const wrongKey = await server.request('POST', '/v1/streams', { key: 'tk_nope', body: { title: 5 } });
      assert.equal(wrongKey.status, 401);
      assert.equal(wrongKey.body.error.code, 'invalid_api_key');
      for (const body of [{ title: 'fine' }, { title: 5 }]) {
        const res = await server.request('POST', '/v1/streams', { key: readKey, body });
        assert.equal(res.status, 403);
        assert.equal(res.body.error.code, 'insufficient_scope');
      }
      const oversize = await server.request('POST', '/v1/streams', {
        key: readKey,
        rawBody: 'x'.repeat(100 * 1024),
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(oversize.status, 403);
    });
  });
}
