// An HTTP fuzzer against a real listening server: random methods, paths, percent-encodings,
// headers, framing and bodies, over raw sockets (what no client library would send) and over
// fetch (valid HTTP aimed at the real routes). Whatever arrives, the server never answers 500,
// every failed answer with a body is the error envelope with a catalogued code and its status,
// no connection is left hanging, and the server still serves a normal request at the end.
//
// Bounded in count and time. HTTP_FUZZ_REQUESTS=20000 runs longer; HTTP_FUZZ_SEED=<n> replays
// a run (the seed is in every failure message; each request's bytes depend only on the seed
// and its index, so the concurrency does not change them).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pino from 'pino';
import { STATUS_BY_CODE } from '../../src/http/error-handler.ts';
import { parseResponses, rawExchange, startTestServer, type RawResponse } from '../helpers/server.ts';
import { prng, type Rng } from '../helpers/prng.ts';

const REQUESTS = Number(process.env.HTTP_FUZZ_REQUESTS ?? 2000);
const SEED = Number(process.env.HTTP_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** New requests stop being started after this long, whatever the count. */
const BUDGET_MS = Number(process.env.HTTP_FUZZ_SECONDS ?? (REQUESTS > 2000 ? 600 : 20)) * 1000;
const CONCURRENCY = 12;
const REQUEST_TIMEOUT_MS = 400;
const BODY_LIMIT = 64 * 1024;

interface Target {
  method: string;
  template: string;
}

interface Fixtures {
  writeKey: string;
  readKey: string;
  streamId: string;
  targets: Target[];
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
const ODD_METHODS = [
  'TRACE',
  'PROPFIND',
  'MKCOL',
  'M-SEARCH',
  'QUERY',
  'PURGE',
  'BREW',
  'get',
  'G ET',
  'CONNECT',
  '',
  'POST\u0000',
  'X'.repeat(40),
];
const PATH_PIECES = [
  'streams',
  'videos',
  'webhooks',
  'v1',
  '',
  '.',
  '..',
  '%2e%2e',
  '%2F',
  '%00',
  '%',
  '%4',
  '%zz',
  '%41',
  '%C0%AF',
  '%E0%80%AF',
  '%ED%A0%80',
  '%FF%FE',
  '%F0%9F%8E%A5',
  '🎥',
  'é',
  'str_',
  'vid_',
  '%20',
  '+',
  ';a=b',
  '*',
  '~',
  '\\',
  'a'.repeat(200),
];
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json;charset=latin1',
  'application/json; charset="utf-8"; boundary=x',
  'application/merge-patch+json',
  'application/vnd.api+json',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----x',
  'application/octet-stream',
  ';;;',
  '',
  'application/json, text/plain',
  '*/*',
  'application/',
  'json',
];
const JUNK = [
  '{',
  '}',
  '[',
  ']',
  '"',
  ':',
  ',',
  '\\',
  'null',
  'true',
  '1e999',
  '-0',
  '\u0000',
  '🎥',
  '\ud800',
  ' ',
  '\n',
];

function pathSegment(rng: Rng): string {
  if (rng.chance(0.1)) return 'x'.repeat(rng.pick([500, 5000, 17_000]));
  return Array.from({ length: 1 + rng.int(3) }, () => rng.pick(PATH_PIECES)).join('');
}

function mutateId(rng: Rng, id: string): string {
  return rng.pick([
    id,
    id,
    id.slice(0, rng.int(id.length)),
    `${id}${pathSegment(rng)}`,
    encodeURIComponent(id).replace(/_/g, '%5F'),
    'str_00000000000000000000000',
    'vid_00000000000000000000000',
    'whk_00000000000000000000000',
    '%00',
    '%',
    '..',
    'x'.repeat(65),
    'x'.repeat(64),
    '🎥',
    '%F0%9F%8E%A5',
    '',
  ]);
}

function query(rng: Rng): string {
  if (rng.chance(0.5)) return '';
  const params = Array.from({ length: 1 + rng.int(4) }, () => {
    const name = rng.pick([
      'limit',
      'cursor',
      'status',
      'category',
      'creator_id',
      'x',
      'limit[]',
      '',
      '%zz',
      'a[b]',
    ]);
    const value = rng.pick([
      '1',
      '20',
      '100',
      '101',
      '0',
      '-1',
      '1.5',
      '1e3',
      'abc',
      'cur_x',
      'cur_' + 'a'.repeat(300),
      'live',
      'scheduled',
      'gaming',
      'Gaming',
      '%00',
      '%',
      '🎥',
      '',
      'a'.repeat(3000),
    ]);
    return rng.chance(0.1) ? name : `${name}=${value}`;
  });
  return `?${params.join(rng.pick(['&', '&', ';', '&&']))}`;
}

function path(rng: Rng, fixtures: Fixtures): { method: string; path: string } {
  if (rng.chance(0.65)) {
    const target = rng.pick(fixtures.targets);
    const filled = target.template.replace(/\{[^}]+\}/g, () => mutateId(rng, fixtures.streamId));
    const method = rng.chance(0.75) ? target.method : rng.pick(rng.chance(0.7) ? METHODS : ODD_METHODS);
    return { method, path: filled + query(rng) };
  }
  const segments = Array.from({ length: 1 + rng.int(4) }, () => pathSegment(rng));
  const prefix = rng.pick(['/v1/', '/', '//', '/v1//', '', 'http://localhost/v1/', '*']);
  return {
    method: rng.pick(rng.chance(0.7) ? METHODS : ODD_METHODS),
    path: prefix + segments.join('/') + query(rng),
  };
}

