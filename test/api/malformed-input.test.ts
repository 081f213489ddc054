// No request, however malformed, produces a 500 or a stack trace. Random paths, query
// strings, headers and bodies from a seeded generator, so a failure can be replayed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestServer } from '../helpers/server.ts';

function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const junk = (length: number) =>
    Array.from({ length }, () =>
      pick(['a', '%', '%00', '%ff', '"', '{', '}', '[', ']', '\\', '0', '-', '😀', ' ', '&', '=', '/', '..']),
    ).join('');
  return { next, pick, junk };
}

test('random malformed requests never produce a 500', async (t) => {
  const server = await startTestServer(t, {
    dialect: 'sqlite',
    rateLimitPerKey: 1_000_000,
    rateLimitPerIp: 1_000_000,
  });
  const account = await server.createAccount();
  const { next, pick, junk } = generator(20261122);
  const paths = ['/v1/streams', '/v1/videos', '/v1/streams/', '/v1/videos/', '/v1/openapi.json', '/v1/', '/'];
  const methods = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
  const contentTypes = [
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/xml',
    'multipart/form-data; boundary=x',
    '',
  ];
  const bodies = [
    () => junk(Math.floor(next() * 40)),
    () => JSON.stringify({ title: junk(10), scheduled_at: junk(8), category: junk(5), privacy: junk(3) }),
    () => JSON.stringify({ title: 'x', [junk(4)]: junk(4) }),
    () => JSON.stringify([junk(3)]),
    () => JSON.stringify({ title: { nested: [1, 2, { deep: null }] } }),
    () => '1e999999',
    () => '{"title":"a","title":"b"}',
    () => JSON.stringify({ title: 'a', description: 7, scheduled_at: null, record: 'yes' }),
  ];
  for (let i = 0; i < 400; i++) {
    const method = pick(methods);
    const path = pick(paths) + (next() < 0.5 ? junk(Math.floor(next() * 12)) : '');
    const query =
      next() < 0.5
        ? `?${junk(Math.floor(next() * 20))}`
        : next() < 0.5
          ? `?limit=${junk(3)}&cursor=${junk(30)}`
          : '';
    const headers: Record<string, string> = {};
    const contentType = pick(contentTypes);
    if (contentType) headers['content-type'] = contentType;
    const keyChoice = next();
    const key = keyChoice < 0.6 ? account.writeKey : keyChoice < 0.8 ? account.readKey : undefined;
    const withBody = method !== 'GET' && method !== 'OPTIONS' && next() < 0.8;
    let url = path + query;
    try {
      new URL(url, 'http://x');
    } catch {
      url = path;
    }
    let res;
    try {
      res = await server.request(method, encodeURI(decodeSafe(url)), {
        key,
        headers,
        ...(withBody ? { rawBody: pick(bodies)() } : {}),
      });
    } catch (error) {
      assert.fail(`request ${i} ${method} ${url} failed at the transport: ${String(error)}`);
    }
    assert.ok(res.status < 500, `${method} ${url} -> ${res.status} ${JSON.stringify(res.body)}`);
    if (res.status >= 400) {
      assert.equal(typeof res.body?.error?.code, 'string', `${method} ${url}: ${JSON.stringify(res.body)}`);
      assert.equal(JSON.stringify(res.body).includes('    at '), false);
    }
  }
});

function decodeSafe(text: string): string {
  try {
    return decodeURI(text);
  } catch {
    return text.replace(/%/g, '');
  }
}
