// A recording whose thumbnail failed on every try at publication is tried again later by the
// ingest's upkeep (src/media/thumbnail-backlog.ts): with real ffmpeg behind a switch the test
// flips (a fault on purpose), real packaged media, the real services and the media route that
// serves the thumbnail. The later failure is logged at error with the stream id once.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { describe, test } from 'node:test';
import { LiveThumbnails } from '../../src/ingest/live-thumbnails.ts';
import { recordStreamAsVideo } from '../../src/ingest/recording.ts';
import { StreamFolder } from '../../src/live/stream-folder.ts';
import { StreamLifecycle } from '../../src/ingest/stream-lifecycle.ts';
import { IngestUpkeep } from '../../src/ingest/upkeep.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { MediaPaths } from '../../src/media/media-paths.ts';
import { ThumbnailBacklog } from '../../src/media/thumbnail-backlog.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { MemoryLiveViewers } from '../../src/viewers/live-viewers.ts';
import { TestClock } from '../helpers/clock.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { probe, waitFor } from '../helpers/media-tools.ts';

const run = promisify(execFile);
const RETRY_MS = 60_000;

interface LogLine {
  level: number;
  msg: string;
  streamId?: string;
  videoId?: string;
}

/**
 * ffmpeg and ffprobe behind a switch: while `<dir>/broken` exists they fail at once, as a
 * missing or crashing tool would; otherwise they are the real ones.
 */
async function switchableTools(dir: string) {
  await fs.mkdir(dir, { recursive: true });
  for (const tool of ['ffmpeg', 'ffprobe']) {
    const real = (await run('sh', ['-c', `command -v ${tool}`])).stdout.trim();
    await fs.writeFile(
      path.join(dir, tool),
      `#!/bin/sh\n[ -e "${dir}/broken" ] && { echo "${tool}: broken on purpose" >&2; exit 1; }\nexec ${real} "$@"\n`,
      { mode: 0o755 },
    );
  }
  const flag = path.join(dir, 'broken');
  return {
    ffmpegPath: path.join(dir, 'ffmpeg'),
    break: () => fs.writeFile(flag, ''),
    repair: () => fs.rm(flag),
  };
}

for (const dialect of DIALECTS) {
  describe(`the thumbnail backlog on ${dialect}`, () => {
    test('a video published without its thumbnail gets one from a later upkeep, logged at error once', async (t) => {
      const server = await startMediaServer(t, { dialect });
      const account = await server.createAccount();
      const { streams, videos } = server.services;
      const created = await server.createStream(account, { title: 'Picture later' });
      const stream = await streams.end((await streams.goLive(created.id)).id);
      const paths = new MediaPaths(server.dataDir);

      // Four seconds of media packaged into the stream's folder, as the packager leaves it.
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

      const lines: LogLine[] = [];
      const logger = createLogger(
        'debug',
        new Writable({
          write(chunk: Buffer, _encoding, callback) {
            for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
              lines.push(JSON.parse(line));
            callback();
          },
        }),
      );
      const tools = await switchableTools(path.join(server.dataDir, 'tools'));
      const clock = new TestClock();
      const backlog = new ThumbnailBacklog({
        paths,
        ffmpegPath: tools.ffmpegPath,
        clock,
        logger,
        retryMs: RETRY_MS,
        made: (videoId) => videos.thumbnailMade(videoId),
      });
      // The upkeep as the ingest wires it, with the backlog the recording was handed to.
      const thumbnails = new LiveThumbnails({
        streams,
        paths,
        clock: systemClock,
        logger,
        ffmpegPath: tools.ffmpegPath,
        intervalMs: 20_000,
      });
      const lifecycle = new StreamLifecycle({
        streams,
        videos,
        paths,
        clock: systemClock,
        logger,
        ffmpegPath: tools.ffmpegPath,
        reconnectWindowMs: 600_000,
        cleanStopGraceMs: 600_000,
        thumbnails,
        thumbnailBacklog: backlog,
      });
      t.after(() => lifecycle.close());
      const upkeep = new IngestUpkeep({
        streams,
        viewers: new MemoryLiveViewers(systemClock),
        logger,
        lifecycle,
        thumbnails,
        thumbnailBacklog: backlog,
      });

      await tools.break();
      const video = await recordStreamAsVideo(
        { videos, paths, ffmpegPath: tools.ffmpegPath, logger, thumbnailBacklog: backlog },
        stream,
        publishes,
      );
      assert.notEqual(video.published_at, null, 'the recording is published without its picture');
      const detail = (await server.request('GET', `/v1/videos/${video.id}`, { key: account.readKey })).body;
      assert.equal((await fetch(detail.thumbnail_url)).status, 404);
      assert.equal(backlog.size, 1);
      // Recorded as pictureless: the pages' cards show their placeholder (issue 28).
      const thumbnailAt = async () =>
        (
          await server.services.database.db
            .selectFrom('videos')
            .select('thumbnail_at')
            .where('id', '=', video.id)
            .executeTakeFirstOrThrow()
        ).thumbnail_at;
      assert.equal(await thumbnailAt(), null);

      const later = (msg: string) => lines.filter((line) => line.msg === msg);
      const stillFailing = 'video thumbnail still failing; retrying every few minutes';
      // Not yet due: the upkeep leaves it alone.
      await upkeep.tick();
      await backlog.retryDue();
      assert.equal(later(stillFailing).length, 0);

      // Due, still failing: one error line with the stream's and the video's ids.
      clock.advance(RETRY_MS);
      await upkeep.tick();
      const first = await waitFor('the later try to be logged', () => later(stillFailing)[0]);
      assert.equal(first.level, 50);
      assert.equal(first.streamId, stream.id);
      assert.equal(first.videoId, video.id);

      // Failing again: at debug only, no second error line.
      clock.advance(RETRY_MS);
      await upkeep.tick();
      await waitFor('the second later try', () => later('video thumbnail still failing')[0]);
      assert.equal(later(stillFailing).length, 1);
      assert.equal(backlog.size, 1);

      // The fault passes: the next due try makes the picture, and the video's URL serves it.
      await tools.repair();
      clock.advance(RETRY_MS);
      await upkeep.tick();
      const made = await waitFor(
        'the thumbnail to be made',
        () => later('video thumbnail made on a later try')[0],
      );
      assert.equal(made.level, 30);
      assert.equal(made.streamId, stream.id);
      assert.equal(backlog.size, 0);
      const thumbnail = await fetch(detail.thumbnail_url);
      assert.equal(thumbnail.status, 200);
      assert.equal(thumbnail.headers.get('content-type'), 'image/jpeg');
      assert.equal((await probe(detail.thumbnail_url)).streams[0]!.codec_name, 'mjpeg');
      assert.notEqual(await thumbnailAt(), null, 'the cards show it now');
      // No partial file left beside it.
      assert.deepEqual(
        (await fs.readdir(paths.videoDir(video.id))).filter((name) => name.startsWith('.')),
        [],
      );
    });
  });
}
