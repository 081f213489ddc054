// What a hostile or broken HTTP client can make the server do: slow clients are cut off,
// connections are capped, a refused request's unread body is read out or its connection closed,
// malformed HTTP is answered in the error envelope, and bodies that are JSON but not objects
// or titles padded with spaces are judged as the spec says. Raw sockets, so the test can
// send what no HTTP client would.
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, test } from 'node:test';
import pino from 'pino';
import { DRAIN_MAX_BYTES } from '../../src/http/body-drain.ts';
import { STATUS_BY_CODE } from '../../src/http/error-handler.ts';
import { DIALECTS } from '../helpers/databases.ts';
import {
  rawExchange,
  startTestServer,
  type RawExchange,
  type RawResponse,
  type TestServer,
} from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';

/** The one response of an exchange, which must be in the error envelope with `code`. */
function assertEnvelope(exchange: RawExchange, status: number, code: string, what: string): void {
  assert.equal(exchange.responses.length, 1, `${what}: ${JSON.stringify(exchange)}`);
  const response = exchange.responses[0] as RawResponse;
  assert.equal(response.status, status, `${what}: ${JSON.stringify(response)}`);
  const body = JSON.parse(response.body) as { error: { code: string; message: string } };
  assert.equal(body.error.code, code, what);
  assert.equal(typeof body.error.message, 'string', what);
  assert.equal(STATUS_BY_CODE[code as keyof typeof STATUS_BY_CODE], status, `${what}: ${code} is catalogued`);
  assert.match(response.headers['content-type'] ?? '', /^application\/json/, what);
}

function head(method: string, path: string, headers: Record<string, string | number> = {}): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: localhost'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

/**
 * Sends `request` with its whole declared `body` and then a GET on the same connection: the
 * refusal, then the GET's 200, with the connection kept. The body is read out and dropped, not
 * answered as a request, and a client still sending it gets the refusal, not a reset.
 */
async function refusedThenNext(server: TestServer, request: string, body: string): Promise<RawExchange> {
  const exchange = await rawExchange(server.port, request + body + head('GET', '/healthz'), {
    untilResponses: 2,
    waitMs: 5000,
  });
  assert.deepEqual(
    exchange.responses.map((response) => response.status).slice(1),
    [200],
    `the next request is answered: ${JSON.stringify(exchange.responses.map((r) => r.status))}`,
  );
  assert.equal(exchange.responses[0]?.headers.connection, 'keep-alive');
  assert.equal(exchange.closed, false);
  return { ...exchange, responses: exchange.responses.slice(0, 1) };
}

