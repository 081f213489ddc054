// Who may call a route is decided by the route the router matched, never by how the request
// target is spelled: percent-encoded letters, mixed-case escapes, doubled slashes and
// absolute-form targets (`POST http://host/v1/...`) reach the same handlers as the plain
// path, so they must meet the same key and scope. Every route declares its access, and an
// app with a route that does not refuses to start.
//
// Access is decided before the database is touched, so this runs on SQLite only.
import assert from 'node:assert/strict';
import net from 'node:net';
import type { TestContext } from 'node:test';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { createServices, type Services } from '../../src/container.ts';
import { migrateToLatest, openDatabase } from '../../src/db/database.ts';
import { declaredAccess } from '../../src/http/access.ts';
import { MemoryRateLimitStore } from '../../src/http/rate-limit-store.ts';
import { mediaPlugin } from '../../src/media/media.plugin.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { createTestDatabase } from '../helpers/databases.ts';

type Plugin = (app: FastifyInstance) => Promise<void>;

interface Running {
  app: FastifyInstance;
  services: Services;
  port: number;
  origin: string;
}

interface Answer {
  status: number;
  body: any;
}

/** The application as `serve` wires it (media and watch routes included), on a real port. */
async function startApp(t: TestContext, plugins: Plugin[] = []): Promise<Running> {
  const database = await createTestDatabase('sqlite');
  const handle = openDatabase(database.url);
  t.after(async () => {
    await handle.close();
    await database.drop();
  });
  await migrateToLatest(handle.db);
  const services = createServices(
    // Private targets allowed: webhook URLs are then taken as given, without a DNS lookup.
    {
      publicUrl: 'http://media.test',
      dataDir: database.dataDir,
      ingest: { rtmpPort: 1935 },
      webhooks: { allowPrivateTargets: true },
    },
    handle,
    Buffer.alloc(32, 7),
    systemClock,
  );
  const app = await buildApp({
    services,
    rateLimits: new MemoryRateLimitStore(),
    rateLimitPerKey: 10_000,
    rateLimitPerIp: 10_000,
    plugins: [mediaPlugin({ services, dataDir: database.dataDir }), ...plugins],
  });
  t.after(() => app.close());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, services, port, origin: `http://127.0.0.1:${port}` };
}

async function accountOf(running: Running) {
  const user = await running.services.accounts.createUser('Creator');
  const write = await running.services.accounts.createKey(user.id, 'write');
  const read = await running.services.accounts.createKey(user.id, 'read');
  return { writeKey: write.key, readKey: read.key };
}

/** A request through fetch, for the plain spellings. */
async function call(
  running: Running,
  method: string,
  path: string,
  key?: string,
  body?: unknown,
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (key !== undefined) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${running.origin}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const answer: Answer = { status: response.status, body: parseJson(text) };
  return answer;
}

/**
 * A request written byte for byte on a socket: the request target goes on the wire exactly as
 * given (fetch would normalise it, and cannot send absolute-form at all).
 */
