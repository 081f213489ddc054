// Hostile input at the tus endpoint, over raw sockets: random methods, tus headers (offsets,
// lengths, versions, content types), bodies of every size, lying and chunked framing, bodies
// cut short, aimed at a real upload's URL and at forged ones. Whatever arrives, nothing is a 5xx
// or a stack trace, every refusal with a body is the envelope with its catalogued status, no
// connection is left hanging, nothing is logged as an error, and the upload stays consistent:
// the offset it reports is the bytes on disk, never past its size.
//
// Bounded in count and time. TUS_FUZZ_REQUESTS=20000 TUS_FUZZ_SECONDS=300 runs longer;
// TUS_FUZZ_SEED=<n> replays a run.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import pino from 'pino';
import { STATUS_BY_CODE } from '../../src/http/error-handler.ts';
import { prng } from '../helpers/prng.ts';
import { rawExchange, startTestServer, type RawResponse } from '../helpers/server.ts';

const REQUESTS = Number(process.env.TUS_FUZZ_REQUESTS ?? 800);
const SEED = Number(process.env.TUS_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** New requests stop being started after this long, whatever the count. */
const BUDGET_MS = Number(process.env.TUS_FUZZ_SECONDS ?? 25) * 1000;
const CONCURRENCY = 6;
const SIZE = 200_000;

// No DELETE: it would cancel the upload early and leave little to fuzz (tested in uploads-api).
const METHODS = ['HEAD', 'PATCH', 'PATCH', 'PATCH', 'POST', 'OPTIONS', 'GET', 'PUT', 'TRACE'];

function assertAnswer(response: RawResponse, where: string): void {
  assert.ok(response.status < 500, `${where}: ${response.status} ${response.body.slice(0, 300)}`);
  assert.equal(response.body.includes('    at '), false, `${where}: a stack trace`);
  if (response.status < 400 || response.body === '') return;
  const parsed = JSON.parse(response.body) as { error?: { code?: string; message?: string } };
  const code = parsed.error?.code as keyof typeof STATUS_BY_CODE;
  assert.ok(code in STATUS_BY_CODE, `${where}: code ${code} is not in the catalogue`);
  assert.equal(STATUS_BY_CODE[code], response.status, `${where}: ${code} answered with ${response.status}`);
  assert.equal(typeof parsed.error?.message, 'string', where);
}

test(`tus fuzzing (seed ${SEED}) never gets a 5xx, a non-envelope refusal, a hang or an inconsistent upload`, async (t) => {
  const errorsLogged: string[] = [];
  const server = await startTestServer(t, {
    dialect: 'sqlite',
    rateLimitPerKey: 10_000_000,
    rateLimitPerIp: 10_000_000,
    http: { requestTimeoutMs: 500, idleTimeoutMs: 800, keepAliveTimeoutMs: 500 },
    logger: pino({ level: 'error' }, { write: (line: string) => errorsLogged.push(line.slice(0, 2000)) }),
  });
  const account = await server.createAccount();
  const created = await server.request('POST', '/v1/uploads', {
    key: account.writeKey,
    body: { size: SIZE, title: 'Fuzzed' },
  });
  assert.equal(created.status, 201);
  const valid = new URL(created.body.upload_url as string).pathname;
  const paths = [
    valid,
    valid,
    valid,
    valid.replace(/\.[^.]+$/, '.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
    valid.slice(0, -1),
    `${valid}/extra`,
    `${valid}?x=1`,
    '/uploads/',
    '/uploads/upl_x',
    `/uploads/${'a'.repeat(300)}`,
    valid.replace('/uploads/', '/uploads/%2e%2e/'),
  ];

  const started = performance.now();
  let nextIndex = 0;
  const statuses = new Map<number, number>();
  const worker = async (): Promise<void> => {
    while (nextIndex < REQUESTS && performance.now() - started < BUDGET_MS) {
      const index = nextIndex++;
      const rng = prng((SEED ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);
      const method = rng.pick(METHODS);
      const target = rng.pick(paths);
      const headers: string[] = [`Host: 127.0.0.1`];
      if (rng.chance(0.85)) headers.push(`Tus-Resumable: ${rng.pick(['1.0.0', '1.0.0', '0.2.2', '', 'x'])}`);
      if (rng.chance(0.8)) {
        headers.push(
          `Upload-Offset: ${rng.pick(['0', '0', String(rng.int(SIZE + 10)), '-1', '1e3', 'abc', '99999999999999999999', ''])}`,
        );
      }
      if (rng.chance(0.7)) {
        headers.push(
          `Content-Type: ${rng.pick(['application/offset+octet-stream', 'application/offset+octet-stream', 'application/json', 'text/plain', ''])}`,
        );
      }
      if (rng.chance(0.2))
        headers.push(`Upload-Length: ${rng.pick([String(SIZE), '0', '-5', 'x', String(SIZE + 1)])}`);
      if (rng.chance(0.1)) headers.push('Upload-Defer-Length: 1');
      if (rng.chance(0.1))
        headers.push(`Upload-Metadata: ${rng.pick(['filename ZmlsZQ==', '!!!', 'a b c'])}`);
      if (rng.chance(0.1)) headers.push('Expect: 100-continue');
      const bodyLength = rng.pick([0, 0, 1, 100, 4096, rng.int(70_000)]);
      const body = Buffer.alloc(bodyLength, index & 0xff);
      let framing: Buffer;
      const mode = rng.int(4);
      if (mode === 0 && bodyLength > 0) {
        headers.push('Transfer-Encoding: chunked');
        framing = Buffer.concat([
          Buffer.from(`${bodyLength.toString(16)}\r\n`),
          body,
          Buffer.from('\r\n0\r\n\r\n'),
        ]);
      } else if (mode === 1 && bodyLength > 0) {
        // Declares more than it sends, then stops.
        headers.push(`Content-Length: ${bodyLength + 1000}`);
        framing = body;
      } else {
        headers.push(`Content-Length: ${bodyLength}`);
        framing = body;
      }
      const request = Buffer.concat([
        Buffer.from(`${method} ${target} HTTP/1.1\r\n${headers.join('\r\n')}\r\nConnection: close\r\n\r\n`),
        framing,
      ]);
      const where = `seed ${SEED} #${index}: ${method} ${target} [${headers.slice(1).join('; ')}] body ${bodyLength} mode ${mode}`;
      const exchange = await rawExchange(server.port, request, { head: method === 'HEAD', waitMs: 5000 });
      assert.ok(exchange.closed, `${where}: the connection was left hanging`);
      for (const response of exchange.responses) {
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        assertAnswer(response, where);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  t.diagnostic(
    `seed ${SEED}: ${nextIndex} requests, answers ${JSON.stringify(Object.fromEntries(statuses))}`,
  );
  assert.ok(nextIndex >= 100, 'enough requests ran');
  assert.deepEqual(errorsLogged, [], 'nothing a client sends is logged as an error');

  // The upload is consistent: what it reports is what is on disk, within its size.
  const head = await fetch(`${server.origin}${valid}`, {
    method: 'HEAD',
    headers: { 'Tus-Resumable': '1.0.0' },
  });
  const upload = await server.request('GET', `/v1/uploads/${created.body.id as string}`, {
    key: account.readKey,
  });
  if (upload.body.status === 'cancelled') {
    assert.equal(head.status, 410);
    assert.equal(fs.existsSync(path.join(server.dataDir, 'uploads', created.body.id as string)), false);
  } else {
    const offset = Number(head.headers.get('upload-offset'));
    const onDisk = fs.statSync(path.join(server.dataDir, 'uploads', created.body.id as string)).size;
    assert.equal(offset, onDisk);
    assert.ok(offset <= SIZE);
  }
  // And the server still serves.
  const health = await fetch(`${server.origin}/healthz`);
  assert.equal(health.status, 200);
});