describe('slow clients are cut off', () => {
  const REQUEST_TIMEOUT = 600;
  // How long a test waits for the server to close. Only a failing test waits this long, so it
  // is generous for a loaded machine; it is still far below every default timeout (30 s and
  // more), so a close before it comes from the short timeout the test configured. Timers never
  // fire early, so the lower bounds ("not before the timeout") hold however loaded the machine.
  const WAIT = 10_000;

  test('a body trickled a byte at a time gets a 408 in the envelope within the request timeout', async (t) => {
    const logged: { level: number; msg: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line)) });
    const server = await startTestServer(t, {
      dialect: 'sqlite',
      http: { requestTimeoutMs: REQUEST_TIMEOUT },
      logger,
    });
    const account = await server.createAccount();
    const body = JSON.stringify({ title: 'slow'.repeat(20) });
    const exchange = await rawExchange(
      server.port,
      head('POST', '/v1/streams', {
        Authorization: `Bearer ${account.writeKey}`,
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
      }),
      { trickle: { pieces: Array.from(body), intervalMs: 50 }, waitMs: WAIT },
    );
    assert.equal(exchange.closed, true, 'the connection is closed');
    assert.ok(
      exchange.elapsedMs >= REQUEST_TIMEOUT - 100,
      `not before the timeout: ${exchange.elapsedMs} ms`,
    );
    // Cut off, not merely slow: the whole body would have arrived and made a 201.
    assertEnvelope(exchange, 408, 'request_timeout', 'trickled body');
    assert.equal(exchange.responses[0]?.headers.connection, 'close');
    // Nothing was created from the half-received body.
    const list = await server.request('GET', '/v1/streams', { key: account.readKey });
    assert.equal(list.body.data.length, 0);
    // A client cut off is not a server fault: nothing is logged as an error.
    assert.deepEqual(
      logged.filter((line) => line.level >= 50),
      [],
    );
  });

  test('headers trickled a line at a time get a 408 within the request timeout', async (t) => {
    const server = await startTestServer(t, {
      dialect: 'sqlite',
      http: { requestTimeoutMs: REQUEST_TIMEOUT },
    });
    const exchange = await rawExchange(server.port, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n', {
      trickle: { pieces: Array.from({ length: 100 }, (_, i) => `X-Slow-${i}: a\r\n`), intervalMs: 50 },
      waitMs: WAIT,
    });
    assert.equal(exchange.closed, true);
    // Cut off, not merely slow: the headers never end, so only the timeout answers.
    assertEnvelope(exchange, 408, 'request_timeout', 'trickled headers');
  });

  test('a connection that sends nothing is closed after the idle timeout', async (t) => {
    const server = await startTestServer(t, { dialect: 'sqlite', http: { idleTimeoutMs: 400 } });
    const exchange = await rawExchange(server.port, '', { waitMs: WAIT });
    assert.equal(exchange.closed, true, `still open after ${WAIT} ms`);
    assert.ok(exchange.elapsedMs >= 350, `not before the timeout: ${exchange.elapsedMs} ms`);
  });

  test('a kept-alive connection is closed after the keep-alive timeout', async (t) => {
    const server = await startTestServer(t, { dialect: 'sqlite', http: { keepAliveTimeoutMs: 300 } });
    const exchange = await rawExchange(server.port, head('GET', '/healthz'), { waitMs: WAIT });
    assert.equal(exchange.responses[0]?.status, 200);
    assert.equal(exchange.closed, true, `still open after ${WAIT} ms`);
    assert.ok(exchange.elapsedMs >= 250, `not before the timeout: ${exchange.elapsedMs} ms`);
  });

  test('the longest request timeout the configuration allows is accepted', async (t) => {
    // Node refuses a headers timeout above its request timeout (5 minutes unless told).
    const server = await startTestServer(t, { dialect: 'sqlite', http: { requestTimeoutMs: 3_600_000 } });
    const health = await fetch(`${server.origin}/healthz`);
    assert.equal(health.status, 200);
  });

  test('connections beyond the cap are refused at accept, and served again once one closes', async (t) => {
    const server = await startTestServer(t, { dialect: 'sqlite', http: { maxConnections: 2 } });
    const held = [await connect(server.port), await connect(server.port)];
    t.after(() => {
      for (const socket of held) socket.destroy();
    });
    // Both held connections are served: the server has accepted them before the third comes.
    await Promise.all(
      held.map(
        (socket) =>
          new Promise((resolve) => {
            socket.once('data', resolve);
            socket.write(head('GET', '/healthz'));
          }),
      ),
    );
    const refused = await rawExchange(server.port, head('GET', '/healthz'), { waitMs: 2000 });
    assert.equal(refused.closed, true, 'the third connection is closed');
    assert.equal(refused.responses.length, 0, 'and not served');

    held[0]?.destroy();
    // The server notices the close asynchronously; a new connection is served once it has.
    await waitFor(
      async () => {
        const served = await rawExchange(server.port, head('GET', '/healthz', { Connection: 'close' }), {
          waitMs: 2000,
        });
        return served.responses[0]?.status === 200;
      },
      { what: 'a new connection to be served', timeoutMs: WAIT, intervalMs: 50 },
    );
  });
});

