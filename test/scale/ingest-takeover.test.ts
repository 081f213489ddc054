// Losing an ingest machine (issue 25): two `tributary serve --ingest-only` processes on one
// PostgreSQL database and a real object store (Ceph's gateway). A real ffmpeg pushes to one; it
// is SIGKILLed mid-stream; the push is restarted against the other (as an encoder reconnecting
// through the balancer would land there), which takes the stream over from what the dead one
// copied to the store, and the recording made at the end holds both parts: at most 4 s shorter
// than what was pushed, decoded end to end; with a ladder (TRANSCODE=auto), every rendition.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { openDatabase } from '../../src/db/database.ts';
import { parseMasterPlaylist } from '../../src/hls/master-playlist.ts';
import { createTestDatabase, POSTGRES_ADMIN_URL } from '../helpers/databases.ts';
import { countVideoFrames, pushTestPattern, type Push } from '../helpers/media-tools.ts';
import { SKIP_WITHOUT_OBJECT_STORE, useObjectStore } from '../helpers/object-store.ts';
import { waitFor } from '../helpers/wait.ts';
import {
  ingestTestEnv,
  progressOf,
  startIngestProcess,
  tributaryCli,
  type IngestProcess,
} from './processes.ts';

const SKIP = !POSTGRES_ADMIN_URL
  ? 'needs TEST_POSTGRES_URL (a PostgreSQL server)'
  : SKIP_WITHOUT_OBJECT_STORE;
const objectStore = useObjectStore();

