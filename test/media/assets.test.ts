// /assets/:name serves the watch page's three files and nothing else: names that exist on
// every JavaScript object, and names that try to leave the folder, are a JSON 404.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startMediaServer } from '../helpers/media-server.ts';

test('asset names are looked up among the assets only; everything else is a JSON 404', async (t) => {
  const server = await startMediaServer(t, { dialect: 'sqlite' });
  for (const name of [
    '__proto__',
    'constructor',
    'hasOwnProperty',
    'toString',
    'valueOf',
    '__defineGetter__',
    '..%2fpackage.json',
    '..%2f..%2fpackage.json',
    'watch.js%00',
  ]) {
    const res = await fetch(`${server.origin}/assets/${name}`);
    assert.equal(res.status, 404, name);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/, name);
    const body = (await res.json()) as { error: { code: string } };
    // `..` is resolved by the router before any route sees it: no route at all, also a 404.
    assert.ok(['resource_not_found', 'route_not_found'].includes(body.error.code), name);
  }
  // `/assets/..` is `/` once the router has resolved it: the home page, not a file.
  const up = await fetch(`${server.origin}/assets/%2e%2e`);
  assert.equal(up.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.match(await up.text(), /<main id="main"/);
  for (const [name, type] of [
    ['watch.js', 'text/javascript; charset=utf-8'],
    ['hls.min.js', 'text/javascript; charset=utf-8'],
    ['watch.css', 'text/css; charset=utf-8'],
  ]) {
    const res = await fetch(`${server.origin}/assets/${name}`);
    assert.equal(res.status, 200, name);
    assert.equal(res.headers.get('content-type'), type, name);
    assert.ok((await res.text()).length > 0, name);
  }
});
