// The viewer-count history behind the creator's chart: at most one sample per stream per
// interval, read back oldest first, pruned by age and removed with the stream, on both dialects.
import assert from 'node:assert/strict';
import os from 'node:os';
import { describe, test } from 'node:test';
import { MediaRemoval } from '../../src/media/media-removal.ts';
import { MediaPaths } from '../../src/media/media-paths.ts';
import { StreamKeyVault } from '../../src/streams/stream-key-vault.ts';
import { StreamService } from '../../src/streams/stream.service.ts';
import { SAMPLE_INTERVAL_MS, ViewerSamples } from '../../src/streams/viewer-samples.ts';
import { PublicUrls } from '../../src/shared/public-urls.ts';
import { VideosOfStreams } from '../../src/videos/stream-recordings.ts';
import { TestClock } from '../helpers/clock.ts';
import { DIALECTS, openMigratedTestDatabase } from '../helpers/databases.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

for (const dialect of DIALECTS) {
  describe(`viewer samples on ${dialect}`, () => {
    test('one sample per interval, oldest first; old ones pruned; gone with the stream', async (t) => {
      const handle = await openMigratedTestDatabase(t, dialect);
      const { db } = handle;
      const clock = new TestClock();
      await db
        .insertInto('users')
        .values({ id: 'usr_samples', name: 'Sam', created_at: clock.now() })
        .execute();
      const streams = new StreamService(
        db,
        clock,
        new PublicUrls('http://localhost:3000', 1935),
        new StreamKeyVault(Buffer.alloc(32, 7)),
        new MediaRemoval(new MediaPaths(os.tmpdir())),
        new VideosOfStreams(new PublicUrls('http://localhost:3000', 1935)),
      );
      const { stream } = await streams.create('usr_samples', { title: 'Charted' });
      const samples = new ViewerSamples(db, clock, { retentionDays: 2 });

      assert.equal(await samples.offer(stream.id, 0), true);
      clock.advance(2000);
      assert.equal(await samples.offer(stream.id, 5), false, 'within the interval: not sampled');
      clock.advance(SAMPLE_INTERVAL_MS);
      assert.equal(await samples.offer(stream.id, 7), true);
      clock.advance(SAMPLE_INTERVAL_MS);
      assert.equal(await samples.offer(stream.id, 3), true);
      const history = await samples.history(stream.id);
      assert.deepEqual(
        history.map((s) => s.viewerCount),
        [0, 7, 3],
      );
      assert.ok(history[0]!.at < history[1]!.at && history[1]!.at < history[2]!.at);

      // Three days later the first three are past the two-day retention; a new one stays.
      clock.advance(3 * DAY_MS);
      await samples.offer(stream.id, 9);
      assert.equal(await samples.pruneIfDue(), 3);
      assert.equal(await samples.pruneIfDue(), 0, 'at most once an hour');
      assert.deepEqual(
        (await samples.history(stream.id)).map((s) => s.viewerCount),
        [9],
      );

      await db.deleteFrom('streams').where('id', '=', stream.id).execute();
      assert.deepEqual(await samples.history(stream.id), []);
    });
  });
}