describe('a request refused before its body is read has its body read out, or its connection closed', () => {
  test('401, 403, 413, invalid_content_type, 404, 429 and bad URLs: the body is read out, the connection kept', async (t) => {
    const server = await startTestServer(t, { dialect: 'sqlite' });
    const account = await server.createAccount();
    const json = { 'Content-Type': 'application/json', 'Content-Length': 1000 };
    // A body whose bytes would be a request of their own if it were left on the connection.
    const body = (length: number) => head('DELETE', '/v1/streams/str_x').repeat(length).slice(0, length);
    const cases: [string, string, number, number, string][] = [
      ['no key', head('POST', '/v1/streams', json), 1000, 401, 'authentication_required'],
      [
        'unknown key',
        head('POST', '/v1/streams', { ...json, Authorization: 'Bearer sk_nope' }),
        1000,
        401,
        'invalid_api_key',
      ],
      [
        'read key on a write route',
        head('POST', '/v1/streams', { ...json, Authorization: `Bearer ${account.readKey}` }),
        1000,
        403,
        'insufficient_scope',
      ],
      [
        'body over 64 KiB',
        head('POST', '/v1/streams', {
          ...json,
          'Content-Length': 3_000_000,
          Authorization: `Bearer ${account.writeKey}`,
        }),
        3_000_000,
        413,
        'payload_too_large',
      ],
      [
        'text/plain body',
        head('POST', '/v1/streams', {
          ...json,
          'Content-Type': 'text/plain',
          Authorization: `Bearer ${account.writeKey}`,
        }),
        1000,
        400,
        'invalid_content_type',
      ],
      [
        'malformed percent-encoding in the path',
        head('DELETE', '/v1/webhooks/%zz', { ...json, Authorization: `Bearer ${account.writeKey}` }),
        1000,
        404,
        'route_not_found',
      ],
      [
        'a path parameter over the router limit',
        head('DELETE', `/v1/webhooks/${'x'.repeat(150)}`, {
          ...json,
          Authorization: `Bearer ${account.writeKey}`,
        }),
        1000,
        400,
        'parameter_invalid',
      ],
      [
        'unknown path',
        head('POST', '/v1/nowhere', { ...json, Authorization: `Bearer ${account.writeKey}` }),
        1000,
        404,
        'route_not_found',
      ],
    ];
    for (const [name, request, length, status, code] of cases) {
      assertEnvelope(await refusedThenNext(server, request, body(length)), status, code, name);
    }
    // Nothing in the bodies was run as a request.
    const list = await server.request('GET', '/v1/streams', { key: account.readKey });
    assert.equal(list.status, 200);

    // Use up a key's window, then be refused with a body pending.
    const limitedServer = await startTestServer(t, { dialect: 'sqlite', rateLimitPerKey: 2 });
    const limited = await limitedServer.createAccount();
    for (let i = 0; i < 2; i++) {
      const res = await limitedServer.request('GET', '/v1/streams', { key: limited.readKey });
      assert.equal(res.status, 200);
    }
    const exchange = await refusedThenNext(
      limitedServer,
      head('POST', '/v1/streams', { ...json, Authorization: `Bearer ${limited.readKey}` }),
      body(1000),
    );
    assertEnvelope(exchange, 429, 'rate_limit_exceeded', 'rate limited');
  });

  test('a body past the read-out bound, a client that says close or waits for 100 Continue: Connection: close and closed', async (t) => {
    const server = await startTestServer(t, { dialect: 'sqlite' });
    const cases: [string, Record<string, string | number>][] = [
      ['declared past 32 MiB', { 'Content-Length': DRAIN_MAX_BYTES + 1 }],
      ['Connection: close', { 'Content-Length': 1000, Connection: 'close' }],
      ['Expect: 100-continue', { 'Content-Length': 1000, Expect: '100-continue' }],
    ];
    for (const [name, headers] of cases) {
      const exchange = await rawExchange(
        server.port,
        head('POST', '/v1/streams', { 'Content-Type': 'application/json', ...headers }) + '{"title":',
        { waitMs: 3000 },
      );
      assertEnvelope(exchange, 401, 'authentication_required', name);
      assert.equal(exchange.responses[0]?.headers.connection, 'close', `${name}: Connection: close`);
      assert.equal(exchange.closed, true, `${name}: the server closes the connection`);
    }
  });

  test('a refused body that never ends is cut off at the request timeout', async (t) => {
    const server = await startTestServer(t, { dialect: 'sqlite', http: { requestTimeoutMs: 600 } });
    const account = await server.createAccount();
    // The route is found and authenticated, so the body deadline runs; the body is refused
    // (413 by its declared length) and read out until the deadline closes the connection.
    const exchange = await rawExchange(
      server.port,
      head('POST', '/v1/streams', {
        'Content-Type': 'application/json',
        'Content-Length': 100_000,
        Authorization: `Bearer ${account.writeKey}`,
      }) + '{"title":',
      { waitMs: 10_000 },
    );
    assertEnvelope(exchange, 413, 'payload_too_large', 'a body that stops');
    assert.equal(exchange.closed, true, 'closed once the body deadline passed');
    assert.ok(exchange.elapsedMs >= 600 - 50, `not before the deadline: ${exchange.elapsedMs} ms`);
  });

  test('a refused body whose chunked framing breaks ends the connection with no second answer', async (t) => {
    const server = await startTestServer(t, { dialect: 'sqlite' });
    const exchange = await rawExchange(
      server.port,
      head('POST', '/v1/streams', { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }) +
        '5\r\n{"ti"\r\nzz\r\n' +
        head('GET', '/healthz'),
      { waitMs: 3000 },
    );
    assertEnvelope(exchange, 401, 'authentication_required', 'then a bad chunk size');
    assert.equal(exchange.leftover, '', 'nothing after the one answer');
    assert.equal(exchange.closed, true);
  });

  test('an unread body that looks like a request gets one answer and is never run', async (t) => {
    const server = await startTestServer(t, { dialect: 'sqlite' });
    const account = await server.createAccount();
    const created = await server.request('POST', '/v1/streams', {
      key: account.writeKey,
      body: { title: 'kept' },
    });
    const smuggled = head('DELETE', `/v1/streams/${String(created.body.id)}`, {
      Authorization: `Bearer ${account.writeKey}`,
    });
    const exchange = await refusedThenNext(
      server,
      head('POST', '/v1/streams', { 'Content-Type': 'application/json', 'Content-Length': smuggled.length }),
      smuggled,
    );
    assertEnvelope(exchange, 401, 'authentication_required', 'anonymous POST');
    const still = await server.request('GET', `/v1/streams/${String(created.body.id)}`, {
      key: account.readKey,
    });
    assert.equal(still.status, 200, 'the smuggled DELETE was not run');
  });

  test('Expect: 100-continue gets the refusal, not 100 Continue, when the caller or the route is refused', async (t) => {
    const server = await startTestServer(t, { dialect: 'sqlite' });
    const account = await server.createAccount();
    const expecting = { 'Content-Type': 'application/json', 'Content-Length': 15, Expect: '100-continue' };
    const refused = await rawExchange(server.port, head('POST', '/v1/streams', expecting), { waitMs: 3000 });
    assertEnvelope(refused, 401, 'authentication_required', 'anonymous, expecting 100-continue');
    assert.equal(refused.closed, true);
    const nowhere = await rawExchange(
      server.port,
      head('POST', '/v1/nowhere', { ...expecting, Authorization: `Bearer ${account.writeKey}` }),
      { waitMs: 3000 },
    );
    assertEnvelope(nowhere, 404, 'route_not_found', 'unknown path, expecting 100-continue');
    // Told to go on, a body larger than the route takes is refused as it comes (413) and read
    // out; the connection carries the next request.
    const tooLarge = await rawExchange(
      server.port,
      head('POST', '/v1/streams', {
        ...expecting,
        'Content-Length': 70_000,
        Authorization: `Bearer ${account.writeKey}`,
      }),
      {
        trickle: { pieces: ['x'.repeat(70_000) + head('GET', '/healthz')], intervalMs: 200 },
        untilResponses: 3,
        waitMs: 5000,
      },
    );
    assert.deepEqual(
      tooLarge.responses.map((response) => response.status),
      [100, 413, 200],
    );
    assert.equal(tooLarge.closed, false);

    // An authenticated caller is told to go on, and its body is then read.
    const body = '{"title":"go"} ';
    const accepted = await rawExchange(
      server.port,
      head('POST', '/v1/streams', {
        ...expecting,
        Authorization: `Bearer ${account.writeKey}`,
        Connection: 'close',
      }),
      { trickle: { pieces: [body], intervalMs: 200 }, waitMs: 3000 },
    );
    assert.deepEqual(
      accepted.responses.map((response) => response.status),
      [100, 201],
    );
  });

  test('a request whose body was read keeps the connection open', async (t) => {
    const server = await startTestServer(t, { dialect: 'sqlite' });
    const account = await server.createAccount();
    const body = '{"title":42}';
    const request = head('POST', '/v1/streams', {
      'Content-Type': 'application/json',
      'Content-Length': body.length,
      Authorization: `Bearer ${account.writeKey}`,
    });
    // The second request is answered on the same connection: it was not closed after the 400.
    const exchange = await rawExchange(server.port, request + body + head('GET', '/healthz'), {
      untilResponses: 2,
      waitMs: 10_000,
    });
    assert.deepEqual(
      exchange.responses.map((r) => r.status),
      [400, 200],
    );
    assert.equal(exchange.responses[0]?.headers.connection, 'keep-alive');
    assert.equal(exchange.closed, false);
  });
});

