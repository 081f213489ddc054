// Migration 2026-11-26-076 on SQLite (PostgreSQL's index is unchanged): a catalogue indexed
// before it is searched the same after it (the FTS tables made again under the same rowids, with
// their prefix indexes and a stream's status and time), the triggers keep indexing new writes,
// and going back down leaves 020's index working. Migration 087 (newest documents numbered
// first) keeps which matches are searched and their order.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { test } from 'node:test';
import { migrateTo, migrateToLatest, openDatabase } from '../../src/db/database.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { PublicUrls } from '../../src/shared/public-urls.ts';
import { LAST_PAGE, RESULTS_PER_PAGE, SearchService } from '../../src/search/search.service.ts';
import { createTestDatabase, DIALECTS } from '../helpers/databases.ts';
import { seedStreams, seedVideos } from '../helpers/seed.ts';

const BEFORE = '2026-11-26-075-video-thumbnail-at';
const HOUR = 3_600_000;

test('sqlite: a catalogue indexed before 076 is found the same after it, and after going back', async (t) => {
  const database = await createTestDatabase('sqlite');
  t.after(() => database.drop());
  const handle = openDatabase(database.url);
  t.after(() => handle.close());
  const db = handle.db;
  await migrateTo(db, BEFORE);
  const now = Date.now();
  await db.insertInto('users').values({ id: 'usr_ada', name: 'Ada Speedwell', created_at: now }).execute();
  const [video] = await seedVideos(db, 1, () => ({
    creator_id: 'usr_ada',
    title: 'Speedrun any%',
    published_at: now - HOUR,
  }));
  const [live, soon, late] = await seedStreams(db, 3, (i) => ({
    creator_id: 'usr_ada',
    title: `Speedrun night ${i}`,
    status: i === 0 ? 'live' : 'scheduled',
    started_at: i === 0 ? now - HOUR : null,
    scheduled_at: i === 1 ? now + HOUR : i === 2 ? now - 3 * HOUR : null,
  }));

  await migrateToLatest(db);
  const search = new SearchService(db, systemClock, new PublicUrls('http://127.0.0.1', 1935), { cacheMs: 0 });
  const found = async (text: string) => {
    const results = await search.search({ text, kind: 'all', page: 1 });
    assert.ok(results);
    return {
      videos: results.videos.rows.map((row) => row.id),
      streams: results.streams.rows.map((row) => row.id),
      channels: results.channels.rows.map((row) => row.id),
    };
  };
  // Live first, then the upcoming one; not the one whose time passed hours ago.
  assert.deepEqual(await found('sp'), { videos: [video], streams: [live, soon], channels: ['usr_ada'] });
  assert.deepEqual((await found('speedrun night')).streams, [live, soon]);
  assert.ok(late);

  // New writes are indexed by the new triggers: a video, a stream going live, a rename.
  const [later] = await seedVideos(db, 1, () => ({
    creator_id: 'usr_ada',
    title: 'Speedrun glitchless',
    published_at: now,
  }));
  await db.updateTable('streams').set({ status: 'live', started_at: now }).where('id', '=', late).execute();
  await db.updateTable('users').set({ name: 'Ada Quickstep' }).where('id', '=', 'usr_ada').execute();
  const after = await found('quickstep speedrun');
  assert.deepEqual(after.videos.toSorted(), [video, later].toSorted());
  assert.deepEqual(after.streams.toSorted(), [late, live, soon].toSorted());

  // Down again: 020's tables and triggers, the same documents, new writes indexed.
  await migrateTo(db, BEFORE);
  const columns = await sql<{ name: string }>`select name from pragma_table_info('stream_search')`.execute(
    db,
  );
  assert.deepEqual(
    columns.rows.map((row) => row.name),
    ['title', 'description', 'creator'],
  );
  await seedVideos(db, 1, () => ({ creator_id: 'usr_ada', title: 'Speedrun rerun', published_at: now }));
  const matches = await sql<{
    n: number;
  }>`select count(*) as n from video_search where video_search match 'speedrun'`.execute(db);
  assert.equal(matches.rows[0]?.n, 3);
});

for (const dialect of DIALECTS) {
  test(`${dialect}: the newest matches are the ones searched, newest first among equals, before and after 087`, async (t) => {
    const database = await createTestDatabase(dialect);
    t.after(() => database.drop());
    const handle = openDatabase(database.url);
    t.after(() => handle.close());
    const db = handle.db;
    // Indexed before 2026-11-26-087 renumbered the documents, then more after it.
    await migrateTo(db, '2026-11-26-086-stream-lease-health');
    await db.insertInto('users').values({ id: 'usr_many', name: 'Marathoner', created_at: 1 }).execute();
    const older = await seedVideos(db, LAST_PAGE * RESULTS_PER_PAGE, (i) => ({
      creator_id: 'usr_many',
      title: `Marathon ${i}`,
    }));
    await migrateToLatest(db);
    const newer = await seedVideos(db, 30, (i) => ({
      creator_id: 'usr_many',
      title: `Marathon late ${i}`,
      published_at: 1_800_000_000_000 + i * 1000,
    }));
    const search = new SearchService(db, systemClock, new PublicUrls('http://127.0.0.1', 1935), {
      cacheMs: 0,
    });
    const page = async (number: number) => {
      const results = await search.search({ text: 'marathon', kind: 'videos', page: number });
      assert.ok(results);
      return { more: results.videos.more, ids: results.videos.rows.map((row) => row.id) };
    };
    const first = await page(1);
    assert.equal(first.more, true);
    assert.deepEqual(first.ids, newer.toReversed().slice(0, 20), 'the newest first');
    const last = await page(LAST_PAGE);
    // The 30 newest and then the newest of the older ones: pages stop at the 200th match.
    assert.deepEqual(last.ids, older.toReversed().slice(150, 170));
  });
}