function jsonBody(rng: Rng): string {
  const title = rng.pick([
    't',
    '',
    '   ',
    'a'.repeat(120),
    ` ${'a'.repeat(120)} `,
    'a'.repeat(121),
    '🎥'.repeat(120),
    '\u0000',
    '\ud800',
  ]);
  const candidates: unknown[] = [
    { title },
    { title, description: rng.pick(['d', 'd'.repeat(2001), null, 7]) },
    {
      title,
      scheduled_at: rng.pick([
        '2099-01-01T00:00:00Z',
        '2000-01-01T00:00:00Z',
        '2099-02-30T10:00:00Z',
        'x',
        1,
      ]),
    },
    { title, category: rng.pick(['gaming', 'Gaming', 'nope', '', null]) },
    { title, privacy: rng.pick(['public', 'private', 'secret']), record: rng.pick([true, 'no', null]) },
    { title, status: 'live' },
    { url: rng.pick(['https://example.com/hook', 'http://example.com', 'https://127.0.0.1/x', 'nope', '']) },
    { url: 'https://example.com/h', events: rng.pick([['*'], [], ['stream.started'], ['nope'], 'x', [1]]) },
    { __proto__: { polluted: true } },
    null,
    1,
    'x',
    true,
    [],
    [{ title: 't' }],
    {},
  ];
  const value = rng.pick(candidates);
  if (rng.chance(0.1)) return '{"__proto__":{"polluted":true},"title":"t"}';
  if (rng.chance(0.05)) return '{"constructor":{"prototype":{"polluted":true}},"title":"t"}';
  return JSON.stringify(value);
}

function body(rng: Rng): string {
  switch (rng.int(8)) {
    case 0:
    case 1:
    case 2:
      return jsonBody(rng);
    case 3:
      return Array.from({ length: rng.int(30) }, () => rng.pick(JUNK)).join('');
    case 4: {
      const depth = rng.pick([10, 1000, 10_000, 30_000]);
      return rng.chance(0.5)
        ? '['.repeat(depth) + ']'.repeat(depth)
        : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    }
    case 5: {
      // Around the 64 KiB limit: just under, exactly, just over, well over.
      const size = rng.pick([BODY_LIMIT - 20, BODY_LIMIT, BODY_LIMIT + 1, BODY_LIMIT + 5000]);
      const prefix = '{"title":"t","description":"';
      return prefix + 'd'.repeat(Math.max(0, size - prefix.length - 2)) + '"}';
    }
    case 6:
      return rng.pick([
        '',
        'title=t',
        '<xml/>',
        '\u0000\u0001\u0002',
        'null',
        ' ',
        '{}{}',
        '{"title":"t"}\n{"x":1}',
      ]);
    default:
      return `{"title":"${rng.pick(JUNK)}${rng.pick(JUNK)}"}`;
  }
}

