// The upload page's routes without a browser, on every dialect: the page lists the account's
// unfinished and recent uploads (never another's); the create route answers the API's upload
// object, or the API's own refusals with the field named; the status route reads only the
// caller's uploads; Cancel cancels, and another account's upload is a 404. Signed out, every
// route sends to sign-in.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { newAgent, signUp } from '../helpers/web.ts';

const JSON_ACCEPT = { accept: 'application/json' };

for (const dialect of DIALECTS) {
  test(`${dialect}: create, list, poll and cancel uploads from the dashboard`, async (t) => {
    const server = await startTestApp(t, { dialect, rateLimitPerIp: 100_000, uploads: { maxBytes: 5000 } });
    const ada = await signUp(server.origin, {
      name: 'Ada',
      email: 'ada@example.com',
      password: 'ada password 1',
    });
    const bob = await signUp(server.origin, {
      name: 'Bob',
      email: 'bob@example.com',
      password: 'bob password 1',
    });

    const empty = await ada.get('/dashboard/uploads');
    assert.equal(empty.status, 200);
    const emptyPage = await empty.text();
    assert.match(emptyPage, /<h1>Upload a video<\/h1>/);
    assert.match(emptyPage, /<script src="\/assets\/tus.min.js" defer><\/script>/);
    assert.match(emptyPage, /id="recent-empty" >No uploads yet/);

    // Created: the API's upload object, with the tus URL the browser sends the bytes to.
    const created = await ada.post(
      '/dashboard/uploads',
      { size: '1234', title: '  Holiday  ', description: '', category: 'travel', privacy: 'private' },
      JSON_ACCEPT,
    );
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('cache-control'), 'no-store');
    const upload = (await created.json()) as any;
    assert.match(upload.id, /^upl_/);
    assert.equal(upload.status, 'waiting');
    assert.equal(upload.title, 'Holiday');
    assert.equal(upload.size, 1234);
    assert.match(upload.upload_url, new RegExp(`/uploads/${upload.id}\\.`));
    const stored = await server.services.uploads.find(upload.id);
    assert.ok(stored);
    assert.equal(stored.category, 'travel');
    assert.equal(stored.privacy, 'private');
    assert.equal(stored.description, null, 'an empty description is left out');

    // Refused as the API refuses, with the field named.
    const refusals: [Record<string, string>, string, RegExp][] = [
      [{ size: '10', title: ' ' }, 'title', /must not be empty/],
      [{ size: '0', title: 'Zero' }, 'size', /.+/],
      [{ size: 'lots', title: 'Words' }, 'size', /.+/],
      [{ size: '6000', title: 'Too big' }, 'size', /uploads are limited to 4\.9 KiB/],
      [{ size: '10', title: 'Odd', category: 'nope' }, 'category', /.+/],
      [{ size: '10', title: 'Extra', colour: 'red' }, 'colour', /.+/],
    ];
    for (const [form, param, message] of refusals) {
      const refused = await ada.post('/dashboard/uploads', form, JSON_ACCEPT);
      assert.equal(refused.status, 400, JSON.stringify(form));
      const body = (await refused.json()) as any;
      assert.equal(body.error.param, param, JSON.stringify(body));
      assert.match(body.error.message, message);
    }
    // A browser without the script gets a page.
    const page = await ada.post('/dashboard/uploads', { title: 'No size' });
    assert.equal(page.status, 400);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    await page.body?.cancel();

    // The page lists it as unfinished and recent; Bob sees none of it.
    const listed = await (await ada.get('/dashboard/uploads')).text();
    assert.match(listed, new RegExp(`<tr data-upload-id="${upload.id}">\\s*<th scope="row">Holiday</th>`));
    assert.match(listed, /id="unfinished-list"/);
    assert.match(listed, /0% sent \(0 bytes of 1\.2 KiB\)/);
    const bobs = await (await bob.get('/dashboard/uploads')).text();
    assert.doesNotMatch(bobs, new RegExp(upload.id));

    // The status route: the caller's uploads only, with a named one added if it is theirs.
    const status = await ada.get(`/dashboard/uploads/status?id=${upload.id}`, JSON_ACCEPT);
    assert.equal(status.status, 200);
    assert.deepEqual(
      ((await status.json()) as any).data.map((u: any) => [u.id, u.status]),
      [[upload.id, 'waiting']],
    );
    const bobStatus = await bob.get(`/dashboard/uploads/status?id=${upload.id}`, JSON_ACCEPT);
    assert.deepEqual(((await bobStatus.json()) as any).data, []);

    // Cancel: Bob's attempt is a 404 and changes nothing; Ada's cancels.
    const notBobs = await bob.post(`/dashboard/uploads/${upload.id}/cancel`, {});
    assert.equal(notBobs.status, 404);
    await notBobs.body?.cancel();
    assert.equal((await server.services.uploads.find(upload.id))?.status, 'waiting');
    const cancelled = await ada.post(`/dashboard/uploads/${upload.id}/cancel`, {});
    assert.equal(cancelled.status, 303);
    assert.equal(cancelled.headers.get('location'), '/dashboard/uploads?cancelled=1');
    assert.equal((await server.services.uploads.find(upload.id))?.status, 'cancelled');
    const after = await (await ada.get('/dashboard/uploads?cancelled=1')).text();
    assert.match(after, /The upload was cancelled and its bytes removed\./);
    assert.match(after, /id="unfinished-empty" >No unfinished uploads/);
    const again = await ada.post(`/dashboard/uploads/${upload.id}/cancel`, {});
    assert.equal(again.status, 409);
    await again.body?.cancel();

    // Signed out: sent to sign in.
    const visitor = newAgent(server.origin);
    for (const path of ['/dashboard/uploads', '/dashboard/uploads/status']) {
      const response = await visitor.get(path);
      assert.equal(response.status, 303, path);
      assert.match(response.headers.get('location') ?? '', /^\/sign-in/);
      await response.body?.cancel();
    }
  });
}
