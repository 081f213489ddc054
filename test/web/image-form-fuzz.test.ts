// Hostile multipart forms at the account page's image upload, from a signed-in browser's
// session: random boundaries (declared or not, mismatched), truncated and oversized bodies,
// lying lengths, chunked framing, odd part headers, bytes that are almost an image. Whatever
// arrives, the answer is a redirect or a 4xx (never a 5xx), no connection hangs past the
// exchange's wait, and the account page is still served at the end. Bounded in count and time;
// IMAGE_FORM_FUZZ_REQUESTS=2000 runs longer, IMAGE_FORM_FUZZ_SEED=<n> replays a run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { systemClock } from '../../src/shared/clock.ts';
import { startTestApp } from '../helpers/app.ts';
import { prng, type Rng } from '../helpers/prng.ts';
import { rawExchange } from '../helpers/server.ts';
import { signUp } from '../helpers/web.ts';

const REQUESTS = Number(process.env.IMAGE_FORM_FUZZ_REQUESTS ?? 120);
const SEED = Number(process.env.IMAGE_FORM_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const BUDGET_MS = 60_000;
const PNG_HEAD = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

function bytes(rng: Rng, length: number): Buffer {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i++) out[i] = rng.int(256);
  return out;
}

function body(rng: Rng, csrf: string, boundary: string): Buffer {
  const parts: Buffer[] = [];
  const line = (text: string) => parts.push(Buffer.from(text));
  if (rng.chance(0.8))
    line(`--${boundary}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${csrf}\r\n`);
  const disposition = rng.pick([
    'form-data; name="image"; filename="a.png"',
    'form-data; name="image"',
    'form-data; name="image"; filename="../../etc/passwd"',
    `form-data; name="${'x'.repeat(rng.int(20_000))}"`,
    'attachment',
    '',
  ]);
  line(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n`);
  if (rng.chance(0.5))
    line(`Content-Type: ${rng.pick(['image/png', 'text/html', '', 'multipart/mixed'])}\r\n`);
  line('\r\n');
  const size = rng.pick([0, 1, 33, 2000, 70_000, 5 * 1024 * 1024 + rng.int(2_000_000)]);
  parts.push(rng.chance(0.5) ? Buffer.concat([PNG_HEAD, bytes(rng, size)]) : bytes(rng, size));
  if (rng.chance(0.8)) line(`\r\n--${boundary}--\r\n`);
  return Buffer.concat(parts);
}

test(`image form fuzzing (seed ${SEED}) never gets a 5xx or a hang`, async (t) => {
  const server = await startTestApp(t, { dialect: 'sqlite', clock: systemClock, rateLimitPerIp: 1_000_000 });
  const user = await signUp(server.origin, {
    name: 'Ada',
    email: 'ada@example.com',
    password: 'fuzz password 123',
  });
  const csrf = await user.csrf('/account');
  const host = new URL(server.origin).host;
  const statuses = new Map<number, number>();
  const started = performance.now();
  let sent = 0;
  for (let index = 0; index < REQUESTS && performance.now() - started < BUDGET_MS; index++) {
    const rng = prng(SEED + index);
    const boundary = rng.pick(['b', 'fuzzboundary', '-'.repeat(70), 'x'.repeat(300), '']);
    const declared = rng.pick([boundary, 'other', '']);
    const payload = body(rng, csrf, boundary);
    const framing = rng.int(4);
    // A script asking for JSON gets the API's envelope; a browser (or no preference) the page.
    const accept = rng.pick(['', 'text/html', 'application/json', '*/*']);
    const headers = [
      `POST /account/${rng.pick(['avatar', 'banner'])} HTTP/1.1`,
      `Host: ${host}`,
      `Origin: ${server.origin}`,
      `Cookie: ${user.cookie}`,
      `Content-Type: ${rng.pick(['multipart/form-data', 'multipart/form-data; boundary=', 'image/png'])}${declared ? `; boundary=${declared}` : ''}`,
      'Connection: close',
      ...(accept ? [`Accept: ${accept}`] : []),
    ];
    let wire: Buffer;
    if (framing === 0) {
      headers.push('Transfer-Encoding: chunked');
      wire = Buffer.concat([
        Buffer.from(`${headers.join('\r\n')}\r\n\r\n${payload.length.toString(16)}\r\n`),
        payload,
        Buffer.from('\r\n0\r\n\r\n'),
      ]);
    } else {
      // 1: the true length; 2: more than is sent (the body never ends); 3: less (the rest is a next request).
      const length =
        framing === 1 ? payload.length : framing === 2 ? payload.length + 1000 : rng.int(payload.length + 1);
      headers.push(`Content-Length: ${length}`);
      wire = Buffer.concat([Buffer.from(`${headers.join('\r\n')}\r\n\r\n`), payload]);
    }
    const exchange = await rawExchange(server.port, wire, { waitMs: framing === 2 ? 1000 : 15_000 });
    sent++;
    const where = `seed ${SEED} request #${index} (framing ${framing}, ${payload.length} bytes)`;
    for (const response of exchange.responses) {
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      assert.ok(response.status < 500, `${where}: ${response.status} ${response.body.slice(0, 300)}`);
      if (accept === 'application/json' && response.status >= 400) {
        assert.match(
          response.headers['content-type'] ?? '',
          /^application\/json/,
          `${where}: ${response.status} not JSON: ${response.body.slice(0, 200)}`,
        );
      }
    }
    // A body that never ends waits for the server's timeouts; anything else is answered and closed.
    if (framing !== 2) assert.ok(exchange.closed, `${where}: the connection was left open`);
  }
  t.diagnostic(
    `seed ${SEED}: ${sent} requests in ${Math.round(performance.now() - started)} ms: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`,
  );
  const account = await user.get('/account');
  assert.equal(account.status, 200, `seed ${SEED}: the account page is no longer served`);
});
