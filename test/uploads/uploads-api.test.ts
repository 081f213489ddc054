// Uploads over HTTP against the real server: the API (create, read, list, cancel), the tus
// endpoint its URL names (offsets, resumption, creation, termination, forged and expired URLs),
// and every limit refusing before a byte is accepted.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { UsageError } from '../../src/cli/args.ts';
import { usersSetQuota } from '../../src/cli/upload-commands.ts';
import { loadConfig } from '../../src/config.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { TestClock } from '../helpers/clock.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const HOUR = 3_600_000;

/** The upload URL with this test server's origin (the services were built for another host). */
function local(server: TestServer, uploadUrl: string): string {
  const url = new URL(uploadUrl);
  return `${server.origin}${url.pathname}`;
}

interface TusAnswer {
  status: number;
  headers: Headers;
  body: any;
}

async function tus(
  server: TestServer,
  method: string,
  uploadUrl: string,
  options: { offset?: number; body?: Uint8Array; headers?: Record<string, string> } = {},
): Promise<TusAnswer> {
  const headers: Record<string, string> = { 'Tus-Resumable': '1.0.0', ...options.headers };
  if (options.offset !== undefined) headers['Upload-Offset'] = String(options.offset);
  if (options.body !== undefined) headers['Content-Type'] = 'application/offset+octet-stream';
  const response = await fetch(local(server, uploadUrl), { method, headers, body: options.body ?? null });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // an empty success
  }
  return { status: response.status, headers: response.headers, body };
}

function bytes(count: number, seed = 1): Uint8Array {
  const out = new Uint8Array(count);
  for (let i = 0; i < count; i++) out[i] = (i * 31 + seed) & 0xff;
  return out;
}

function assertEnvelope(
  answer: { status: number; body: any },
  status: number,
  code: string,
  what: string,
): void {
  assert.equal(answer.status, status, `${what}: ${JSON.stringify(answer.body)}`);
  assert.equal(answer.body?.error?.code, code, what);
  assert.equal(typeof answer.body.error.message, 'string', what);
}