interface Generated {
  method: string;
  bytes: Buffer;
  /** Kept alive, with a GET /healthz after the body on the same connection. */
  keepAlive: boolean;
  /** The declared framing promises more than is sent: half-close, or wait for the timeout. */
  incomplete: boolean;
  /** Content-Length over 0, or Transfer-Encoding: a body follows the headers. */
  declaresBody: boolean;
  end: boolean;
  head: boolean;
  describe: string;
}

function chunked(payload: Buffer, rng: Rng): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  while (offset < payload.length) {
    const size = Math.min(payload.length - offset, 1 + rng.int(20_000));
    const extension = rng.chance(0.05) ? `;${'e'.repeat(rng.pick([10, 20_000]))}` : '';
    parts.push(
      Buffer.from(`${size.toString(16)}${extension}\r\n`),
      payload.subarray(offset, offset + size),
      Buffer.from('\r\n'),
    );
    offset += size;
  }
  parts.push(
    Buffer.from(
      rng.chance(0.9)
        ? '0\r\n\r\n'
        : rng.pick(['zz\r\n', '0\r\n', '-1\r\n\r\n', '0\r\nX-Trailer: 1\r\n\r\n']),
    ),
  );
  return Buffer.concat(parts);
}

function rawRequest(rng: Rng, fixtures: Fixtures): Generated {
  const { method, path: target } = path(rng, fixtures);
  const headers: [string, string][] = [];
  if (rng.chance(0.97))
    headers.push(['Host', rng.pick(['localhost', 'localhost', '127.0.0.1:1', '', 'a b', 'x'.repeat(300)])]);
  if (rng.chance(0.03)) headers.push(['Host', 'other']);
  const auth = rng.int(10);
  if (auth < 5) headers.push(['Authorization', `Bearer ${fixtures.writeKey}`]);
  else if (auth < 7) headers.push(['Authorization', `Bearer ${fixtures.readKey}`]);
  else if (auth === 7)
    headers.push([
      'Authorization',
      rng.pick(['Bearer', 'Bearer ', 'Basic eDp5', 'Bearer sk_nope', `bearer  ${fixtures.writeKey}  `]),
    ]);
  // The presence signal's viewer cookie: well-formed, forged, malformed, oversized.
  if (rng.chance(0.1)) {
    headers.push([
      'Cookie',
      rng.pick([
        'tributary_viewer=',
        'tributary_viewer',
        'tributary_viewer=abc.def',
        'tributary_viewer=player-one-aaaa.AAAAAAAAAAAAAAAAAAAAAA; other=1',
        '=;;=; tributary_viewer=%00.%ff',
        `tributary_viewer=${'x'.repeat(9000)}.y`,
      ]),
    ]);
  }
  const hasBody = rng.chance(0.6);
  let payload = hasBody ? Buffer.from(body(rng)) : Buffer.alloc(0);
  if (hasBody && rng.chance(0.02)) payload = Buffer.concat([payload, Buffer.from([0xc3, 0x28, 0xff, 0xfe])]);
  if (hasBody || rng.chance(0.1)) {
    const type = rng.pick(CONTENT_TYPES);
    if (type !== '' || rng.chance(0.5)) headers.push(['Content-Type', type]);
  }
  const framing = rng.int(20);
  let bytes: Buffer = payload;
  let incomplete = false;
  if (framing < 13) {
    if (payload.length > 0 || rng.chance(0.2)) headers.push(['Content-Length', String(payload.length)]);
  } else if (framing < 16) {
    headers.push([
      'Transfer-Encoding',
      rng.pick(['chunked', 'chunked', 'Chunked', 'gzip, chunked', 'chunked, identity']),
    ]);
    bytes = chunked(payload, rng);
  } else if (framing === 16) {
    // Declares more than it sends.
    headers.push(['Content-Length', String(payload.length + 1 + rng.int(100))]);
    incomplete = true;
  } else if (framing === 17) {
    // Declares less than it sends: the rest is read as the next request.
    headers.push(['Content-Length', String(rng.int(payload.length + 1))]);
  } else if (framing === 18) {
    headers.push([
      'Content-Length',
      rng.pick(['-1', 'abc', '1.5', '0x10', '99999999999999999999', '', ' 5']),
    ]);
  } else {
    headers.push(['Content-Length', String(payload.length)], ['Transfer-Encoding', 'chunked']);
  }
  if (rng.chance(0.05)) headers.push(['Content-Length', String(payload.length + 1)]);
  const extras = rng.int(12);
  if (extras === 0) headers.push(['X-Huge', 'h'.repeat(rng.pick([8000, 17_000, 70_000]))]);
  if (extras === 1) for (let i = 0; i < 300; i++) headers.push([`X-Many-${i}`, 'v']);
  if (extras === 2) headers.push(['Expect', '100-continue']);
  // The chat socket's path mostly asks to upgrade (without a valid handshake), as a client would.
  const chatSocket = /^\/watch\/[^/]+\/chat/.test(target) && rng.chance(0.7);
  if (extras === 3 || chatSocket) headers.push(['Upgrade', 'websocket'], ['Connection', 'Upgrade']);
  if (extras === 4) headers.push(['X-Forwarded-For', rng.pick(['1.2.3.4', 'junk', '::1, 10.0.0.1', ''])]);
  if (extras === 5) headers.push([rng.pick(['Bad Header', 'X-Nul\u0000', '', ':authority', 'X-Ü']), 'v']);
  if (extras === 6) headers.push(['X-Folded', 'a\r\n  folded']);
  if (extras === 7) headers.push(['Accept', rng.pick(['text/html', 'application/xml', '*/*', ''])]);
  // (Not after a HEAD: its answer has no body, so where the next one starts is ambiguous here.)
  const keepAlive = rng.chance(0.1) && !incomplete && method !== 'HEAD';
  if (!keepAlive) headers.push(['Connection', 'close']);
  const version = rng.chance(0.95)
    ? 'HTTP/1.1'
    : rng.pick(['HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 ', 'HTTP/1', 'FOO']);
  const requestLine = `${method} ${target} ${version}`;
  let text = `${requestLine}\r\n${headers.map(([name, value]) => `${name}: ${value}`).join('\r\n')}\r\n\r\n`;
  if (rng.chance(0.02)) text = text.replace(/\r\n/g, '\n');
  let all = Buffer.concat([Buffer.from(text, 'utf8'), bytes]);
  // Kept-alive connections carry a second, ordinary request: it must be answered normally.
  if (keepAlive)
    all = Buffer.concat([
      all,
      Buffer.from('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'),
    ]);
  return {
    method,
    bytes: all,
    keepAlive,
    incomplete,
    declaresBody: headers.some(
      ([name, value]) => name === 'Transfer-Encoding' || (name === 'Content-Length' && Number(value) > 0),
    ),
    end: incomplete && rng.chance(0.8),
    head: method === 'HEAD',
    describe: `${requestLine} [${headers.map(([n, v]) => `${n}: ${v.slice(0, 60)}`).join(' | ')}] body ${bytes.length} B: ${bytes.subarray(0, 120).toString('latin1')}`,
  };
}

