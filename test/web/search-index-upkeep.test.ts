// The SQLite search indexes are merged in bounded steps (search-index-upkeep.ts): an index built
// by many small writes has merging to do, a tick stops at its time budget with work left for the
// next, merging changes no result, and a merged index has nothing left to do.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { migrateToLatest, openDatabase } from '../../src/db/database.ts';
import { mergeSearchIndexes } from '../../src/search/search-index-upkeep.ts';
import { SearchService } from '../../src/search/search.service.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { PublicUrls } from '../../src/shared/public-urls.ts';
import { createTestDatabase } from '../helpers/databases.ts';
import { seedVideos } from '../helpers/seed.ts';

test('sqlite: small writes leave merging to do; merged, the same results and nothing left', async (t) => {
  const database = await createTestDatabase('sqlite');
  t.after(() => database.drop());
  const handle = openDatabase(database.url);
  t.after(() => handle.close());
  const db = handle.db;
  await migrateToLatest(db);
  await db.insertInto('users').values({ id: 'usr_ada', name: 'Ada', created_at: Date.now() }).execute();
  // One write a video, as a catalogue grows: each leaves its own small segment.
  for (let i = 0; i < 400; i++) {
    await seedVideos(db, 1, () => ({
      creator_id: 'usr_ada',
      title: `Harbour walk ${i} ${i % 3 === 0 ? 'sunrise' : 'evening'}`,
      published_at: Date.now() - i,
    }));
  }
  const search = new SearchService(db, systemClock, new PublicUrls('http://127.0.0.1', 1935), { cacheMs: 0 });
  const results = async () => {
    const found = await search.search({ text: 'harbour sun', kind: 'videos', page: 1 });
    return { more: found?.videos.more, ids: found?.videos.rows.map((row) => row.id) };
  };
  const before = await results();
  assert.equal(before.more, true);
  assert.equal(before.ids?.length, 20);

  assert.equal(await mergeSearchIndexes(db, 0), false, 'a spent budget leaves work for the next tick');
  assert.equal(await mergeSearchIndexes(db, 60_000), true);
  assert.deepEqual(await results(), before);
  // Merged: a tick with no time at all finds nothing to do.
  assert.equal(await mergeSearchIndexes(db, 0), true);
});