function raw(port: number, method: string, target: string, key?: string, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? '' : JSON.stringify(body);
  const head = [
    `${method} ${target} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    'Connection: close',
    ...(key === undefined ? [] : [`Authorization: Bearer ${key}`]),
    ...(body === undefined ? [] : ['Content-Type: application/json']),
    `Content-Length: ${Buffer.byteLength(payload)}`,
  ];
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(5000, () => socket.destroy(new Error(`no answer to ${method} ${target}`)));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const split = text.indexOf('\r\n\r\n');
      resolve({ status, body: parseJson(split < 0 ? '' : text.slice(split + 4)) });
    });
    socket.end(`${head.join('\r\n')}\r\n\r\n${payload}`);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

interface Route {
  method: string;
  path: string;
}

/**
 * Every route the router holds, read from its own tree (`│   ├── streams (GET, HEAD, POST)`
 * under `├── v1/`). The tree with common prefixes is read: the flattened one loses wildcards.
 */
function registeredRoutes(app: FastifyInstance): Route[] {
  const stack: string[] = [];
  const routes: Route[] = [];
  for (const line of app.printRoutes().split('\n')) {
    const marker = line.indexOf('── ');
    if (marker < 0) continue;
    const depth = Math.floor(marker / 4);
    const match = /^(\S+)(?: \(([^)]*)\))?/.exec(line.slice(marker + 3));
    if (!match) continue;
    const path = (stack[depth - 1] ?? '') + (match[1] ?? '');
    stack[depth] = path;
    for (const method of (match[2] ?? '').split(', ').filter((m) => m !== '')) {
      routes.push({ method, path });
    }
  }
  return routes;
}

/** Methods that change something; a route answering one of them must require the write scope. */
const isMutating = (method: string) => method !== 'GET' && method !== 'HEAD';

/** The public routes of the application: health checks, the API document, media and watch pages. */
const PUBLIC_ROUTES = [
  '/healthz',
  '/readyz',
  '/v1/openapi.json',
  '/media/streams/:id/*',
  '/media/videos/:id/*',
  '/watch/:id/info',
  // The watch page's chat socket (src/chat/): anyone may read; posting needs the session cookie.
  '/watch/:id/chat',
  '/assets/:name',
  '/favicon.ico',
  // The embeddable player and oEmbed (src/web/share/): for other sites, no session read.
  '/embed/:id',
  '/oembed',
  // Profile images (src/profiles/), named by version.
  '/profiles/:userId/:file',
];

/**
 * Routes whose URL is itself the credential: a tus upload's signed URL (src/uploads/). They
 * take no key, change only the upload they name, and refuse every URL they did not sign.
 */
// Their token is the credential: an upload URL, a go-live mail's one-click unsubscribe (RFC 8058).
const CAPABILITY_ROUTES = ['/uploads/:token', '/unsubscribe/:token'];

/**
 * WHIP ingest (src/whip/): the bearer token is a stream key, not an API key, checked by the
 * ingest's admission (test/whip/whip-refusals.test.ts); without one the offer is refused 401.
 */
const STREAM_KEY_ROUTES = ['/v1/whip', '/v1/whip/:session'];

/**
 * WHEP playback (src/realtime/): anyone who may open a watch page may play, with no key, as the
 * media routes; a session is ended by its unguessable id (test/realtime/whep-refusals.test.ts).
 */
const PLAYBACK_SIGNALLING_ROUTES = ['/v1/streams/:id/whep', '/v1/streams/:id/whep/:session_id'];

/** `%76` or `%6D`/`%6d`: a character as a percent-escape, its hex letters in the case asked for. */
function escape(char: string, upper: boolean): string {
  const hex = char.charCodeAt(0).toString(16).padStart(2, '0');
  return `%${upper ? hex.toUpperCase() : hex.toLowerCase()}`;
}

interface Spelling {
  name: string;
  target: string;
  /** The router is known to accept it (so only the access check stands in the way). */
  routed: boolean;
}

/** Other ways to write the request target `/v1/<rest>`, each of which the server might route. */
function spellingsOf(path: string, port: number): Spelling[] {
  const rest = path.slice('/v1/'.length);
  let flip = false;
  const everyCharEscaped = path
    .split('/')
    .map((segment) => segment.replace(/./g, (char) => escape(char, (flip = !flip))))
    .join('/');
  return [
    { name: 'encoded v of /v1', target: `/%761/${rest}`, routed: true },
    { name: 'encoded first letter', target: `/v1/${escape(rest[0]!, false)}${rest.slice(1)}`, routed: true },
    { name: 'every character, mixed-case escapes', target: everyCharEscaped, routed: true },
    { name: 'absolute-form', target: `http://127.0.0.1:${port}${path}`, routed: true },
    {
      name: 'absolute-form, other host, encoded',
      target: `HTTP://elsewhere.example/%761/${rest}`,
      routed: true,
    },
    { name: 'absolute-form https', target: `https://127.0.0.1${path}?`, routed: true },
    { name: 'leading double slash', target: `/${path}`, routed: false },
    { name: 'inner double slash', target: `/v1//${rest}`, routed: false },
  ];
}

