// No broadcast is silently lost: audio-only and video-only pushes (real ffmpeg) are recorded
// and published like any other, an audio-only one with a waveform poster; a thumbnail that
// cannot be made is logged at error and retried, and the video is published without it; and
// an end that a stopped process left half done is finished by the next start's recovery.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { describe, type TestContext } from 'node:test';
import { LiveThumbnails } from '../../src/ingest/live-thumbnails.ts';
import { recordStreamAsVideo } from '../../src/ingest/recording.ts';
import { adoptInterruptedStreams } from '../../src/ingest/restart-recovery.ts';
import { StreamFolder } from '../../src/live/stream-folder.ts';
import { StreamLifecycle } from '../../src/ingest/stream-lifecycle.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { MediaPaths } from '../../src/media/media-paths.ts';
import { THUMBNAIL_ATTEMPTS } from '../../src/media/video-publishing.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { mediaDialects } from '../helpers/databases.ts';
import { H264, pushEncoder } from '../helpers/encoder-push.ts';
import { startMediaServer, type MediaTestServer } from '../helpers/media-server.ts';
import { probe, waitFor } from '../helpers/media-tools.ts';

const run = promisify(execFile);

interface LogLine {
  level: number;
  msg: string;
  streamId?: string;
  videoId?: string;
  err?: { message: string };
}

function captureLogger() {
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
  return { lines, logger };
}

/** Ingest's restart recovery over the test app's services, as the next start runs it. */
async function restartRecovery(t: TestContext, server: MediaTestServer, ffmpegPath = 'ffmpeg') {
  const { lines, logger } = captureLogger();
  const { streams, videos } = server.services;
  const paths = new MediaPaths(server.dataDir);
  const thumbnails = new LiveThumbnails({
    streams,
    paths,
    clock: systemClock,
    logger,
    ffmpegPath,
    intervalMs: 20_000,
  });
  const lifecycle = new StreamLifecycle({
    streams,
    videos,
    paths,
    clock: systemClock,
    logger,
    ffmpegPath,
    reconnectWindowMs: 600_000,
    cleanStopGraceMs: 600_000,
    thumbnails,
  });
  t.after(() => lifecycle.close());
  await adoptInterruptedStreams({
    streams,
    paths,
    logger,
    lifecycle,
    recordings: { videos, paths, ffmpegPath, logger },
  });
  return lines;
}

/** Packages `seconds` of test media into publish 0 of a stream's folder, as a packager would. */
async function packagedPublish(paths: MediaPaths, streamId: string, seconds: number) {
  const dir = paths.publishDir(streamId, 0);
  await fs.mkdir(dir, { recursive: true });
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc=size=320x180:rate=25:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=330:duration=${seconds}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '50', '-c:a', 'aac'],
    ...['-f', 'hls', '-hls_time', '2', '-hls_playlist_type', 'event'],
    ...['-hls_segment_filename', path.join(dir, 'seg%05d.ts'), path.join(dir, 'live.m3u8')],
  ]);
  const folder = new StreamFolder(paths, streamId);
  return { folder, publishes: await folder.readPublishes() };
}

