// An image form too large for the server is refused while it arrives, and the browser must see
// that refusal: a socket closed with bytes still unread makes the kernel answer with a reset,
// which can overtake the 413 page and show "connection reset" instead. So the rest of the body
// is read and dropped, within a bound, and the connection stays usable; past the bound it goes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DRAIN_MAX_BYTES } from '../../src/http/body-drain.ts';
import { PROFILE_IMAGE_MAX_BYTES } from '../../src/profiles/profile.service.ts';
import { systemClock } from '../../src/shared/clock.ts';
import type { TestApp } from '../helpers/app.ts';
import { rawExchange, startTestServer, type RawExchange } from '../helpers/server.ts';
import { signUp, type WebAgent } from '../helpers/web.ts';

/**
 * A multipart avatar of `size` bytes, sent in one write, then a GET of /account on the same
 * connection: both answers come back when the connection survives the refusal.
 */
async function postThenGet(
  server: TestApp,
  user: WebAgent,
  size: number,
  extraHeaders: string[] = [],
): Promise<RawExchange> {
  const csrf = await user.csrf('/account');
  const host = new URL(server.origin).host;
  const boundary = 'oversizedboundary';
  const form = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${csrf}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    ),
    Buffer.alloc(size, 1),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const post = [
    'POST /account/avatar HTTP/1.1',
    `Host: ${host}`,
    `Origin: ${server.origin}`,
    `Cookie: ${user.cookie}`,
    `Content-Type: multipart/form-data; boundary=${boundary}`,
    `Content-Length: ${form.length}`,
    ...extraHeaders,
  ];
  const get = ['GET /account HTTP/1.1', `Host: ${host}`, `Cookie: ${user.cookie}`, 'Connection: close'];
  return rawExchange(
    server.port,
    Buffer.concat([
      Buffer.from(`${post.join('\r\n')}\r\n\r\n`),
      form,
      Buffer.from(`${get.join('\r\n')}\r\n\r\n`),
    ]),
    { waitMs: 20_000, untilResponses: 2 },
  );
}

describe('an image too large for the form', () => {
  test('gets the 413 page every time, on a connection that stays usable; far too large is cut off', async (t) => {
    const server = await startTestServer(t, { dialect: 'sqlite', clock: systemClock, rateLimitPerIp: 1000 });
    const user = await signUp(server.origin, {
      name: 'Ada',
      email: 'ada@example.com',
      password: 'oversized test password',
    });

    // Four times the limit: the server has refused long before the client is done sending.
    for (let attempt = 0; attempt < 5; attempt++) {
      const exchange = await postThenGet(server, user, 4 * PROFILE_IMAGE_MAX_BYTES);
      assert.deepEqual(
        exchange.responses.map((response) => response.status),
        [413, 200],
        `attempt ${attempt}: ${exchange.raw.subarray(0, 300).toString()}`,
      );
      const [refusal, page] = exchange.responses;
      // The account page, with the reason by the forms.
      assert.match(refusal?.body ?? '', /id="account-notice"[^]*larger than 5 MB/);
      assert.equal(refusal?.headers.connection, 'keep-alive', 'the refusal keeps the connection');
      assert.match(page?.body ?? '', /id="avatar-form"/);
    }

    // A script that asks for JSON gets the API's envelope, not the page.
    const scripted = await postThenGet(server, user, 2 * PROFILE_IMAGE_MAX_BYTES, [
      'Accept: application/json',
    ]);
    assert.deepEqual(
      scripted.responses.map((response) => response.status),
      [413, 200],
    );
    assert.match(scripted.responses[0]?.headers['content-type'] ?? '', /^application\/json/);
    const envelope = JSON.parse(scripted.responses[0]?.body ?? '') as { error: { code: string } };
    assert.equal(envelope.error.code, 'payload_too_large');

    // Past what is worth reading (the image's limit and DRAIN_MAX_BYTES more), the connection goes.
    const huge = await postThenGet(server, user, PROFILE_IMAGE_MAX_BYTES + DRAIN_MAX_BYTES + 8 * 1024 * 1024);
    assert.equal(huge.closed, true);
    assert.ok(huge.responses.length <= 1 && huge.responses.every((response) => response.status === 413));
    // The server is still there, and nothing was kept.
    assert.equal((await user.get('/account')).status, 200);
    const { id } = await server.services.database.db
      .selectFrom('users')
      .select('id')
      .executeTakeFirstOrThrow();
    assert.equal((await server.services.profiles.find(id))?.avatar.status, 'none');
  });

  test('a refused form still arriving at the request timeout gets its 413 and a close, nothing more', async (t) => {
    const server = await startTestServer(t, {
      dialect: 'sqlite',
      clock: systemClock,
      rateLimitPerIp: 1000,
      http: { requestTimeoutMs: 1500 },
    });
    const user = await signUp(server.origin, {
      name: 'Ada',
      email: 'ada@example.com',
      password: 'oversized test password',
    });
    const csrf = await user.csrf('/account');
    const boundary = 'slowboundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${csrf}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    );
    const declared = head.length + 2 * PROFILE_IMAGE_MAX_BYTES;
    const request = [
      'POST /account/avatar HTTP/1.1',
      `Host: ${new URL(server.origin).host}`,
      `Origin: ${server.origin}`,
      `Cookie: ${user.cookie}`,
      `Content-Type: multipart/form-data; boundary=${boundary}`,
      `Content-Length: ${declared}`,
    ];
    // Past the limit at once, then the rest far too slowly: the request timeout comes first.
    const exchange = await rawExchange(
      server.port,
      Buffer.concat([
        Buffer.from(`${request.join('\r\n')}\r\n\r\n`),
        head,
        Buffer.alloc(PROFILE_IMAGE_MAX_BYTES + 64 * 1024, 1),
      ]),
      {
        trickle: { pieces: Array.from({ length: 40 }, () => Buffer.alloc(1024, 1)), intervalMs: 100 },
        waitMs: 6000,
      },
    );
    assert.deepEqual(
      exchange.responses.map((response) => response.status),
      [413],
    );
    assert.equal(exchange.leftover, '', 'no second, unasked-for answer after the 413');
    assert.equal(exchange.closed, true);
  });
});
