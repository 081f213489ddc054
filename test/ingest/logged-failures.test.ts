// Failures ingest and the media routes live through must still reach the operator's log: a
// database that does not answer upkeep, stream folders a restart cannot resume, media files
// that exist but cannot be read. Each is faulted on purpose against real parts (database,
// files, the HTTP server); the service carries on in every case.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { test, type TestContext } from 'node:test';
import { LiveThumbnails } from '../../src/ingest/live-thumbnails.ts';
import { adoptInterruptedStreams } from '../../src/ingest/restart-recovery.ts';
import { StreamLifecycle } from '../../src/ingest/stream-lifecycle.ts';
import { IngestUpkeep } from '../../src/ingest/upkeep.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { renderPlaylist } from '../../src/hls/hls-playlist.ts';
import { MediaPaths, PLAYLIST_FILE } from '../../src/media/media-paths.ts';
import { MemoryLiveViewers } from '../../src/viewers/live-viewers.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { startMediaServer, type MediaTestServer } from '../helpers/media-server.ts';

interface LogLine {
  level: number;
  msg: string;
  streamId?: string;
  err?: { message: string };
}

/** The parts of ingest over the test app's real services, logging into `lines`. */
function ingestParts(t: TestContext, server: MediaTestServer) {
  const lines: LogLine[] = [];
  const logger = createLogger(
    'debug',
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        callback();
      },
    }),
  );
  const { streams, videos } = server.services;
  const paths = new MediaPaths(server.dataDir);
  const thumbnails = new LiveThumbnails({
    streams,
    paths,
    clock: systemClock,
    logger,
    ffmpegPath: 'ffmpeg',
    intervalMs: 20_000,
  });
  const lifecycle = new StreamLifecycle({
    streams,
    videos,
    paths,
    clock: systemClock,
    logger,
    ffmpegPath: 'ffmpeg',
    // Longer than the test: no stream ends on its own while it runs.
    reconnectWindowMs: 600_000,
    cleanStopGraceMs: 600_000,
    thumbnails,
  });
  t.after(() => lifecycle.close());
  const viewers = new MemoryLiveViewers(systemClock);
  const upkeep = new IngestUpkeep({ streams, viewers, logger, lifecycle, thumbnails });
  return { lines, logger, paths, lifecycle, upkeep };
}

/** Writes an unfinished live playlist for `streamId`, as a publish interrupted by a crash leaves. */
async function interruptedFolder(paths: MediaPaths, streamId: string): Promise<void> {
  await fs.mkdir(paths.publishDir(streamId, 0), { recursive: true });
  const publishes = [[{ duration: 2, uri: 'p0/seg00000.ts' }]];
  await fs.writeFile(
    path.join(paths.streamDir(streamId), PLAYLIST_FILE),
    renderPlaylist({ publishes, type: 'EVENT', ended: false }),
  );
}

test('upkeep logs a live stream it could not check, and keeps the stream', async (t) => {
  const server = await startMediaServer(t, { dialect: 'sqlite' });
  const account = await server.createAccount();
  const created = await server.createStream(account);
  const live = await server.services.streams.goLive(created.id);
  const { lines, lifecycle, upkeep } = ingestParts(t, server);
  lifecycle.adopt(live, [[{ duration: 2, uri: 'p0/seg00000.ts' }]]);

  const streams = server.services.streams;
  const get = streams.get.bind(streams);
  streams.get = async (id: string) => {
    if (id === created.id) throw new Error('database unreachable');
    return get(id);
  };
  await upkeep.tick();
  const warning = lines.find((line) => line.msg === 'could not check whether a live stream was ended');
  assert.ok(warning, 'the failed check is logged');
  assert.equal(warning.level, 40);
  assert.equal(warning.streamId, created.id);
  assert.equal(warning.err?.message, 'database unreachable');
  assert.deepEqual(lifecycle.streamIds(), [created.id], 'still handled; asked again next tick');
});

test('restart recovery logs the folders it cannot resume and resumes the rest', async (t) => {
  const server = await startMediaServer(t, { dialect: 'sqlite' });
  const account = await server.createAccount();
  const { lines, logger, paths, lifecycle } = ingestParts(t, server);
  const streams = server.services.streams;
  const resumable = await streams.goLive((await server.createStream(account)).id);
  const unreachable = await streams.goLive((await server.createStream(account)).id);
  const orphan = 'str_NoSuchStream0000000000000000';
  for (const id of [resumable.id, unreachable.id, orphan]) await interruptedFolder(paths, id);

  const get = streams.get.bind(streams);
  streams.get = async (id: string) => {
    if (id === unreachable.id) throw new Error('database unreachable');
    return get(id);
  };
  await adoptInterruptedStreams({ streams, paths, logger, lifecycle });

  assert.deepEqual(lifecycle.streamIds(), [resumable.id]);
  const failed = lines.find((line) => line.streamId === unreachable.id && line.level >= 50);
  assert.equal(failed?.msg, 'could not resume a stream interrupted by a restart');
  assert.equal(failed.err?.message, 'database unreachable');
  const orphaned = lines.find((line) => line.streamId === orphan);
  assert.equal(orphaned?.msg, 'stream folder without a stream; left as it is');
  assert.equal(orphaned.level, 40);
});

test('a media file that is there but cannot be read is logged; the player gets a 404', async (t) => {
  const server = await startMediaServer(t, { dialect: 'sqlite' });
  const account = await server.createAccount();
  const created = await server.createStream(account);
  const paths = new MediaPaths(server.dataDir);
  await interruptedFolder(paths, created.id);
  // A link to itself: stat fails with ELOOP (root reads any mode, so a chmod would not do).
  const segment = path.join(paths.publishDir(created.id, 0), 'seg00000.ts');
  await fs.symlink(segment, segment);

  const res = await fetch(`${server.origin}/media/streams/${created.id}/p0/seg00000.ts`);
  assert.equal(res.status, 404);
  assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'resource_not_found');
  const missing = await fetch(`${server.origin}/media/streams/${created.id}/p0/seg00001.ts`);
  assert.equal(missing.status, 404);
  await missing.arrayBuffer();

  const logged = server.logs
    .map((line) => JSON.parse(line))
    .filter((line) => line.msg === 'media file unreadable');
  assert.equal(logged.length, 1, 'the unreadable file is logged, the missing one is not');
  assert.equal(logged[0].level, 50);
  assert.match(logged[0].err.message, /ELOOP/);
});
