// Views of videos through the presence endpoint, on a real server over each database: one view
// per viewer and video per UTC day (the signed cookie keeps a viewer the same across reloads),
// a second viewer counts, the next day counts again and past days are pruned; ids that cannot be
// watched and malformed input get the error envelope.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DIALECTS } from '../helpers/databases.ts';
import { startTestApp, type Account, type TestApp } from '../helpers/app.ts';
import { TestClock } from '../helpers/clock.ts';
import { seedVideos } from '../helpers/seed.ts';
import { rawExchange } from '../helpers/server.ts';

const DAY_MS = 86_400_000;

async function publishedVideo(server: TestApp, account: Account, published = true): Promise<string> {
  const [id] = await seedVideos(server.services.database.db, 1, () => ({
    creator_id: account.userId,
    published_at: published ? Date.now() : null,
  }));
  return id ?? '';
}

async function viewCount(server: TestApp, account: Account, id: string): Promise<number> {
  const response = await server.request('GET', `/v1/videos/${id}`, { key: account.readKey });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.view_count as number;
}

function presence(server: TestApp, id: string, options: { viewer?: string; cookie?: string } = {}) {
  const query = options.viewer === undefined ? '' : `?viewer=${options.viewer}`;
  return server.request('POST', `/watch/${id}/presence${query}`, {
    headers: options.cookie === undefined ? {} : { cookie: options.cookie },
  });
}

/** The `name=value` part of a Set-Cookie answer, as a browser would send it back. */
function cookieOf(setCookie: string | null): string {
  assert.ok(setCookie, 'the answer sets the viewer cookie');
  return setCookie.split(';')[0] ?? '';
}