/** Codes given before the body is read: the answer must close the connection. */
const REFUSED_BEFORE_THE_BODY = new Set([
  'malformed_request',
  'request_timeout',
  'headers_too_large',
  'authentication_required',
  'invalid_api_key',
  'insufficient_scope',
  'rate_limit_exceeded',
  'route_not_found',
  'payload_too_large',
  'invalid_content_type',
]);

function errorCode(response: RawResponse): string {
  try {
    return String((JSON.parse(response.body) as { error?: { code?: unknown } }).error?.code);
  } catch {
    return '';
  }
}

function assertAnswer(response: RawResponse, where: string): void {
  assert.ok(response.status < 500, `${where}: answered ${response.status} ${response.body.slice(0, 300)}`);
  if (response.status < 300 || response.body === '') return;
  // The web app's pages answer a browser's bad request with an HTML error page that names the
  // code and the status (src/web/layout.ts); the API, and a page asked for JSON, answer the envelope.
  if ((response.headers['content-type'] ?? '').startsWith('text/html')) {
    const code = /<code class="error-code">([a-z_]+)<\/code> \(HTTP (\d{3})\)/.exec(response.body);
    assert.ok(code, `${where}: an HTML error page without its code: ${response.body.slice(0, 300)}`);
    assert.ok(code[1] && code[1] in STATUS_BY_CODE, `${where}: code ${code[1]} is not in the catalogue`);
    assert.equal(Number(code[2]), response.status, `${where}: the page names another status`);
    assert.equal(response.body.includes('    at '), false, `${where}: a stack trace`);
    return;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    assert.fail(`${where}: ${response.status} body is not JSON: ${response.body.slice(0, 300)}`);
  }
  const error = (parsed as { error?: { code?: unknown; message?: unknown } }).error;
  assert.equal(typeof error?.code, 'string', `${where}: not the envelope: ${response.body.slice(0, 300)}`);
  assert.equal(typeof error?.message, 'string', `${where}: no message: ${response.body.slice(0, 300)}`);
  const code = error?.code as keyof typeof STATUS_BY_CODE;
  assert.ok(code in STATUS_BY_CODE, `${where}: code ${code} is not in the catalogue`);
  assert.equal(STATUS_BY_CODE[code], response.status, `${where}: ${code} answered with ${response.status}`);
  assert.equal(response.body.includes('    at '), false, `${where}: a stack trace`);
}