for (const dialect of DIALECTS) {
  describe(`uploads on ${dialect}`, () => {
    test('an upload is created with a tus URL, takes its bytes in pieces and moves to processing once', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      const file = bytes(300_000);
      const created = await server.request('POST', '/v1/uploads', {
        key: account.writeKey,
        body: { size: file.length, title: '  My film  ', tags: ['a', 'a', 'b'], category: 'music' },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const upload = created.body;
      assert.match(upload.id, /^upl_[0-9A-Za-z]{22}$/);
      assert.equal(upload.status, 'waiting');
      assert.equal(upload.video_id, null);
      assert.equal(upload.progress, 0);
      assert.equal(upload.bytes_received, 0);
      assert.equal(upload.size, file.length);
      assert.equal(upload.error, null);
      assert.equal(upload.title, 'My film');
      assert.equal(upload.creator_id, account.userId);
      assert.match(upload.upload_url, new RegExp(`/uploads/${upload.id}\\.[A-Za-z0-9_-]{32}$`));
      assert.ok(Date.parse(upload.expires_at) > Date.now() + 23 * HOUR, 'a day to send the bytes');

      // HEAD gives the offset; no API key is sent, the URL is the credential.
      const head = await tus(server, 'HEAD', upload.upload_url);
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('upload-offset'), '0');
      assert.equal(head.headers.get('upload-length'), String(file.length));
      assert.equal(head.headers.get('tus-resumable'), '1.0.0');
      assert.equal(head.headers.get('cache-control'), 'no-store');
      assert.equal(head.headers.get('access-control-allow-origin'), '*');

      const first = await tus(server, 'PATCH', upload.upload_url, {
        offset: 0,
        body: file.subarray(0, 100_000),
      });
      assert.equal(first.status, 204, JSON.stringify(first.body));
      assert.equal(first.headers.get('upload-offset'), '100000');
      assert.ok(first.headers.get('upload-expires'), 'the expiry is announced');
      const midway = await server.request('GET', `/v1/uploads/${upload.id}`, { key: account.readKey });
      assert.equal(midway.body.status, 'uploading');
      assert.equal(midway.body.bytes_received, 100_000);
      assert.equal(midway.body.progress, 33);

      // A PATCH at the wrong offset changes nothing and says how to resume.
      const wrong = await tus(server, 'PATCH', upload.upload_url, { offset: 5, body: file.subarray(5, 10) });
      assertEnvelope(wrong, 409, 'upload_offset_mismatch', 'wrong offset');
      assert.equal((await tus(server, 'HEAD', upload.upload_url)).headers.get('upload-offset'), '100000');

      // More than the declared size is refused.
      const tooMuch = await tus(server, 'PATCH', upload.upload_url, {
        offset: 100_000,
        body: bytes(file.length - 100_000 + 10),
      });
      assertEnvelope(tooMuch, 413, 'upload_size_mismatch', 'beyond the size');

      const rest = await tus(server, 'PATCH', upload.upload_url, {
        offset: Number((await tus(server, 'HEAD', upload.upload_url)).headers.get('upload-offset')),
        body: file.subarray(100_000),
      });
      assert.equal(rest.status, 204, JSON.stringify(rest.body));
      assert.equal(rest.headers.get('upload-offset'), String(file.length));

      const done = await server.request('GET', `/v1/uploads/${upload.id}`, { key: account.readKey });
      assert.equal(done.body.status, 'processing');
      assert.equal(done.body.upload_url, null, 'no more bytes are taken');
      assert.equal(done.body.bytes_received, file.length);
      // The original on disk is the file sent, byte for byte.
      const stored = fs.readFileSync(path.join(server.dataDir, 'uploads', upload.id));
      assert.equal(sha256(stored), sha256(file));
      // One job, one processing event.
      const jobs = await server.services.database.db.selectFrom('media_jobs').selectAll().execute();
      assert.deepEqual(
        jobs.map((job) => [job.kind, job.subject_id, job.status]),
        [['upload.process', upload.id, 'pending']],
      );
      const events = await server.events('upload.processing');
      assert.equal(events.length, 1);
      assert.equal(events[0]?.data.id, upload.id);
      assert.equal(events[0]?.data.status, 'processing');
    });

    test('tus creation at the upload URL answers with the same URL, for the declared size only', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      const { body: upload } = await server.request('POST', '/v1/uploads', {
        key: account.writeKey,
        body: { size: 1000, title: 'Sized' },
      });
      const created = await tus(server, 'POST', upload.upload_url, { headers: { 'Upload-Length': '1000' } });
      assert.equal(created.status, 201);
      assert.equal(created.headers.get('location'), upload.upload_url);
      const other = await tus(server, 'POST', upload.upload_url, { headers: { 'Upload-Length': '1001' } });
      assertEnvelope(other, 413, 'upload_size_mismatch', 'another size');
      const none = await tus(server, 'POST', upload.upload_url);
      assertEnvelope(none, 413, 'upload_size_mismatch', 'no size');
      const options = await fetch(local(server, upload.upload_url), { method: 'OPTIONS' });
      assert.equal(options.status, 204);
      assert.match(options.headers.get('tus-extension') ?? '', /creation/);
    });

    test('a URL the service did not sign, or signed for another upload, is refused before any byte', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      const { body: one } = await server.request('POST', '/v1/uploads', {
        key: account.writeKey,
        body: { size: 100, title: 'One' },
      });
      const { body: two } = await server.request('POST', '/v1/uploads', {
        key: account.writeKey,
        body: { size: 100, title: 'Two' },
      });
      const signature = (url: string) => url.slice(url.lastIndexOf('.') + 1);
      const forged = [
        one.upload_url.replace(/\.[^.]+$/, `.${'A'.repeat(32)}`),
        one.upload_url.replace(signature(one.upload_url), signature(two.upload_url)),
        one.upload_url.replace(/\.[^.]+$/, ''),
        `${one.upload_url}x`,
      ];
      for (const url of forged) {
        for (const method of ['HEAD', 'PATCH', 'DELETE', 'POST']) {
          const answer = await tus(
            server,
            method,
            url,
            method === 'PATCH' ? { offset: 0, body: bytes(10) } : {},
          );
          assert.equal(answer.status, 404, `${method} ${url}`);
          if (method !== 'HEAD')
            assert.equal(answer.body.error.code, 'resource_not_found', `${method} ${url}`);
        }
      }
      assert.equal((await tus(server, 'HEAD', one.upload_url)).headers.get('upload-offset'), '0');
      const rows = await server.services.database.db.selectFrom('uploads').select('status').execute();
      assert.deepEqual(
        rows.map((row) => row.status),
        ['waiting', 'waiting'],
      );
    });

    test('limits refuse before any byte: size, quota (the operator can change it), uploads in flight', async (t) => {
      const server = await startTestServer(t, {
        dialect,
        uploads: { maxBytes: 5000, quotaBytes: 8000, maxInFlight: 3 },
      });
      const account = await server.createAccount();
      const create = (size: number, key = account.writeKey) =>
        server.request('POST', '/v1/uploads', { key, body: { size, title: 'Limit' } });

      const huge = await create(5001);
      assertEnvelope(huge, 400, 'parameter_invalid', 'over UPLOAD_MAX_BYTES');
      assert.equal(huge.body.error.param, 'size');
      assert.match(huge.body.error.message, /limited to/);
      for (const size of [0, -1, 1.5])
        assertEnvelope(await create(size), 400, 'parameter_invalid', `size ${size}`);

      assert.equal((await create(5000)).status, 201);
      const overQuota = await create(3001);
      assertEnvelope(overQuota, 409, 'storage_quota_exceeded', 'over the quota');
      assert.match(overQuota.body.error.message, /quota/);
      // The operator raises this account's quota (`tributary users set-quota`).
      const said: string[] = [];
      const runtime = {
        config: loadConfig({}),
        secretKey: server.secretKey,
        services: server.services,
        close: async () => undefined,
      };
      await usersSetQuota.run(runtime, [account.userId, '20000'], (line) => said.push(line));
      assert.deepEqual(said, [`${account.userId} uses 4.9 KiB of 19.5 KiB`]);
      await assert.rejects(
        usersSetQuota.run(runtime, [account.userId, 'lots'], () => undefined),
        UsageError,
      );
      await assert.rejects(
        usersSetQuota.run(runtime, ['usr_nobody', '5'], () => undefined),
        /No user/,
      );
      assert.equal((await create(3001)).status, 201);
      assert.equal((await create(100)).status, 201);
      const fourth = await create(100);
      assertEnvelope(fourth, 409, 'upload_limit_reached', 'three in flight');

      // Cancelling one frees its slot and its bytes.
      const { body: list } = await server.request('GET', '/v1/uploads', { key: account.readKey });
      const cancelled = await server.request('DELETE', `/v1/uploads/${list.data[0].id}`, {
        key: account.writeKey,
      });
      assert.equal(cancelled.status, 200);
      assert.equal(cancelled.body.status, 'cancelled');
      assert.equal((await create(100)).status, 201);

      // Another account has its own limits; nothing refused was stored.
      const other = await server.createAccount('Other');
      assert.equal((await create(5000, other.writeKey)).status, 201);
      const count = await server.services.database.db
        .selectFrom('uploads')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(count.n, 5);
      assert.deepEqual(
        fs.readdirSync(path.join(server.dataDir, 'uploads')).filter((name) => !name.endsWith('.json')).length,
        4,
        'a file for each upload still in flight',
      );
    });

    test('cancelled and expired uploads refuse bytes (410); the sweeper removes what expired', async (t) => {
      const clock = new TestClock();
      const server = await startTestServer(t, { dialect, clock, uploads: { expiryMs: HOUR } });
      const account = await server.createAccount();
      const create = async (title: string) =>
        (await server.request('POST', '/v1/uploads', { key: account.writeKey, body: { size: 1000, title } }))
          .body;

      // Cancelled by tus termination (DELETE on the URL, no key).
      const terminated = await create('Terminated');
      await tus(server, 'PATCH', terminated.upload_url, { offset: 0, body: bytes(10) });
      const termination = await tus(server, 'DELETE', terminated.upload_url);
      assert.equal(termination.status, 204);
      assertEnvelope(
        await tus(server, 'PATCH', terminated.upload_url, { offset: 10, body: bytes(10) }),
        410,
        'upload_cancelled',
        'after termination',
      );
      assert.equal(
        fs.existsSync(path.join(server.dataDir, 'uploads', terminated.id)),
        false,
        'bytes removed',
      );
      const shown = await server.request('GET', `/v1/uploads/${terminated.id}`, { key: account.readKey });
      assert.equal(shown.body.status, 'cancelled');
      assert.equal(shown.body.upload_url, null);
      assertEnvelope(
        await server.request('DELETE', `/v1/uploads/${terminated.id}`, { key: account.writeKey }),
        409,
        'state_conflict',
        'cancel twice',
      );

      // Expired: refused at once, then errored and removed by the sweeper.
      const stalled = await create('Stalled');
      await tus(server, 'PATCH', stalled.upload_url, { offset: 0, body: bytes(500) });
      clock.advance(HOUR + 1);
      // HEAD answers carry no body: the status says it.
      assert.equal((await tus(server, 'HEAD', stalled.upload_url)).status, 410, 'HEAD after expiry');
      assertEnvelope(
        await tus(server, 'PATCH', stalled.upload_url, { offset: 500, body: bytes(500) }),
        410,
        'upload_expired',
        'PATCH after expiry',
      );
      assert.equal(await server.services.uploads.expireStale(), 1);
      assert.equal(fs.existsSync(path.join(server.dataDir, 'uploads', stalled.id)), false, 'bytes removed');
      const expired = await server.request('GET', `/v1/uploads/${stalled.id}`, { key: account.readKey });
      assert.equal(expired.body.status, 'errored');
      assert.equal(expired.body.error.code, 'upload_expired');
      assert.deepEqual(
        (await server.events()).map((event) => event.type),
        ['upload.cancelled', 'upload.errored'],
      );
      assert.equal(await server.services.uploads.expireStale(), 0, 'swept once');
    });

    test('only the owner sees or cancels an upload; a read key cannot create or cancel', async (t) => {
      const server = await startTestServer(t, { dialect });
      const owner = await server.createAccount();
      const other = await server.createAccount('Other');
      const { body: upload } = await server.request('POST', '/v1/uploads', {
        key: owner.writeKey,
        body: { size: 10, title: 'Mine' },
      });
      assertEnvelope(
        await server.request('GET', `/v1/uploads/${upload.id}`, { key: other.readKey }),
        404,
        'resource_not_found',
        "another account's upload",
      );
      assertEnvelope(
        await server.request('DELETE', `/v1/uploads/${upload.id}`, { key: other.writeKey }),
        404,
        'resource_not_found',
        "cancelling another account's upload",
      );
      assert.deepEqual((await server.request('GET', '/v1/uploads', { key: other.readKey })).body.data, []);
      assertEnvelope(
        await server.request('POST', '/v1/uploads', { key: owner.readKey, body: { size: 10, title: 'x' } }),
        403,
        'insufficient_scope',
        'read key creating',
      );
      assertEnvelope(
        await server.request('DELETE', `/v1/uploads/${upload.id}`, { key: owner.readKey }),
        403,
        'insufficient_scope',
        'read key cancelling',
      );
      assertEnvelope(
        await server.request('POST', '/v1/uploads', {
          key: owner.writeKey,
          body: { size: 10, title: 'x', extra: 1 },
        }),
        400,
        'parameter_unknown',
        'unknown field',
      );
      assertEnvelope(
        await server.request('POST', '/v1/uploads', { key: owner.writeKey, body: { title: 'x' } }),
        400,
        'parameter_missing',
        'no size',
      );
      assertEnvelope(
        await server.request('POST', '/v1/uploads', {
          key: owner.writeKey,
          body: { size: 10, title: 'x', category: 'nope' },
        }),
        400,
        'parameter_invalid',
        'bad category',
      );
      // Tags follow a video's own rules (PATCH /v1/videos): 1 to 50 characters, at most 20.
      const tagged = await server.request('POST', '/v1/uploads', {
        key: owner.writeKey,
        body: { size: 10, title: 'Tagged', tags: ['t'.repeat(50)] },
      });
      assert.equal(tagged.status, 201);
      assertEnvelope(
        await server.request('POST', '/v1/uploads', {
          key: owner.writeKey,
          body: { size: 10, title: 'x', tags: ['t'.repeat(51)] },
        }),
        400,
        'parameter_invalid',
        'a tag of 51 characters',
      );
      const mine = await server.request('GET', `/v1/uploads/${upload.id}`, { key: owner.readKey });
      assert.equal(mine.body.status, 'waiting');
    });

    test('the list pages newest first without skipping or repeating', async (t) => {
      const clock = new TestClock();
      const server = await startTestServer(t, { dialect, clock });
      const account = await server.createAccount();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        clock.advance(1000);
        const { body } = await server.request('POST', '/v1/uploads', {
          key: account.writeKey,
          body: { size: 10, title: `Upload ${i}` },
        });
        ids.push(body.id);
      }
      const seen: string[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await server.request('GET', `/v1/uploads?limit=2${cursor ? `&cursor=${cursor}` : ''}`, {
          key: account.readKey,
        });
        assert.equal(page.status, 200);
        seen.push(...page.body.data.map((upload: { id: string }) => upload.id));
        if (!page.body.pagination.has_more) break;
        cursor = page.body.pagination.next_cursor;
      }
      assert.deepEqual(seen, ids.toReversed());
      const other = await server.createAccount('Other');
      assertEnvelope(
        await server.request('GET', `/v1/uploads?cursor=${cursor ?? ''}`, { key: other.readKey }),
        400,
        'invalid_cursor',
        "another account's cursor",
      );
    });
  });
}

function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