describe('malformed HTTP is answered in the envelope', () => {
  test('framing errors get a 400 (431 for huge headers) in the envelope and a closed connection', async (t) => {
    const server = await startTestServer(t, { dialect: 'sqlite' });
    const account = await server.createAccount();
    const cases: [string, string, number, string][] = [
      ['garbage request line', 'GARBAGE\r\n\r\n', 400, 'malformed_request'],
      ['unknown HTTP version', 'GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n', 400, 'malformed_request'],
      [
        'space in a header name',
        'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: x\r\n\r\n',
        400,
        'malformed_request',
      ],
      [
        'Content-Length and Transfer-Encoding together',
        'POST /v1/streams HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        400,
        'malformed_request',
      ],
      [
        'two different Content-Lengths',
        'POST /v1/streams HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nContent-Length: 5\r\n\r\nnull',
        400,
        'malformed_request',
      ],
      [
        'a bad chunk size',
        // With a key: a request without one may be refused (401) before its body is parsed.
        `POST /v1/streams HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${account.writeKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
        400,
        'malformed_request',
      ],
      ['no Host header', 'GET /healthz HTTP/1.1\r\n\r\n', 400, 'malformed_request'],
      [
        'headers over 16 KiB',
        `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        431,
        'headers_too_large',
      ],
    ];
    for (const [name, request, status, code] of cases) {
      const exchange = await rawExchange(server.port, request, { waitMs: 3000 });
      assertEnvelope(exchange, status, code, name);
      assert.equal(exchange.responses[0]?.headers.connection, 'close', `${name}: Connection: close`);
      assert.equal(exchange.closed, true, `${name}: closed`);
    }
    const health = await fetch(`${server.origin}/healthz`);
    assert.equal(health.status, 200);
  });

  test('a GET with a body is refused, its body read out and dropped', async (t) => {
    const server = await startTestServer(t, { dialect: 'sqlite' });
    const account = await server.createAccount();
    const bodies: Record<string, string | number>[] = [
      { 'Content-Type': 'application/json', 'Content-Length': 2 },
      { 'Content-Length': 2 },
      { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
    ];
    for (const headers of bodies) {
      const chunked = 'Transfer-Encoding' in headers;
      const exchange = await refusedThenNext(
        server,
        head('GET', '/v1/streams', { ...headers, Authorization: `Bearer ${account.readKey}` }),
        chunked ? '2\r\n{}\r\n0\r\n\r\n' : '{}',
      );
      assertEnvelope(exchange, 400, 'parameter_unknown', `GET with ${JSON.stringify(headers)}`);
    }
    // Authentication still comes first.
    const anonymous = await refusedThenNext(
      server,
      head('GET', '/v1/streams', { 'Content-Length': 2 }),
      '{}',
    );
    assertEnvelope(anonymous, 401, 'authentication_required', 'anonymous GET with a body');
    // An empty body is no body.
    const empty = await rawExchange(
      server.port,
      head('GET', '/v1/streams', {
        'Content-Length': 0,
        Authorization: `Bearer ${account.readKey}`,
        Connection: 'close',
      }),
      { waitMs: 3000 },
    );
    assert.equal(empty.responses[0]?.status, 200);
  });
});

describe('path parameters', () => {
  // Found by test/api/http-fuzz.test.ts: the router's own limit (100 characters) was a 500.
  test('an id longer than the router allows is a 400 in the envelope, not a 500', async (t) => {
    const server = await startTestServer(t, { dialect: 'sqlite' });
    const account = await server.createAccount();
    for (const [method, path] of [
      ['GET', '/v1/streams/'],
      ['DELETE', '/v1/webhooks/'],
      ['GET', '/v1/videos/'],
    ] as const) {
      for (const length of [65, 101, 5000]) {
        const res = await server.request(method, path + 'x'.repeat(length), { key: account.writeKey });
        assert.equal(res.status, 400, `${method} ${path} + ${length}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.code, 'parameter_invalid');
      }
    }
  });
});

describe('JSON bodies that are not objects', () => {
  test('null, numbers, strings, booleans and arrays are parameter_invalid on every body route', async (t) => {
    const server = await startTestServer(t, { dialect: 'sqlite' });
    const account = await server.createAccount();
    for (const path of ['/v1/streams', '/v1/webhooks']) {
      for (const body of ['null', '1', '"x"', 'true', 'false', '[]', '[1]', '[{"title":"t"}]', ' null ']) {
        const res = await server.request('POST', path, {
          key: account.writeKey,
          rawBody: body,
          headers: { 'content-type': 'application/json' },
        });
        assert.equal(res.status, 400, `${path} ${body}`);
        assert.equal(
          res.body.error.code,
          'parameter_invalid',
          `${path} ${body}: ${JSON.stringify(res.body)}`,
        );
        assert.match(res.body.error.message, /must be a JSON object/, `${path} ${body}`);
      }
    }
    // No body at all is still parameter_missing.
    const none = await server.request('POST', '/v1/streams', { key: account.writeKey });
    assert.equal(none.status, 400);
    assert.equal(none.body.error.code, 'parameter_missing');
  });
});

for (const dialect of DIALECTS) {
  describe(`title length counts the trimmed title on ${dialect}`, () => {
    test('120 code points with surrounding spaces are accepted and stored trimmed; 121 are refused', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      for (const title of ['a'.repeat(120), '🎥'.repeat(120), `x${' '.repeat(118)}y`]) {
        const padded = `  \t${title} \n `;
        const created = await server.request('POST', '/v1/streams', {
          key: account.writeKey,
          body: { title: padded },
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        assert.equal(created.body.title, title);
        const fetched = await server.request('GET', `/v1/streams/${created.body.id}`, {
          key: account.readKey,
        });
        assert.equal(fetched.body.title, title, 'stored trimmed');
      }
      for (const title of [' '.repeat(3) + 'a'.repeat(121), '🎥'.repeat(121) + ' ']) {
        const refused = await server.request('POST', '/v1/streams', {
          key: account.writeKey,
          body: { title },
        });
        assert.equal(refused.status, 400);
        assert.equal(refused.body.error.code, 'parameter_invalid');
        assert.equal(refused.body.error.param, 'title');
        assert.match(refused.body.error.message, /at most 120 characters/);
      }
      // A title of only spaces trims to nothing.
      const blank = await server.request('POST', '/v1/streams', {
        key: account.writeKey,
        body: { title: ' \t ' },
      });
      assert.equal(blank.status, 400);
      assert.equal(blank.body.error.param, 'title');
    });
  });
}