test(`HTTP fuzzing (seed ${SEED}) never gets a 500, a non-envelope error or a hang`, async (t) => {
  const errorsLogged: string[] = [];
  const server = await startTestServer(t, {
    dialect: 'sqlite',
    rateLimitPerKey: 10_000_000,
    rateLimitPerIp: 10_000_000,
    http: { requestTimeoutMs: REQUEST_TIMEOUT_MS, idleTimeoutMs: 2000, keepAliveTimeoutMs: 1000 },
    // Nothing a client sends is the server's fault: no error may be logged.
    logger: pino({ level: 'error' }, { write: (line: string) => errorsLogged.push(line.slice(0, 2000)) }),
  });
  const account = await server.createAccount();
  const stream = await server.request('POST', '/v1/streams', {
    key: account.writeKey,
    body: { title: 'fuzz' },
  });
  assert.equal(stream.status, 201);
  // Route templates from the OpenAPI document, so new routes are fuzzed without editing this.
  const document = server.app.swagger() as { paths: Record<string, Record<string, unknown>> };
  const targets: Target[] = [
    { method: 'GET', template: '/healthz' },
    { method: 'GET', template: '/readyz' },
    { method: 'GET', template: '/v1/openapi.json' },
    // Players' presence signal: public, outside the OpenAPI document, takes a query and a cookie.
    { method: 'POST', template: '/watch/{id}/presence' },
    // The chat socket: the one path an Upgrade reaches the app by (the fuzzer sends no valid
    // handshake, so every one is refused, and must be answered and closed like any request).
    { method: 'GET', template: '/watch/{id}/chat' },
  ];
  for (const [template, operations] of Object.entries(document.paths)) {
    for (const method of Object.keys(operations)) {
      if (METHODS.includes(method.toUpperCase())) targets.push({ method: method.toUpperCase(), template });
    }
  }
  assert.ok(targets.length > 6, 'the OpenAPI document lists the routes');
  const fixtures: Fixtures = {
    writeKey: account.writeKey,
    readKey: account.readKey,
    streamId: String(stream.body.id),
    targets,
  };

  const started = performance.now();
  let nextIndex = 0;
  let sent = 0;
  let answered = 0;
  const statuses = new Map<number, number>();
  const worker = async (): Promise<void> => {
    while (nextIndex < REQUESTS && performance.now() - started < BUDGET_MS) {
      const index = nextIndex++;
      const rng = prng((SEED ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);
      if (rng.chance(0.2)) {
        await viaFetch(rng, index);
        continue;
      }
      const request = rawRequest(rng, fixtures);
      const where = `seed ${SEED} request #${index}: ${request.describe}`;
      let exchange = await rawExchange(server.port, request.bytes, {
        end: request.end,
        head: request.head,
        waitMs: REQUEST_TIMEOUT_MS + 4000,
      });
      // A HEAD that did not parse is answered with a body, like any malformed request.
      if (request.head && exchange.leftover !== '') {
        exchange = { ...exchange, ...parseResponses(exchange.raw) };
      }
      sent++;
      assert.ok(exchange.closed, `${where}: the connection was left hanging`);
      for (const response of exchange.responses) {
        answered++;
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        assertAnswer(response, where);
      }
      assert.equal(exchange.leftover, '', `${where}: bytes that are not an HTTP response`);
      const answer = exchange.responses.find((response) => response.status >= 200);
      // Refused before its body was read: the body is read out (the connection kept) or the
      // connection closed; either way its bytes are never answered as a request of their own.
      if (request.declaresBody && answer && REFUSED_BEFORE_THE_BODY.has(errorCode(answer))) {
        // (A kept-alive request carries a GET /healthz after its body: its 200 may come next,
        // unless the body's framing was broken and the connection cut.)
        const finals = exchange.responses.filter((response) => response.status >= 200).map((r) => r.status);
        const expected = request.keepAlive
          ? [`${answer.status}`, `${answer.status},200`]
          : [`${answer.status}`];
        assert.ok(
          answer.headers.connection === 'close' || expected.includes(finals.join()),
          `${where}: a refused body was answered as a request (${finals.join(', ')})`,
        );
      }
    }
  };

  const viaFetch = async (rng: Rng, index: number): Promise<void> => {
    const { method, path: target } = path(rng, fixtures);
    const headers: Record<string, string> = {};
    if (rng.chance(0.8))
      headers.authorization = `Bearer ${rng.chance(0.7) ? fixtures.writeKey : fixtures.readKey}`;
    const payload = rng.chance(0.6) ? body(rng) : undefined;
    if (payload !== undefined) {
      headers['content-type'] = rng.chance(0.7)
        ? 'application/json'
        : rng.pick(CONTENT_TYPES) || 'text/plain';
    }
    const where = `seed ${SEED} fetch #${index}: ${method} ${target.slice(0, 200)} ${payload?.slice(0, 120) ?? ''}`;
    let response: Response;
    try {
      response = await fetch(`${server.origin}${target.startsWith('/') ? target : `/${target}`}`, {
        method,
        headers,
        ...(payload !== undefined && method !== 'GET' && method !== 'HEAD' ? { body: payload } : {}),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS + 4000),
      });
    } catch (error) {
      // fetch refuses to send some of these (odd methods, bad URLs): nothing reached the server.
      if (error instanceof TypeError) return;
      throw new Error(`${where}: ${String(error)}`, { cause: error });
    }
    sent++;
    answered++;
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    const contentType = response.headers.get('content-type');
    assertAnswer(
      {
        status: response.status,
        headers: contentType === null ? {} : { 'content-type': contentType },
        body: await response.text(),
      },
      where,
    );
  };

  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  t.diagnostic(
    `seed ${SEED}: ${sent} requests in ${Math.round(performance.now() - started)} ms, ${answered} answers: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`,
  );
  assert.ok(sent >= Math.min(REQUESTS, 200), `only ${sent} requests were sent in the time budget`);

  assert.deepEqual(errorsLogged.slice(0, 3), [], `seed ${SEED}: ${errorsLogged.length} errors logged`);

  // Still serving, and nothing was polluted.
  const list = await server.request('GET', '/v1/streams', { key: account.readKey });
  assert.equal(list.status, 200, `seed ${SEED}: the server no longer serves a normal request`);
  const created = await server.request('POST', '/v1/streams', {
    key: account.writeKey,
    body: { title: 'after' },
  });
  assert.equal(created.status, 201);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});
