// A finished upload becomes a video through the durable media queue, with real files made by
// ffmpeg: H.264 is packaged by stream copy with its ladder, HEVC is encoded, a text file ends
// errored with its code; each video is published once and plays in Chromium. The queue takes
// back a job whose worker died, and gives up after its attempts with a reason.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { describe } from 'node:test';
import { promisify } from 'node:util';
import { createLogger } from '../../src/shared/logger.ts';
import { claimJob } from '../../src/jobs/job.repository.ts';
import { parseLadder, type TranscodeConfig } from '../../src/transcode/ladder.ts';
import { startUploadWorker } from '../../src/uploads/upload-worker.ts';
import { mediaDialects } from '../helpers/databases.ts';
import { launchBrowser, waitUntilPlaying } from '../helpers/media-browser.ts';
import { startMediaServer, type MediaTestServer } from '../helpers/media-server.ts';
import { probe } from '../helpers/media-tools.ts';
import { waitFor } from '../helpers/wait.ts';

const run = promisify(execFile);

const LADDER: TranscodeConfig = {
  mode: 'auto',
  rungs: parseLadder('360:600') ?? [],
  preset: 'ultrafast',
  cpuCores: 64,
  headroomPercent: 0,
};

async function makeVideo(file: string, codec: 'libx264' | 'libx265', seconds = 3): Promise<void> {
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc=size=1280x720:rate=25:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=330:duration=${seconds}`],
    ...['-c:v', codec, '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '50'],
    ...(codec === 'libx265' ? ['-tag:v', 'hvc1', '-x265-params', 'log-level=error'] : []),
    ...['-c:a', 'aac', '-shortest', file],
  ]);
}

/** Creates an upload for `file` and sends its bytes in one tus PATCH; returns the upload's id. */
async function uploadFile(
  server: MediaTestServer,
  key: string,
  file: string,
  title: string,
): Promise<string> {
  const data = fs.readFileSync(file);
  const created = await server.request('POST', '/v1/uploads', { key, body: { size: data.length, title } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const patch = await fetch(created.body.upload_url, {
    method: 'PATCH',
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Offset': '0',
      'Content-Type': 'application/offset+octet-stream',
    },
    body: data,
  });
  assert.equal(patch.status, 204, await patch.text());
  return created.body.id;
}

async function settled(server: MediaTestServer, key: string, id: string): Promise<any> {
  return waitFor(
    async () => {
      const { body } = await server.request('GET', `/v1/uploads/${id}`, { key });
      return body.status === 'ready' || body.status === 'errored' ? body : undefined;
    },
    { timeoutMs: 90_000, what: `upload ${id} to be ready or errored` },
  );
}

function worker(
  t: TestContext,
  server: MediaTestServer,
  options: { ffmpegPath?: string; leaseMs?: number; retryDelaysMs?: number[] } = {},
): void {
  const started = startUploadWorker({
    services: server.services,
    dataDir: server.dataDir,
    ffmpegPath: options.ffmpegPath ?? 'ffmpeg',
    transcode: LADDER,
    logger: createLogger('silent'),
    pollMs: 100,
    leaseMs: options.leaseMs,
    retryDelaysMs: options.retryDelaysMs,
  });
  t.after(() => started.stop());
}

for (const { dialect, test } of mediaDialects(
  'H.264 is copied with its ladder, HEVC is encoded, a text file errors; each video published once and playable',
)) {
  describe(`upload processing on ${dialect}`, () => {
    test('H.264 is copied with its ladder, HEVC is encoded, a text file errors; each video published once and playable', async (t) => {
      const server = await startMediaServer(t, { dialect });
      const account = await server.createAccount();
      worker(t, server);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-uploads-'));
      t.after(() => {
        fs.rmSync(dir, { recursive: true, force: true });
      });
      const h264 = path.join(dir, 'h264.mp4');
      const hevc = path.join(dir, 'hevc.mp4');
      const text = path.join(dir, 'notes.mp4');
      await Promise.all([makeVideo(h264, 'libx264'), makeVideo(hevc, 'libx265')]);
      fs.writeFileSync(text, 'Meeting notes, not a video.\n'.repeat(100));

      const ids = {
        h264: await uploadFile(server, account.writeKey, h264, 'Copied'),
        hevc: await uploadFile(server, account.writeKey, hevc, 'Encoded'),
        text: await uploadFile(server, account.writeKey, text, 'Not a video'),
      };
      const [copied, encoded, refused] = await Promise.all([
        settled(server, account.readKey, ids.h264),
        settled(server, account.readKey, ids.hevc),
        settled(server, account.readKey, ids.text),
      ]);

      assert.equal(refused.status, 'errored');
      assert.equal(refused.error.code, 'invalid_media');
      assert.match(refused.error.message, /not a video file we can read/);
      assert.equal(refused.video_id, null);

      for (const [upload, sourceCodec] of [
        [copied, 'h264'],
        [encoded, 'h264'],
      ] as const) {
        assert.equal(upload.status, 'ready', JSON.stringify(upload));
        assert.equal(upload.progress, 100);
        const video = await server.request('GET', `/v1/videos/${upload.video_id}`, { key: account.readKey });
        assert.equal(video.status, 200);
        assert.equal(video.body.source_stream_id, null);
        assert.equal(video.body.title, upload.title);
        assert.equal(video.body.duration_seconds, 3);
        // The ladder: a master naming the source rendition and 360p.
        const master = await (await fetch(video.body.playback_url)).text();
        assert.match(master, /#EXT-X-STREAM-INF/);
        const renditions = master.split('\n').filter((line) => line.endsWith('.m3u8'));
        assert.deepEqual(renditions.toSorted(), ['360p.m3u8', 'source.m3u8']);
        const sourcePlaylist = await (await fetch(new URL('source.m3u8', video.body.playback_url))).text();
        const segment = sourcePlaylist.split('\n').find((line) => line.endsWith('.ts'));
        assert.ok(segment, sourcePlaylist);
        const facts = await probe(new URL(segment, new URL('source.m3u8', video.body.playback_url)).href);
        const videoStream = facts.streams.find((stream) => stream.codec_type === 'video');
        assert.equal(videoStream?.codec_name, sourceCodec, 'browsers get H.264');
        assert.equal(videoStream.height, 720);
      }

      // Published once each, and the uploads' own events.
      const published = await server.events('video.published');
      assert.deepEqual(
        published.map((event) => event.data.id).toSorted(),
        [copied.video_id, encoded.video_id].toSorted(),
      );
      for (const event of published) assert.equal(event.data.source_stream_id, null);
      assert.equal((await server.events('upload.ready')).length, 2);
      const errored = await server.events('upload.errored');
      assert.deepEqual(
        errored.map((event) => [event.data.id, event.data.error.code]),
        [[ids.text, 'invalid_media']],
      );
      // No draft or staging folder is left behind by the refused file.
      const videos = await server.services.database.db.selectFrom('videos').select('id').execute();
      assert.equal(videos.length, 2);
      assert.deepEqual(fs.readdirSync(path.join(server.dataDir, 'media', 'staging')), []);
      // The originals are kept beside their videos, byte for byte, and go when a video is deleted.
      assert.deepEqual(
        fs.readFileSync(path.join(server.dataDir, 'media', 'originals', copied.video_id)),
        fs.readFileSync(h264),
      );
      assert.deepEqual(
        fs.readdirSync(path.join(server.dataDir, 'uploads')),
        [],
        'the refused file’s bytes are gone too',
      );

      // Both play in Chromium.
      const browser = await launchBrowser(t);
      for (const upload of [copied, encoded]) {
        const page = await browser.newPage();
        const video = await server.request('GET', `/v1/videos/${upload.video_id}`, { key: account.readKey });
        await page.goto(video.body.video_url);
        await waitUntilPlaying(page, 1);
        await page.close();
      }
      const deleted = await server.request('DELETE', `/v1/videos/${encoded.video_id}`, {
        key: account.writeKey,
      });
      assert.equal(deleted.status, 200);
      assert.equal(fs.existsSync(path.join(server.dataDir, 'media', 'originals', encoded.video_id)), false);
      assert.equal((await fetch(`${server.origin}/media/videos/${encoded.video_id}/index.m3u8`)).status, 404);
    });

    test('a job whose worker died is taken again when its lease lapses, and published once', async (t) => {
      const server = await startMediaServer(t, { dialect });
      const account = await server.createAccount();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-uploads-'));
      t.after(() => {
        fs.rmSync(dir, { recursive: true, force: true });
      });
      const file = path.join(dir, 'h264.mp4');
      await makeVideo(file, 'libx264', 2);
      const id = await uploadFile(server, account.writeKey, file, 'Survivor');

      // A worker claims the job, drafts the video, and dies (no renewal, no settlement).
      const db = server.services.database.db;
      const now = Date.now();
      const claimed = await claimJob(db, { now, leaseUntil: now + 500, leaseToken: 'dead-worker' });
      assert.equal(claimed?.subject_id, id);
      const draft = await server.services.videos.createDraft(
        { creatorId: account.userId, title: 'Survivor', sourceStreamId: null },
        (trx, row) =>
          trx
            .updateTable('uploads')
            .set({ video_id: row.id })
            .where('id', '=', id)
            .execute()
            .then(() => undefined),
      );

      worker(t, server, { leaseMs: 1000 });
      const upload = await settled(server, account.readKey, id);
      assert.equal(upload.status, 'ready');
      assert.notEqual(upload.video_id, draft.id, 'the dead attempt’s draft was dropped, not published');
      assert.equal(await server.services.videos.findAny(draft.id), undefined);
      const published = await server.events('video.published');
      assert.deepEqual(
        published.map((event) => event.data.id),
        [upload.video_id],
      );
      const job = await db.selectFrom('media_jobs').selectAll().executeTakeFirstOrThrow();
      assert.equal(job.status, 'done');
      assert.equal(job.attempts, 2, 'the dead attempt counted');
    });

    test('a job that keeps failing is given up after its attempts, and the upload says why', async (t) => {
      const server = await startMediaServer(t, { dialect, uploads: { jobAttempts: 2 } });
      const account = await server.createAccount();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-uploads-'));
      t.after(() => {
        fs.rmSync(dir, { recursive: true, force: true });
      });
      const file = path.join(dir, 'h264.mp4');
      await makeVideo(file, 'libx264', 1);
      // An ffmpeg that always fails, beside the real ffprobe: the file is fine, the encoder is not.
      const tools = path.join(dir, 'bin');
      fs.mkdirSync(tools);
      fs.writeFileSync(
        path.join(tools, 'ffmpeg'),
        '#!/bin/sh\necho "simulated encoder failure" >&2\nexit 1\n',
        {
          mode: 0o755,
        },
      );
      fs.symlinkSync(
        (await run('sh', ['-c', 'command -v ffprobe'])).stdout.trim(),
        path.join(tools, 'ffprobe'),
      );
      worker(t, server, { ffmpegPath: path.join(tools, 'ffmpeg'), retryDelaysMs: [10] });

      const id = await uploadFile(server, account.writeKey, file, 'Doomed');
      const upload = await settled(server, account.readKey, id);
      assert.equal(upload.status, 'errored');
      assert.equal(upload.error.code, 'processing_failed');
      assert.match(upload.error.message, /after 2 attempts/);
      const job = await server.services.database.db
        .selectFrom('media_jobs')
        .selectAll()
        .executeTakeFirstOrThrow();
      assert.equal(job.status, 'failed');
      assert.equal(job.attempts, 2);
      assert.match(job.last_error ?? '', /simulated encoder failure/);
      assert.deepEqual(await server.events('video.published'), []);
      const videos = await server.services.database.db.selectFrom('videos').select('id').execute();
      assert.deepEqual(videos, [], 'no draft is left');
    });
  });
}