describe('losing the ingest machine that holds a stream', { skip: SKIP, timeout: 400_000 }, () => {
  for (const ladder of [false, true]) {
    test(`the other machine takes it over from the store; the recording keeps both parts (${ladder ? 'a ladder' : 'copy-only'})`, async (t) => {
      const database = await createTestDatabase('postgres', { migrated: true });
      t.after(() => database.drop());
      const db = openDatabase(database.url).db;
      t.after(() => db.destroy());
      const env = ingestTestEnv(database, {
        CLEAN_STOP_GRACE_SECONDS: '1',
        ...(await objectStore.processEnv(t, 'tributary/')),
        // A ladder each machine can always afford (one small rung, the fastest preset), so the
        // test is of the takeover, not of the CPU budget.
        ...(ladder
          ? {
              TRANSCODE: 'auto',
              TRANSCODE_LADDER: '120:200',
              TRANSCODE_PRESET: 'ultrafast',
              TRANSCODE_CPU_CORES: '64',
              TRANSCODE_HEADROOM_PERCENT: '0',
            }
          : {}),
      });
      const userId = await tributaryCli(env, ['users', 'create', '--name', 'Takeover']);
      const key = await tributaryCli(env, ['keys', 'create', '--user', userId, '--scope', 'write']);
      const a = await startIngestProcess(t, 'ingest-a', env, database.dataDir);
      const b = await startIngestProcess(t, 'ingest-b', env, database.dataDir);
      const response = await fetch(`${a.origin}/v1/streams`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Survives a machine' }),
      });
      assert.equal(response.status, 201);
      const created = (await response.json()) as { id: string; ingest: { stream_key: string } };
      const pushes: Push[] = [];
      t.after(() => {
        for (const push of pushes) push.stop();
      });
      const push = (to: IngestProcess): Push => {
        const started = pushTestPattern(
          `rtmp://127.0.0.1:${to.rtmpPort}/live/${created.ingest.stream_key}`,
          300,
          {
            size: '320x180',
            progress: true,
          },
        );
        pushes.push(started);
        return started;
      };
      const holder = async () =>
        (
          await db
            .selectFrom('stream_leases')
            .select('holder')
            .where('stream_id', '=', created.id)
            .executeTakeFirst()
        )?.holder;

      const first = push(a);
      const firstPushed = progressOf(first);
      await waitFor(async () => (await holder()) === 'ingest-a', {
        timeoutMs: 60_000,
        what: 'ingest-a holding it',
      });
      await waitFor(() => firstPushed() >= 12, { timeoutMs: 60_000, what: '12 s pushed to ingest-a' });
      await a.service.stop('SIGKILL');
      const beforeLoss = firstPushed();
      first.stop();

      // The encoder reconnects (again and again, as OBS does) until the other machine takes it.
      let second: Push | undefined;
      let secondPushed: () => number = () => 0;
      await waitFor(
        async () => {
          if ((await holder()) === 'ingest-b' && second?.process.exitCode === null) return true;
          if (second?.process.exitCode !== null) {
            second = push(b);
            secondPushed = progressOf(second);
          }
          return false;
        },
        { timeoutMs: 60_000, intervalMs: 1000, what: 'ingest-b holding the stream after ingest-a died' },
      );
      await waitFor(() => b.service.log().includes('took over a live stream from another ingest process'), {
        what: "ingest-b's takeover from the store",
      });
      await waitFor(() => secondPushed() >= 8, { timeoutMs: 60_000, what: '8 s pushed to ingest-b' });
      second!.end();
      const afterLoss = (await second!.exited, secondPushed());

      const video = await waitFor(
        async () =>
          db
            .selectFrom('videos')
            .select(['id', 'published_at'])
            .where('source_stream_id', '=', created.id)
            .where('published_at', 'is not', null)
            .executeTakeFirst(),
        { timeoutMs: 90_000, what: 'the recording published' },
      );
      const folder = path.join(b.dataDir, 'media', 'videos', video.id);
      // With a ladder the recording is a master over every rendition, each restored and continued.
      const playlists = ladder
        ? parseMasterPlaylist(fs.readFileSync(path.join(folder, 'index.m3u8'), 'utf8')).map((v) => v.uri)
        : ['index.m3u8'];
      assert.deepEqual(playlists, ladder ? ['source.m3u8', '120p.m3u8'] : ['index.m3u8']);
      const pushed = beforeLoss + afterLoss;
      for (const playlist of playlists) {
        const recorded = (await countVideoFrames(path.join(folder, playlist))) / 30;
        t.diagnostic(
          `${playlist}: pushed ${pushed.toFixed(1)} s (${beforeLoss.toFixed(1)} + ${afterLoss.toFixed(1)}), recorded ${recorded.toFixed(1)} s`,
        );
        assert.ok(recorded >= pushed - 4, `${playlist}: recorded ${recorded} s of ${pushed} s pushed`);
        assert.ok(
          recorded <= pushed + 1,
          `${playlist}: recorded ${recorded} s of ${pushed} s pushed: nothing twice`,
        );
        assert.ok(recorded > afterLoss + 6, `${playlist}: the part before the loss is in the recording`);
      }
    });
  }

  test('an encoder that never comes back: another machine ends the stream and records it from the store', async (t) => {
    const database = await createTestDatabase('postgres', { migrated: true });
    t.after(() => database.drop());
    const db = openDatabase(database.url).db;
    t.after(() => db.destroy());
    const env = ingestTestEnv(database, {
      RECONNECT_WINDOW_SECONDS: '5',
      ...(await objectStore.processEnv(t, 'tributary/')),
    });
    const userId = await tributaryCli(env, ['users', 'create', '--name', 'Orphan']);
    const key = await tributaryCli(env, ['keys', 'create', '--user', userId, '--scope', 'write']);
    const a = await startIngestProcess(t, 'ingest-a', env, database.dataDir);
    const b = await startIngestProcess(t, 'ingest-b', env, database.dataDir);
    const response = await fetch(`${a.origin}/v1/streams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Never came back' }),
    });
    const created = (await response.json()) as { id: string; ingest: { stream_key: string } };
    const pushed = pushTestPattern(`rtmp://127.0.0.1:${a.rtmpPort}/live/${created.ingest.stream_key}`, 300, {
      size: '320x180',
      progress: true,
    });
    t.after(() => {
      pushed.stop();
    });
    const progress = progressOf(pushed);
    await waitFor(async () => progress() >= 10, { timeoutMs: 60_000, what: '10 s pushed to ingest-a' });
    await a.service.stop('SIGKILL');
    const beforeLoss = progress();
    pushed.stop();
    const video = await waitFor(
      async () =>
        db
          .selectFrom('videos')
          .select('id')
          .where('source_stream_id', '=', created.id)
          .where('published_at', 'is not', null)
          .executeTakeFirst(),
      { timeoutMs: 90_000, what: 'the recording published by ingest-b' },
    );
    const stream = await db
      .selectFrom('streams')
      .select('status')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    assert.equal(stream.status, 'ended');
    const recorded =
      (await countVideoFrames(path.join(b.dataDir, 'media', 'videos', video.id, 'index.m3u8'))) / 30;
    t.diagnostic(`pushed ${beforeLoss.toFixed(1)} s before the loss, recorded ${recorded.toFixed(1)} s`);
    assert.ok(
      recorded >= beforeLoss - 4 && recorded <= beforeLoss + 1,
      `recorded ${recorded} s of ${beforeLoss} s`,
    );
  });
});