for (const { dialect, test } of mediaDialects(
  'a recording that fails on every try is left for the next start, which publishes it',
)) {
  describe(`nothing silently lost on ${dialect}`, () => {
    for (const kind of ['audio-only', 'video-only'] as const) {
      test(`${kind === 'audio-only' ? 'an' : 'a'} ${kind} broadcast goes live, is recorded and published as a video`, async (t) => {
        const server = await startMediaServer(t, { dialect, reconnectWindowSeconds: 1 });
        const account = await server.createAccount();
        const stream = await server.createStream(account, { title: `Only ${kind}` });
        const settings =
          kind === 'audio-only' ? { video: false as const } : { video: H264, audio: false as const };
        const push = pushEncoder(`${stream.ingest.rtmp_url}/${stream.ingest.stream_key}`, 6, settings);
        const live = await waitFor('live', async () => {
          const res = await server.request('GET', `/v1/streams/${stream.id}`, { key: account.readKey });
          return res.body.status === 'live' ? res.body : undefined;
        });
        assert.equal((await push.exited).code, 0);
        // The live thumbnail: a frame, or for audio only a waveform poster.
        const liveThumb = await probe(live.thumbnail_url);
        assert.equal(liveThumb.streams[0]!.codec_name, 'mjpeg');
        assert.equal(liveThumb.streams[0]!.width, 640);

        const published = await waitFor(
          'video.published',
          async () => (await server.events('video.published'))[0],
          {
            timeoutMs: 20_000,
          },
        );
        const video = await server.request('GET', `/v1/videos/${published.data.id}`, {
          key: account.readKey,
        });
        assert.equal(video.status, 200);
        assert.equal(video.body.source_stream_id, stream.id);
        assert.ok(Math.abs(video.body.duration_seconds - 6) <= 2, `duration ${video.body.duration_seconds}`);
        const media = await probe(video.body.playback_url);
        const codecs = media.streams.map((s) => s.codec_name).sort();
        assert.deepEqual(codecs, kind === 'audio-only' ? ['aac'] : ['h264']);
        const poster = await probe(video.body.thumbnail_url);
        assert.equal(poster.streams[0]!.codec_name, 'mjpeg');
        assert.deepEqual([poster.streams[0]!.width, poster.streams[0]!.height], [640, 360]);
        const errors = server.logs.map((line) => JSON.parse(line)).filter((line) => line.level >= 50);
        assert.deepEqual(errors, [], 'nothing failed along the way');
      });
    }

    test('a thumbnail that cannot be made is retried and logged; the recording is published without it', async (t) => {
      const server = await startMediaServer(t, { dialect });
      const account = await server.createAccount();
      const created = await server.createStream(account, { title: 'Pictureless' });
      const stream = await server.services.streams.end((await server.services.streams.goLive(created.id)).id);
      const paths = new MediaPaths(server.dataDir);
      const { publishes } = await packagedPublish(paths, stream.id, 4);
      const { lines, logger } = captureLogger();
      // An ffmpeg (and ffprobe beside it) that is not there: every thumbnail attempt fails.
      const broken = path.join(server.dataDir, 'missing-tools', 'ffmpeg');
      const video = await recordStreamAsVideo(
        { videos: server.services.videos, paths, ffmpegPath: broken, logger },
        stream,
        publishes,
      );
      assert.notEqual(video.published_at, null, 'the recording is published');
      const failures = lines.filter((line) => line.msg.startsWith('video thumbnail failed'));
      assert.equal(failures.length, THUMBNAIL_ATTEMPTS, 'tried, and retried');
      for (const line of failures) {
        assert.equal(line.level, 50);
        assert.equal(line.streamId, stream.id);
        assert.equal(line.videoId, video.id);
      }
      assert.equal(failures.at(-1)!.msg, 'video thumbnail failed; publishing the video without one');
      const read = await server.request('GET', `/v1/videos/${video.id}`, { key: account.readKey });
      assert.equal(read.status, 200);
      const measured = await probe(read.body.playback_url);
      assert.ok(Math.abs(measured.durationSeconds - 4) <= 1);
      assert.equal((await server.events('video.published')).length, 1);
    });

    test('the next start finishes an end a stopped process left half done', async (t) => {
      const server = await startMediaServer(t, { dialect });
      const account = await server.createAccount();
      const { streams, videos } = server.services;
      const paths = new MediaPaths(server.dataDir);

      // Stopped after the playlist was finished, before the stream was ended.
      const unended = await streams.goLive((await server.createStream(account, { title: 'Unended' })).id);
      const first = await packagedPublish(paths, unended.id, 4);
      await first.folder.writePlaylist(first.publishes, true);
      // Stopped after the stream ended and its draft was made, with the media half staged.
      const ended = await streams.end(
        (await streams.goLive((await server.createStream(account, { title: 'Drafted' })).id)).id,
      );
      const second = await packagedPublish(paths, ended.id, 4);
      await second.folder.writePlaylist(second.publishes, true);
      const draft = await videos.createDraft({
        creatorId: ended.creator_id,
        title: ended.title,
        sourceStreamId: ended.id,
      });
      await fs.mkdir(paths.videoStagingDir(draft.id), { recursive: true });
      await fs.writeFile(path.join(paths.videoStagingDir(draft.id), 'index.m3u8'), '#EXTM3U\n');
      const before = await server.request('GET', '/v1/videos', { key: account.readKey });
      assert.deepEqual(before.body.data, [], 'hidden until recovery');

      const lines = await restartRecovery(t, server);
      assert.equal((await streams.get(unended.id)).status, 'ended');
      assert.equal((await server.events('stream.ended')).filter((e) => e.data.id === unended.id).length, 1);
      const publishedEvents = await server.events('video.published');
      assert.deepEqual(
        publishedEvents.map((e) => e.data.source_stream_id).sort(),
        [unended.id, ended.id].sort(),
      );
      assert.equal(
        publishedEvents.find((e) => e.data.source_stream_id === ended.id)!.data.id,
        draft.id,
        'the draft itself is finished, not replaced',
      );
      for (const event of publishedEvents) {
        const video = await server.request('GET', `/v1/videos/${event.data.id}`, { key: account.readKey });
        assert.equal(video.status, 200);
        assert.ok(Math.abs((await probe(video.body.playback_url)).durationSeconds - 4) <= 1);
        assert.equal((await probe(video.body.thumbnail_url)).streams[0]!.codec_name, 'mjpeg');
      }
      assert.equal(
        lines.filter((line) => line.msg === 'recording a restart interrupted published as a video').length,
        2,
      );
      assert.deepEqual(
        lines.filter((line) => line.level >= 50),
        [],
      );

      // A later start finds nothing more to do: no second video.
      await restartRecovery(t, server);
      assert.equal((await server.events('video.published')).length, 2);
      const after = await server.request('GET', '/v1/videos', { key: account.readKey });
      assert.equal(after.body.data.length, 2);
    });

    test('a recording that fails on every try is left for the next start, which publishes it', async (t) => {
      const server = await startMediaServer(t, { dialect, reconnectWindowSeconds: 1 });
      const account = await server.createAccount();
      const stream = await server.createStream(account, { title: 'Second chance' });
      const videos = server.services.videos;
      const publishDraft = videos.publishDraft.bind(videos);
      videos.publishDraft = async () => {
        throw new Error('database unreachable');
      };
      const push = pushEncoder(`${stream.ingest.rtmp_url}/${stream.ingest.stream_key}`, 4);
      assert.equal((await push.exited).code, 0);
      await waitFor(
        'the last failed try',
        () =>
          server.logs.some((line) => line.includes('recording failed; it is tried again at the next start')),
        { timeoutMs: 20_000 },
      );
      const failures = server.logs
        .map((line) => JSON.parse(line))
        .filter((line) => line.msg.startsWith('recording failed'));
      assert.equal(failures.length, 3);
      for (const line of failures) {
        assert.equal(line.level, 50);
        assert.equal(line.streamId, stream.id);
      }
      assert.equal((await server.events('video.published')).length, 0);

      videos.publishDraft = publishDraft;
      await restartRecovery(t, server);
      const published = await server.events('video.published');
      assert.equal(published.length, 1);
      assert.equal(published[0]!.data.source_stream_id, stream.id);
      const list = await server.request('GET', '/v1/videos', { key: account.readKey });
      assert.equal(list.body.data.length, 1);
    });
  });
}
