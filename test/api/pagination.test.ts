import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DIALECTS } from '../helpers/databases.ts';
import { seedStreams, seedVideos } from '../helpers/seed.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

async function walk(
  server: TestServer,
  key: string,
  path: string,
): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let pages = 0;
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const url: string = cursor === null ? path : `${path}${separator}cursor=${encodeURIComponent(cursor)}`;
    const res = await server.request('GET', url, { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    pages++;
    ids.push(...res.body.data.map((item: { id: string }) => item.id));
    assert.equal(res.body.pagination.has_more, res.body.pagination.next_cursor !== null);
    cursor = res.body.pagination.next_cursor;
  } while (cursor !== null);
  return { ids, pages };
}

for (const dialect of DIALECTS) {
  describe(`pagination on ${dialect}`, () => {
    test('walking 10,050 streams at limit=100 returns each exactly once, newest first', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      // Every 7th pair shares a created_at, so the id tie-breaker is exercised too.
      const seeded = await seedStreams(server.services.database.db, 10_050, (i) => ({
        creator_id: account.userId,
        created_at: 1_700_000_000_000 + Math.floor(i / 2) * 1000,
      }));
      const { ids, pages } = await walk(server, account.readKey, '/v1/streams?limit=100');
      assert.equal(pages, 101);
      assert.equal(ids.length, 10_050);
      assert.equal(new Set(ids).size, 10_050);
      assert.deepEqual(new Set(ids), new Set(seeded));

      // Newest first: created_at descending, then id descending.
      const rows = await server.services.database.db
        .selectFrom('streams')
        .select(['id', 'created_at'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      assert.deepEqual(
        ids,
        rows.map((r) => r.id),
      );
    });

    test('items created while a client pages through are neither skipped nor repeated', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      const seeded = await seedStreams(server.services.database.db, 250, () => ({
        creator_id: account.userId,
      }));
      const seen: string[] = [];
      let cursor: string | null = null;
      let page = 0;
      do {
        const path: string =
          cursor === null
            ? '/v1/streams?limit=40'
            : `/v1/streams?limit=40&cursor=${encodeURIComponent(cursor)}`;
        const res = await server.request('GET', path, { key: account.readKey });
        assert.equal(res.status, 200);
        seen.push(...res.body.data.map((s: { id: string }) => s.id));
        cursor = res.body.pagination.next_cursor;
        // New streams arrive between pages; they are newer than the cursor, so they belong to
        // a fresh walk, not to this one.
        await server.request('POST', '/v1/streams', {
          key: account.writeKey,
          body: { title: `New ${page++}` },
        });
      } while (cursor !== null);
      assert.equal(seen.length, 250);
      assert.deepEqual(new Set(seen), new Set(seeded));
    });

    test('filters combine with pagination and the cursor is bound to them', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      const other = await server.createAccount('Other');
      await seedStreams(server.services.database.db, 90, (i) => ({
        creator_id: i % 3 === 0 ? other.userId : account.userId,
        status: i % 2 === 0 ? 'live' : 'ended',
        category: i % 5 === 0 ? 'music' : 'gaming',
      }));
      const filtered = await walk(
        server,
        account.readKey,
        `/v1/streams?limit=7&status=live&creator_id=${other.userId}`,
      );
      // i % 3 === 0 and i % 2 === 0: i % 6 === 0 -> 15 of 90.
      assert.equal(filtered.ids.length, 15);
      const first = await server.request('GET', '/v1/streams?limit=5&status=live', { key: account.readKey });
      for (const stream of first.body.data) assert.equal(stream.status, 'live');
      const cursor = encodeURIComponent(first.body.pagination.next_cursor);

      const otherFilters = await server.request('GET', `/v1/streams?limit=5&status=ended&cursor=${cursor}`, {
        key: account.readKey,
      });
      assert.equal(otherFilters.status, 400);
      assert.equal(otherFilters.body.error.code, 'invalid_cursor');

      // The page size may change between pages; the filters may not.
      const biggerPage = await server.request('GET', `/v1/streams?limit=50&status=live&cursor=${cursor}`, {
        key: account.readKey,
      });
      assert.equal(biggerPage.status, 200);
      assert.equal(biggerPage.body.data.length, 40);

      const music = await walk(server, account.readKey, '/v1/streams?category=music&limit=100');
      assert.equal(music.ids.length, 18);
    });

    test('malformed, tampered and foreign cursors are 400 invalid_cursor', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      await seedStreams(server.services.database.db, 5, () => ({ creator_id: account.userId }));
      const page = await server.request('GET', '/v1/streams?limit=2', { key: account.readKey });
      const cursor: string = page.body.pagination.next_cursor;
      assert.match(cursor, /^cur_/);
      const body = cursor.slice(4);
      const flipped = body.slice(0, 5) + (body[5] === 'A' ? 'B' : 'A') + body.slice(6);
      for (const bad of [
        'nonsense',
        'cur_',
        `cur_${flipped}`,
        `${cursor}x`,
        'cur_!!!!',
        cursor.replace('cur_', 'cux_'),
      ]) {
        const res = await server.request('GET', `/v1/streams?cursor=${encodeURIComponent(bad)}`, {
          key: account.readKey,
        });
        assert.equal(res.status, 400, bad);
        assert.equal(res.body.error.code, 'invalid_cursor', bad);
        assert.equal(res.body.error.param, 'cursor');
      }
      // A streams cursor means nothing to the videos list.
      const videos = await server.request('GET', `/v1/videos?cursor=${encodeURIComponent(cursor)}`, {
        key: account.readKey,
      });
      assert.equal(videos.status, 400);
      assert.equal(videos.body.error.code, 'invalid_cursor');
    });

    test('limit must be an integer from 1 to 100; unknown query parameters are refused', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      for (const path of ['/v1/streams', '/v1/videos']) {
        for (const limit of ['0', '101', '-1', 'abc', '1.5', '']) {
          const res = await server.request('GET', `${path}?limit=${limit}`, { key: account.readKey });
          assert.equal(res.status, 400, `${path} limit=${limit}`);
          assert.equal(res.body.error.code, 'parameter_invalid');
          assert.equal(res.body.error.param, 'limit');
        }
        const twice = await server.request('GET', `${path}?limit=5&limit=6`, { key: account.readKey });
        assert.equal(twice.status, 400);
        const unknown = await server.request('GET', `${path}?sort=asc`, { key: account.readKey });
        assert.equal(unknown.status, 400);
        assert.equal(unknown.body.error.code, 'parameter_unknown');
        assert.equal(unknown.body.error.param, 'sort');
        for (const category of ['Gaming', 'not-a-category', 'gaming--x']) {
          const bad = await server.request('GET', `${path}?category=${category}`, { key: account.readKey });
          assert.equal(bad.status, 400);
          assert.equal(bad.body.error.code, 'parameter_invalid');
          assert.equal(bad.body.error.param, 'category');
        }
      }
      const badStatus = await server.request('GET', '/v1/streams?status=paused', { key: account.readKey });
      assert.equal(badStatus.body.error.param, 'status');
      const max = await server.request('GET', '/v1/streams?limit=100', { key: account.readKey });
      assert.equal(max.status, 200);
    });

    test('videos page by published_at, newest first, and leave out unpublished ones', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      const seeded = await seedVideos(server.services.database.db, 330, (i) => ({
        creator_id: account.userId,
        published_at: i % 10 === 9 ? null : 1_700_000_000_000 + (330 - i) * 1000,
      }));
      const { ids } = await walk(server, account.readKey, '/v1/videos?limit=100');
      const published = seeded.filter((_, i) => i % 10 !== 9);
      assert.deepEqual(ids, published);
    });
  });
}