describe('route access', () => {
  test('every registered route declares public, read or write access, and the server enforces it', async (t) => {
    const running = await startApp(t);
    const { readKey } = await accountOf(running);
    const declared = new Map(declaredAccess(running.app).map((r) => [`${r.method} ${r.url}`, r.access]));
    const routes = registeredRoutes(running.app);
    assert.ok(routes.length >= 20, `the walk found the routes (${routes.length})`);
    for (const route of [
      { method: 'POST', path: '/v1/streams' },
      { method: 'POST', path: '/v1/streams/:id/reset-stream-key' },
      { method: 'POST', path: '/v1/webhooks' },
      { method: 'DELETE', path: '/v1/webhooks/:id' },
      { method: 'GET', path: '/watch/:id' },
    ]) {
      assert.ok(
        routes.some((r) => r.method === route.method && r.path === route.path),
        `${route.method} ${route.path} is served`,
      );
    }

    for (const { method, path } of routes) {
      const name = `${method} ${path}`;
      const access = declared.get(name);
      // The web app's pages know their user from a session, not a key: test/web/csrf.test.ts
      // checks their state-changing routes. None is under /v1.
      if (access === 'page') {
        assert.ok(!path.startsWith('/v1'), `${name}: a page route outside the API`);
        continue;
      }
      assert.ok(access === 'public' || access === 'read' || access === 'write', `${name} declares access`);
      if (CAPABILITY_ROUTES.includes(path)) {
        assert.equal(access, 'public', name);
        const unsigned = await raw(running.port, method, path.replace(':token', 'upl_1.forged'));
        // OPTIONS is the CORS preflight: it says which methods exist, and touches nothing.
        assert.equal(unsigned.status, method === 'OPTIONS' ? 204 : 404, name);
        continue;
      }
      if (STREAM_KEY_ROUTES.includes(path)) {
        assert.equal(access, 'public', name);
        const anonymous = await raw(running.port, method, path.replace(':session', 'x_1'));
        const withReadKey = await raw(running.port, method, path.replace(':session', 'x_1'), readKey);
        // No stream key: 401 (POST), no such session (DELETE), no trickle ICE (PATCH).
        assert.equal(anonymous.status, { POST: 401, DELETE: 404, PATCH: 405 }[method], name);
        assert.ok(withReadKey.status >= 400, `${name}: an API key is not a stream key`);
        continue;
      }
      if (PLAYBACK_SIGNALLING_ROUTES.includes(path)) {
        assert.equal(access, 'public', name);
        const anonymous = await raw(
          running.port,
          method,
          path.replace(':id', 'str_1').replace(':session_id', 'x_1'),
        );
        // No key asked: an offer that is not SDP is 415 (checked first), an unknown session 404,
        // trickle ICE 405, the CORS preflight 204; never 401.
        assert.equal(anonymous.status, { POST: 415, DELETE: 404, PATCH: 405, OPTIONS: 204 }[method], name);
        continue;
      }
      if (isMutating(method)) assert.equal(access, 'write', `${name} changes something`);
      assert.equal(
        access === 'public',
        PUBLIC_ROUTES.includes(path),
        `${name} is public exactly when listed`,
      );

      // And the server does what the declaration says, reached by its plain path.
      const concrete = path.replace(/:\w+/g, 'x_1').replace('*', 'index.m3u8');
      const anonymous = await raw(running.port, method, concrete);
      if (access === 'public') {
        assert.notEqual(anonymous.status, 401, name);
      } else {
        assert.equal(anonymous.status, 401, name);
        // HEAD answers carry no body.
        if (method !== 'HEAD') assert.equal(anonymous.body.error.code, 'authentication_required', name);
      }
      const withReadKey = await raw(running.port, method, concrete, readKey);
      if (access === 'write') {
        assert.equal(withReadKey.status, 403, name);
        // GET /v1/ingest shows a publishing secret, so it needs the write scope; its HEAD has no body.
        if (method !== 'HEAD') assert.equal(withReadKey.body.error.code, 'insufficient_scope', name);
      } else {
        assert.ok(![401, 403].includes(withReadKey.status), `${name}: ${withReadKey.status}`);
      }
    }
  });

  test('no spelling of a write route lets a read key (or no key) through, and nothing changes', async (t) => {
    const running = await startApp(t);
    const { writeKey, readKey } = await accountOf(running);
    const stream = await call(running, 'POST', '/v1/streams', writeKey, { title: 'Mine' });
    assert.equal(stream.status, 201);
    const webhook = await call(running, 'POST', '/v1/webhooks', writeKey, {
      url: 'https://hooks.example/one',
      events: ['*'],
    });
    assert.equal(webhook.status, 201);
    const upload = await call(running, 'POST', '/v1/uploads', writeKey, { size: 1000, title: 'Mine' });
    assert.equal(upload.status, 201);
    const ids: Record<string, string> = {
      streams: stream.body.id,
      webhooks: webhook.body.id,
      uploads: upload.body.id,
    };
    const bodies: Record<string, unknown> = {
      'POST /v1/uploads': { size: 1000, title: 'Not yours to upload' },
      'POST /v1/streams': { title: 'Not yours to create' },
      'POST /v1/webhooks': { url: 'https://hooks.example/two', events: ['*'] },
      'PATCH /v1/webhooks/:id': { events: ['ping'] },
      'PATCH /v1/streams/:id': { title: 'Not yours to rename' },
      'PATCH /v1/videos/:id': { title: 'Not yours to rename' },
      'POST /v1/webhooks/:id/recover': { since: new Date(Date.now() - 60_000).toISOString() },
      'POST /v1/streams/:id/simulcast-targets': { url: 'rtmp://live.example/app', stream_key: 'not-yours' },
      'POST /v1/ingest/simulcast-targets': { url: 'rtmp://live.example/app', stream_key: 'not-yours' },
      'PATCH /v1/streams/:id/simulcast-targets/:target_id': { enabled: false },
      'PATCH /v1/ingest/simulcast-targets/:target_id': { enabled: false },
      'POST /v1/streams/:id/chat/messages': { text: 'Not yours to say' },
      'POST /v1/streams/:id/chat/timeouts': { user_id: 'usr_1', duration_seconds: 60 },
      'POST /v1/streams/:id/chat/bans': { user_id: 'usr_1' },
      'PATCH /v1/streams/:id/chat/settings': { slow_mode_seconds: 5 },
    };

    // Pages (outside /v1, access 'page') are checked by test/web/csrf.test.ts.
    const writeRoutes = registeredRoutes(running.app).filter(
      (r) =>
        isMutating(r.method) &&
        r.path.startsWith('/v1') &&
        !STREAM_KEY_ROUTES.includes(r.path) &&
        !PLAYBACK_SIGNALLING_ROUTES.includes(r.path),
    );
    assert.deepEqual(
      writeRoutes.map((r) => `${r.method} ${r.path}`).sort(),
      [
        'DELETE /v1/ingest/simulcast-targets/:target_id',
        'DELETE /v1/streams/:id',
        'DELETE /v1/streams/:id/chat/bans/:user_id',
        'DELETE /v1/streams/:id/chat/messages/:message_id',
        'DELETE /v1/streams/:id/simulcast-targets/:target_id',
        'DELETE /v1/uploads/:id',
        'DELETE /v1/videos/:id',
        'DELETE /v1/webhooks/:id',
        'PATCH /v1/ingest/simulcast-targets/:target_id',
        'PATCH /v1/streams/:id',
        'PATCH /v1/streams/:id/chat/settings',
        'PATCH /v1/streams/:id/simulcast-targets/:target_id',
        'PATCH /v1/videos/:id',
        'PATCH /v1/webhooks/:id',
        'POST /v1/ingest/reset-key',
        'POST /v1/ingest/simulcast-targets',
        'POST /v1/streams',
        'POST /v1/streams/:id/chat/bans',
        'POST /v1/streams/:id/chat/messages',
        'POST /v1/streams/:id/chat/timeouts',
        'POST /v1/streams/:id/end',
        'POST /v1/streams/:id/reset-stream-key',
        'POST /v1/streams/:id/simulcast-targets',
        'POST /v1/uploads',
        'POST /v1/webhooks',
        'POST /v1/webhooks/:id/deliveries/:event_id/resend',
        'POST /v1/webhooks/:id/enable',
        'POST /v1/webhooks/:id/recover',
        'POST /v1/webhooks/:id/rotate-secret',
        'POST /v1/webhooks/:id/test',
      ],
      'the write routes this test knows how to call (add a body or id for a new one)',
    );
    // Every spelling is tried before failing, so a failure lists all the ways through.
    const problems: string[] = [];
    for (const route of writeRoutes) {
      const path = route.path
        .replace(/:id/, () => ids[route.path.split('/')[2]!] ?? 'x_1')
        .replace(/:event_id/, 'evt_1')
        .replace(/:target_id/, 'sim_1')
        .replace(/:message_id/, 'chm_1')
        .replace(/:user_id/, 'usr_1');
      const body = bodies[`${route.method} ${route.path}`];
      for (const spelling of spellingsOf(path, running.port)) {
        const name = `${route.method} ${spelling.target} (${spelling.name})`;
        // Typed as always found, but null when the router has no match.
        const found: unknown = running.app.findRoute({ method: route.method, url: spelling.target });
        const routed = found !== null;
        if (routed !== spelling.routed)
          problems.push(`${name}: the router ${routed ? 'accepts' : 'refuses'} it`);

        const withReadKey = await raw(running.port, route.method, spelling.target, readKey, body);
        const expected = routed ? '403 insufficient_scope' : '404 route_not_found';
        const got = `${withReadKey.status} ${withReadKey.body?.error?.code ?? ''}`.trim();
        if (got !== expected) problems.push(`${name} with a read key: ${got}, not ${expected}`);

        const anonymous = await raw(running.port, route.method, spelling.target, undefined, body);
        const refused = `${anonymous.status} ${anonymous.body?.error?.code ?? ''}`.trim();
        const allowed = routed
          ? ['401 authentication_required']
          : ['401 authentication_required', '404 route_not_found'];
        if (!allowed.includes(refused)) problems.push(`${name} without a key: ${refused}`);
      }
    }
    assert.deepEqual(problems, []);

    // Nothing was created, reset, cancelled or deleted.
    const uploads = await call(running, 'GET', '/v1/uploads', writeKey);
    assert.deepEqual(
      uploads.body.data.map((u: { id: string; status: string }) => [u.id, u.status]),
      [[upload.body.id, 'waiting']],
    );
    const streams = await call(running, 'GET', '/v1/streams', writeKey);
    assert.deepEqual(
      streams.body.data.map((s: { id: string }) => s.id),
      [stream.body.id],
    );
    const mine = await call(running, 'GET', `/v1/streams/${stream.body.id}`, writeKey);
    assert.equal(mine.body.stream_key, stream.body.stream_key, 'the stream key was not reset');
    assert.equal(mine.body.title, 'Mine', 'the stream was not renamed (nor deleted)');
    const webhooks = await call(running, 'GET', '/v1/webhooks', writeKey);
    assert.deepEqual(
      webhooks.body.data.map((w: { id: string }) => w.id),
      [webhook.body.id],
    );
    const secrets = await running.services.database.db
      .selectFrom('webhooks')
      .select('previous_secret_ciphertext')
      .executeTakeFirstOrThrow();
    assert.equal(secrets.previous_secret_ciphertext, null, 'the webhook secret was not rotated');
    assert.deepEqual(webhooks.body.data[0].events, ['*'], 'the webhook was not changed');
    const recoveries = await running.services.database.db
      .selectFrom('webhook_recoveries')
      .select('id')
      .execute();
    const events = await running.services.database.db.selectFrom('events').select('type').execute();
    assert.deepEqual(recoveries, [], 'no recovery was started');
    const destinations = await running.services.database.db
      .selectFrom('simulcast_targets')
      .select('id')
      .execute();
    assert.deepEqual(destinations, [], 'no simulcast destination was added');
    assert.deepEqual(
      events.map((e) => e.type),
      ['ping'],
      'no test ping was sent (only the registration ping)',
    );

    // The same spelling with a write key does reach the handler: the refusals above were the
    // scope check, not a missed route.
    const created = await raw(running.port, 'POST', '/%761/%73treams', writeKey, { title: 'Encoded' });
    assert.equal(created.status, 201);
    const after = await call(running, 'GET', '/v1/streams', writeKey);
    assert.equal(after.body.data.length, 2);
  });

  test('unknown paths under /v1, however spelled, ask anonymous callers for a key; others are 404', async (t) => {
    const running = await startApp(t);
    const { readKey } = await accountOf(running);
    for (const target of [
      '/v1/nothing',
      '/%761/nothing',
      '/%76%31/nothing',
      '/v1',
      `http://127.0.0.1:${running.port}/v1/nothing`,
      'HTTP://elsewhere.example/%761/nothing?x=1',
    ]) {
      const anonymous = await raw(running.port, 'GET', target);
      assert.equal(anonymous.status, 401, target);
      assert.equal(anonymous.body.error.code, 'authentication_required', target);
      const keyed = await raw(running.port, 'GET', target, readKey);
      assert.equal(keyed.status, 404, target);
      assert.equal(keyed.body.error.code, 'route_not_found', target);
    }
    for (const target of ['/nowhere', '/v2/streams', `http://127.0.0.1:${running.port}/nowhere`, '/v1x']) {
      const anonymous = await raw(running.port, 'POST', target);
      assert.equal(anonymous.status, 404, target);
      assert.equal(anonymous.body.error.code, 'route_not_found', target);
    }
  });

  test('a route without rate limiting still needs its key and scope', async (t) => {
    const running = await startApp(t, [
      async (app) => {
        app.post('/v1/unlimited', { config: { access: 'write', rateLimit: false } }, () => ({ done: true }));
      },
    ]);
    const { writeKey, readKey } = await accountOf(running);
    assert.equal((await raw(running.port, 'POST', '/v1/unlimited')).status, 401);
    const read = await raw(running.port, 'POST', '/v1/unlimited', readKey);
    assert.equal(read.status, 403);
    assert.equal(read.body.error.code, 'insufficient_scope');
    assert.deepEqual((await raw(running.port, 'POST', '/v1/unlimited', writeKey)).body, { done: true });
  });

  test('an app with a route that does not declare its access fails at start-up, naming the route', async (t) => {
    const cases: [string, Plugin, RegExp][] = [
      [
        'no config',
        async (app) => {
          app.post('/v1/forgotten', () => ({}));
        },
        /POST \/v1\/forgotten/,
      ],
      [
        'only the old scope field',
        async (app) => {
          app.delete('/v1/legacy/:id', { config: { scope: 'write' } as never }, () => ({}));
        },
        /DELETE \/v1\/legacy\/:id/,
      ],
      [
        'an unknown access level',
        async (app) => {
          app.get('/v1/admin', { config: { access: 'admin' as never } }, () => ({}));
        },
        /GET \/v1\/admin/,
      ],
      [
        'inside a prefixed plugin',
        async (app) => {
          await app.register(
            async (child) => {
              child.put('/things/:id', { config: {} }, () => ({}));
            },
            { prefix: '/v1' },
          );
        },
        /PUT \/v1\/things\/:id/,
      ],
    ];
    for (const [name, plugin, route] of cases) {
      await assert.rejects(startApp(t, [plugin]), (error: Error) => {
        assert.match(error.message, route, name);
        assert.match(error.message, /access/, name);
        return true;
      });
    }
  });
});