for (const dialect of DIALECTS) {
  describe(`views (${dialect})`, () => {
    test('one view per viewer per day: reloads and repeated signals do not count, a second viewer does', async (t) => {
      const server = await startTestApp(t, { dialect });
      const account = await server.createAccount();
      const id = await publishedVideo(server, account);

      const first = await presence(server, id, { viewer: 'page-load-one' });
      assert.equal(first.status, 204);
      assert.equal(first.headers.get('cache-control'), 'no-store');
      const setCookie = first.headers.get('set-cookie') ?? '';
      assert.match(setCookie, /^tributary_viewer=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+; /);
      assert.match(setCookie, /; Path=\/watch;/);
      assert.match(setCookie, /; HttpOnly; SameSite=Lax$/, 'no Secure over plain http');
      const cookie = cookieOf(setCookie);
      assert.equal(await viewCount(server, account, id), 1);

      // The same browser every 5 s, and after a reload (a new page id, the same cookie).
      for (let i = 0; i < 3; i++) {
        const again = await presence(server, id, { viewer: 'page-load-one', cookie });
        assert.equal(again.status, 204);
        assert.equal(again.headers.get('set-cookie'), null, 'a valid cookie is not set again');
      }
      assert.equal((await presence(server, id, { viewer: 'page-load-two', cookie })).status, 204);
      assert.equal(await viewCount(server, account, id), 1);

      // Another browser at the same address is another viewer.
      assert.equal((await presence(server, id, { viewer: 'other-browser' })).status, 204);
      assert.equal(await viewCount(server, account, id), 2);

      // A forged cookie is no identity: it is replaced, and its id is not taken on trust.
      const forged = await presence(server, id, {
        cookie: 'tributary_viewer=page-load-one.AAAAAAAAAAAAAAAAAAAAAA',
      });
      assert.equal(forged.status, 204);
      assert.ok(forged.headers.get('set-cookie'), 'a forged cookie is replaced');
      // Counted as a player without an id (by its agent): one more viewer, once.
      assert.equal(await viewCount(server, account, id), 3);
      assert.equal((await presence(server, id, { cookie: 'tributary_viewer=garbage' })).status, 204);
      assert.equal(await viewCount(server, account, id), 3);
    });

    test('the next UTC day counts the same viewer again, and the past day is pruned', async (t) => {
      const clock = new TestClock();
      const today = Math.floor(clock.now() / DAY_MS) * DAY_MS;
      clock.set(today + DAY_MS - 1_000); // 23:59:59 UTC
      const server = await startTestApp(t, { dialect, clock });
      const account = await server.createAccount();
      const id = await publishedVideo(server, account);
      const cookie = cookieOf(
        (await presence(server, id, { viewer: 'late-night-viewer' })).headers.get('set-cookie'),
      );
      assert.equal(await viewCount(server, account, id), 1);

      clock.advance(500); // still the same day
      await presence(server, id, { cookie });
      assert.equal(await viewCount(server, account, id), 1);

      clock.advance(1_000); // 00:00:00.500 the next day
      assert.equal((await presence(server, id, { cookie })).status, 204);
      assert.equal(await viewCount(server, account, id), 2);
      clock.advance(3_600_000);
      await presence(server, id, { cookie });
      assert.equal(await viewCount(server, account, id), 2);

      const rows = await server.services.database.db.selectFrom('video_views').select('day').execute();
      assert.deepEqual(
        rows.map((row) => row.day),
        [today / DAY_MS + 1],
        "only today's row is kept",
      );
    });

    test('one address adds at most 20 views a day to a video, however many ids it invents', async (t) => {
      const server = await startTestApp(t, { dialect });
      const account = await server.createAccount();
      const id = await publishedVideo(server, account);
      for (let i = 0; i < 30; i++) {
        assert.equal(
          (await presence(server, id, { viewer: `invented-${String(i).padStart(4, '0')}` })).status,
          204,
        );
      }
      assert.equal(await viewCount(server, account, id), 20);
    });

    test('what cannot be watched is a 404, malformed input a 400, a flood a 429', async (t) => {
      const server = await startTestApp(t, { dialect, presencePerMinute: 40 });
      const account = await server.createAccount();
      const draft = await publishedVideo(server, account, false);
      for (const id of ['vid_doesnotexist', draft, 'str_nope', 'usr_x', 'x'.repeat(64)]) {
        const response = await presence(server, id, { viewer: 'some-viewer' });
        assert.equal(response.status, 404, id);
        assert.equal(response.body.error.code, 'resource_not_found');
      }
      for (const viewer of ['short', 'has%20space', 'x'.repeat(65), '%00%00%00%00%00%00%00%00']) {
        const response = await presence(server, draft, { viewer });
        assert.equal(response.status, 400, viewer);
        assert.equal(response.body.error.code, 'parameter_invalid');
      }
      const long = await presence(server, 'x'.repeat(65));
      assert.equal(long.status, 400);
      const unknown = await server.request('POST', `/watch/${draft}/presence?other=1`);
      assert.equal(unknown.body.error.code, 'parameter_unknown');
      let limited;
      for (let i = 0; i < 45 && !limited; i++) {
        const response = await presence(server, 'vid_doesnotexist');
        if (response.status === 429) limited = response;
      }
      assert.ok(limited, 'a flood from one address is told to slow down');
      assert.equal(limited.body.error.code, 'rate_limit_exceeded');
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
      assert.equal(limited.headers.get('cache-control'), 'no-store');
      // Refused before any body is read: the body is read out and dropped, and the connection
      // carries the next request (the body's bytes are not taken for one).
      const withBody = await rawExchange(
        server.port,
        `POST /watch/${draft}/presence HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
          `Content-Length: 2000\r\n\r\n[${'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(100).slice(0, 1999)}` +
          'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n',
        { untilResponses: 2, waitMs: 5000 },
      );
      assert.deepEqual(
        withBody.responses.map((response) => response.status),
        [429, 200],
      );
      assert.equal(withBody.responses[0]?.headers.connection, 'keep-alive');
    });
  });
}
