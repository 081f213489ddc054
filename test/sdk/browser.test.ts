// The package in a browser: Debian's Chromium loads sdk/dist as ES modules, creates and lists
// streams through the real service (served from the page's own origin, since the API sends no
// CORS headers), and verifies a Standard Webhooks signature with the browser's Web Crypto.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../helpers/cli.ts';
import { launchBrowser } from '../helpers/media-browser.ts';
import { startTestServer } from '../helpers/server.ts';

const DIST = path.join(REPO_ROOT, 'sdk/dist');

/** Serves sdk/dist under /sdk/, an empty page at /, and passes /v1/ on to the API. */
async function startSite(t: Parameters<typeof startTestServer>[0], api: string): Promise<string> {
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/sdk/')) {
      const file = path.join(DIST, path.normalize(url.slice('/sdk/'.length)));
      if (!file.startsWith(DIST + path.sep) || !fs.existsSync(file)) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(fs.readFileSync(file));
      return;
    }
    if (!url.startsWith('/v1/')) {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>sdk</title>');
      return;
    }
    const upstream = http.request(
      `${api}${url}`,
      { method: req.method, headers: { ...req.headers, host: new URL(api).host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('in Chromium: create, paginate, a typed error, and verify with Web Crypto', async (t) => {
  const server = await startTestServer(t, { dialect: 'sqlite', rateLimitPerKey: 100_000 });
  const account = await server.createAccount();
  const site = await startSite(t, server.origin);

  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const body = JSON.stringify({
    id: 'evt_browser',
    type: 'ping',
    created_at: new Date().toISOString(),
    data: { webhook_id: 'wh_browser' },
  });
  const timestamp = Math.floor(Date.now() / 1000);
  const mac = createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
    .update(`evt_browser.${timestamp}.${body}`)
    .digest('base64');
  const headers = {
    'webhook-id': 'evt_browser',
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${mac}`,
  };

  const context = await launchBrowser(t);
  const page = await context.newPage();
  await page.goto(site);
  const result = await page.evaluate(
    async (input) => {
      // Runs in the page: the package's own JavaScript, as a bundler or a <script type=module> loads it.
      const sdk: any = await import(`${(globalThis as any).location.origin}/sdk/index.js`);
      const client = new sdk.Tributary({ apiKey: input.key, baseUrl: (globalThis as any).location.origin });
      const created = [];
      for (let i = 0; i < 3; i++) created.push((await client.streams.create({ title: `Browser ${i}` })).id);
      const listed = [];
      for await (const stream of client.streams.list({ limit: 2 })) listed.push(stream.id);
      const missing = await client.streams.get('str_missing').catch((e: any) => e);
      const event = await sdk.Tributary.webhooks.verify(input.body, new Headers(input.headers), input.secret);
      const tampered = await sdk.Tributary.webhooks
        .verify(input.body.replace('ping', 'pong'), input.headers, input.secret)
        .catch((e: any) => e.code);
      return {
        created,
        listed,
        notFound: missing instanceof sdk.NotFoundError,
        code: missing.code,
        requestId: missing.requestId,
        event,
        tampered,
      };
    },
    { key: account.writeKey, body, headers, secret },
  );
  // Every stream once, over two pages (creations in one millisecond tie on time, so ids order them).
  assert.deepEqual(result.listed.toSorted(), result.created.toSorted());
  assert.equal(result.notFound, true);
  assert.equal(result.code, 'resource_not_found');
  assert.match(result.requestId, /\S/);
  assert.deepEqual(result.event, JSON.parse(body));
  assert.equal(result.tampered, 'signature_mismatch');
});
