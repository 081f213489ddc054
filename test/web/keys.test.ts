// The API keys settings page: a key made there works against the API, is shown once, is
// listed by its last four with scope, created and last used, and revoked there stops working
// within a second (of the services' clock, which the test moves: a loaded machine makes
// requests slower, not the promise different). Nobody sees or revokes another account's keys.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../helpers/app.ts';
import { TestClock } from '../helpers/clock.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { newAgent, signUp } from '../helpers/web.ts';

const PASSWORD = 'keys page password';
const NEW_KEY = /id="new-key"[^>]*value="(tk_[0-9A-Za-z]{32})"/;

for (const dialect of DIALECTS) {
  test(`${dialect}: create a key on the page, use it, revoke it: refused within a second`, async (t) => {
    const clock = new TestClock();
    const server = await startTestApp(t, { dialect, clock });
    const ada = await signUp(server.origin, { name: 'Ada', email: 'ada@example.com', password: PASSWORD });

    const empty = await (await ada.get('/dashboard/keys')).text();
    assert.match(empty, /No keys yet/);
    // Redirect after POST: the new key is on the list page the form goes to, that once.
    const created = await ada.post('/dashboard/keys', { scope: 'read' });
    assert.equal(created.status, 303);
    assert.equal(created.headers.get('location'), '/dashboard/keys#new-key-title');
    const shown = await ada.get('/dashboard/keys');
    assert.equal(shown.headers.get('cache-control'), 'no-store');
    const key = NEW_KEY.exec(await shown.text())?.[1] ?? '';
    assert.match(key, /^tk_/);

    const listed = await server.request('GET', '/v1/streams', { key });
    assert.equal(listed.status, 200);
    const write = await server.request('POST', '/v1/streams', { key, body: { title: 'Nope' } });
    assert.equal(write.status, 403, 'a read key made on the page is a read key');

    const page = await (await ada.get('/dashboard/keys')).text();
    assert.equal(page.includes(key), false, 'the key is shown only once');
    assert.match(page, new RegExp(`<code>…${key.slice(-4)}</code>`));
    assert.match(page, /badge-read">read</);
    assert.doesNotMatch(page, /never/, 'its use shows as "last used"');
    const keyId = /action="\/dashboard\/keys\/(key_[0-9A-Za-z]+)\/revoke"/.exec(page)?.[1] ?? '';

    await ada.post('/dashboard/keys', { scope: 'write' });
    const writeKey = NEW_KEY.exec(await (await ada.get('/dashboard/keys')).text())?.[1] ?? '';
    assert.equal(
      (await server.request('POST', '/v1/streams', { key: writeKey, body: { title: 'Mine' } })).status,
      201,
    );

    const revoked = await ada.post(`/dashboard/keys/${keyId}/revoke`, {});
    assert.equal(revoked.status, 303, 'redirect after POST: a reload does not send it again');
    assert.equal(revoked.headers.get('location'), `/dashboard/keys?revoked=${keyId}`);
    assert.match(await (await ada.get(`/dashboard/keys?revoked=${keyId}`)).text(), /is revoked/);
    // A second later the key is refused (this process may answer from its lookups for less).
    clock.advance(1000);
    assert.equal((await server.request('GET', '/v1/streams', { key })).status, 401);
    const after = await (await ada.get('/dashboard/keys')).text();
    assert.match(after, /class="revoked"/);
    assert.equal(
      (await server.request('GET', '/v1/streams', { key: writeKey })).status,
      200,
      'the other key still works',
    );
  });

  test(`${dialect}: another account gets 404 for a key that is not its own; visitors are sent to sign in`, async (t) => {
    const server = await startTestApp(t, { dialect });
    const ada = await signUp(server.origin, { name: 'Ada', email: 'ada@example.com', password: PASSWORD });
    const eve = await signUp(server.origin, { name: 'Eve', email: 'eve@example.com', password: PASSWORD });
    await ada.post('/dashboard/keys', { scope: 'write' });
    const key = NEW_KEY.exec(await (await ada.get('/dashboard/keys')).text())?.[1] ?? '';
    const adaPage = await (await ada.get('/dashboard/keys')).text();
    const keyId = /action="\/dashboard\/keys\/(key_[0-9A-Za-z]+)\/revoke"/.exec(adaPage)?.[1] ?? '';
    assert.match(keyId, /^key_/);

    const evePage = await (await eve.get('/dashboard/keys')).text();
    assert.equal(evePage.includes(keyId), false);
    assert.equal(evePage.includes(key.slice(-4)), false);
    const stolen = await eve.post(`/dashboard/keys/${keyId}/revoke`, {});
    assert.equal(stolen.status, 404);
    assert.match(await stolen.text(), /<code class="error-code">resource_not_found<\/code>/);
    const missing = await eve.post('/dashboard/keys/key_doesnotexist/revoke', {});
    assert.equal(missing.status, 404);
    assert.equal((await server.request('GET', '/v1/streams', { key })).status, 200, "Ada's key still works");

    const visitor = newAgent(server.origin);
    const redirected = await visitor.get('/dashboard/keys');
    assert.equal(redirected.status, 303);
    assert.equal(redirected.headers.get('location'), '/sign-in?next=%2Fdashboard%2Fkeys');
    const anonymous = await visitor.post('/dashboard/keys', { scope: 'write' });
    assert.equal(anonymous.status, 303, 'a visitor with a valid pre-session token still needs to sign in');
    const badScope = await ada.post('/dashboard/keys', { scope: 'admin' });
    assert.equal(badScope.status, 400);
    assert.match(badScope.headers.get('content-type') ?? '', /^text\/html/);
  });
}
