// A recording published without its thumbnail (ffmpeg failing on purpose) whose media then moves
// to a real Ceph RADOS Gateway (the video.store job): the thumbnail backlog's later try fetches
// the segment from the store, makes the picture and stores it beside the video's objects, and
// the origin serves it. Nothing is left in the scratch folder.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { recordStreamAsVideo } from '../../src/ingest/recording.ts';
import { StreamFolder } from '../../src/live/stream-folder.ts';
import { MediaPaths } from '../../src/media/media-paths.ts';
import { ThumbnailBacklog } from '../../src/media/thumbnail-backlog.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { videoKey } from '../../src/storage/media-keys.ts';
import { TestClock } from '../helpers/clock.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { probe } from '../helpers/media-tools.ts';
import { SKIP_WITHOUT_OBJECT_STORE, useObjectStore } from '../helpers/object-store.ts';
import { waitFor } from '../helpers/wait.ts';

const run = promisify(execFile);
const objectStore = useObjectStore();
const RETRY_MS = 60_000;

/** ffmpeg and ffprobe behind a switch: while `<dir>/broken` exists they fail at once. */
async function switchableFfmpeg(dir: string) {
  await fs.mkdir(dir, { recursive: true });
  const flag = path.join(dir, 'broken');
  for (const tool of ['ffmpeg', 'ffprobe']) {
    const real = (await run('sh', ['-c', `command -v ${tool}`])).stdout.trim();
    await fs.writeFile(
      path.join(dir, tool),
      `#!/bin/sh\n[ -e "${flag}" ] && { echo "${tool}: broken on purpose" >&2; exit 1; }\nexec ${real} "$@"\n`,
      { mode: 0o755 },
    );
  }
  return {
    ffmpegPath: path.join(dir, 'ffmpeg'),
    break: () => fs.writeFile(flag, ''),
    repair: () => fs.rm(flag),
  };
}

test(
  'a thumbnail that failed at publication is made and stored after the video moved to the object store',
  {
    skip: SKIP_WITHOUT_OBJECT_STORE,
  },
  async (t) => {
    const storage = await objectStore.storage(t);
    const server = await startMediaServer(t, { dialect: 'sqlite', objectStore: storage });
    const account = await server.createAccount();
    const { streams, videos } = server.services;
    const created = await server.createStream(account, { title: 'Picture after the move' });
    const stream = await streams.end((await streams.goLive(created.id)).id);
    const paths = new MediaPaths(server.dataDir);
    const dir = paths.publishDir(stream.id, 0);
    await fs.mkdir(dir, { recursive: true });
    await run('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=25:duration=4', '-c:v', 'libx264'],
      ...['-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '50'],
      ...['-f', 'hls', '-hls_time', '2', '-hls_playlist_type', 'event'],
      ...['-hls_segment_filename', path.join(dir, 'seg%05d.ts'), path.join(dir, 'live.m3u8')],
    ]);
    const publishes = await new StreamFolder(paths, stream.id).readPublishes();

    const tools = await switchableFfmpeg(path.join(server.dataDir, 'tools'));
    const clock = new TestClock();
    const logger = createLogger(process.env.DEBUG_TEST ? 'debug' : 'silent');
    const backlog = new ThumbnailBacklog({
      paths,
      ffmpegPath: tools.ffmpegPath,
      clock,
      logger,
      retryMs: RETRY_MS,
      stored: {
        storage,
        inStore: async (id) => (await videos.mediaLocation(id)) === 'object',
      },
    });
    await tools.break();
    const video = await recordStreamAsVideo(
      { videos, paths, ffmpegPath: tools.ffmpegPath, logger, thumbnailBacklog: backlog },
      stream,
      publishes,
    );
    assert.equal(backlog.size, 1, 'published without its picture');

    // The video.store job moves the media while the picture is still missing.
    await waitFor(async () => (await videos.mediaLocation(video.id)) === 'object', {
      timeoutMs: 60_000,
      what: 'the video moved to the store',
    });
    await waitFor(async () => !(await exists(paths.videoDir(video.id))), {
      what: 'the local folder removed',
    });
    const detail = (await server.request('GET', `/v1/videos/${video.id}`, { key: account.readKey })).body;
    assert.equal((await fetch(detail.thumbnail_url)).status, 404);

    // Due and still failing: kept for later, even though the folder is gone.
    clock.advance(RETRY_MS);
    await backlog.retryDue();
    assert.equal(backlog.size, 1, 'a moved video is not taken for a deleted one');

    await tools.repair();
    clock.advance(RETRY_MS);
    await backlog.retryDue();
    assert.equal(backlog.size, 0);
    const info = await storage.head(videoKey(video.id, 'thumbnail.jpg'));
    assert.ok(info && info.size > 0, 'the picture is in the store');
    const thumbnail = await fetch(detail.thumbnail_url);
    assert.equal(thumbnail.status, 200);
    assert.equal(thumbnail.headers.get('content-type'), 'image/jpeg');
    assert.equal(thumbnail.headers.get('cache-control'), 'public, max-age=86400');
    assert.equal((await probe(detail.thumbnail_url)).streams[0]!.codec_name, 'mjpeg');
    assert.deepEqual(await fs.readdir(paths.stagingRoot).catch(() => []), [], 'no scratch folder left');
  },
);

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
