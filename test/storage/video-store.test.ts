// MEDIA_STORAGE=s3 end to end, against a real Ceph RADOS Gateway: a video imported (and so
// published) gets its video.store job, which moves its media to the object store, verified, and
// removes the local folder; the origin then proxies it (ranges, HEAD, 304, cache headers) and
// ffmpeg and Chromium's hls.js play it through the origin; deleting the video leaves no object.
// With the gateway killed mid-job the job fails and is retried while the video plays from local
// disk, and the rest lands once it is back (what was stored before is not sent again).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { videosImport } from '../../src/cli/media-commands.ts';
import { loadConfig } from '../../src/config.ts';
import { findJob } from '../../src/jobs/job.repository.ts';
import type { Runtime } from '../../src/runtime.ts';
import { videoPrefix } from '../../src/storage/media-keys.ts';
import type { MediaStorage } from '../../src/storage/media-storage.ts';
import { VIDEO_STORE_JOB } from '../../src/videos/video.service.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { launchBrowser, waitUntilPlaying } from '../helpers/media-browser.ts';
import { startMediaServer, type MediaTestServer } from '../helpers/media-server.ts';
import { countVideoFrames, makeTestFile, probe } from '../helpers/media-tools.ts';
import { SKIP_WITHOUT_RADOSGW, useObjectStore } from '../helpers/object-store.ts';

const skip = SKIP_WITHOUT_RADOSGW;
const objectStore = useObjectStore({ own: true });

function runtimeOf(server: MediaTestServer): Runtime {
  const config = loadConfig({
    DATABASE_URL: server.database.url,
    DATA_DIR: server.dataDir,
    PUBLIC_URL: server.origin,
  });
  return { config, secretKey: Buffer.alloc(32, 9), services: server.services, close: async () => undefined };
}

async function importClip(
  server: MediaTestServer,
  seconds: number,
): Promise<{ videoId: string; account: { writeKey: string; readKey: string } }> {
  const account = await server.createAccount();
  const file = path.join(server.dataDir, 'clip.mp4');
  await makeTestFile(file, seconds);
  const lines: string[] = [];
  await videosImport.run(
    runtimeOf(server),
    [file, '--creator', account.userId, '--title', 'Stored clip', '--category', 'music', '--private'],
    (line) => lines.push(line),
  );
  const videoId = lines[0]!;
  assert.match(videoId, /^vid_/);
  return { videoId, account };
}

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function jobOf(server: MediaTestServer, videoId: string) {
  return findJob(server.services.database.db, VIDEO_STORE_JOB, videoId);
}

async function objectsOf(storage: MediaStorage, videoId: string) {
  const page = await storage.list(videoPrefix(videoId));
  return page.items;
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

describe('finished videos on the object store (MEDIA_STORAGE=s3)', { skip }, () => {
  for (const dialect of DIALECTS) {
    test(`an imported video is moved to the store, verified, proxied by the origin and played, and its deletion leaves no object (${dialect})`, async (t) => {
      const storage = await objectStore.storage(t);
      const server = await startMediaServer(t, { dialect, objectStore: storage });
      const { videoId, account } = await importClip(server, 7);
      const folder = path.join(server.dataDir, 'media', 'videos', videoId);

      const job = await until(
        'the video.store job',
        async () => {
          const row = await jobOf(server, videoId);
          return row?.status === 'done' || row?.status === 'failed' ? row : undefined;
        },
        60_000,
      );
      assert.equal(job.status, 'done', job.last_error ?? '');
      assert.equal(job.attempts, 1);
      assert.equal(await server.services.videos.mediaLocation(videoId), 'object');
      assert.equal(
        fs.existsSync(folder),
        false,
        'the local folder is removed once the store holds the media',
      );

      const objects = await objectsOf(storage, videoId);
      const names = objects.map((object) => object.key.slice(videoPrefix(videoId).length));
      assert.ok(names.includes('index.m3u8'));
      assert.ok(names.includes('thumbnail.jpg'));
      const segments = names.filter((name) => name.endsWith('.ts'));
      assert.ok(segments.length >= 3, `segments: ${names.join(', ')}`);

      // The imported file's original went with it, and is not served.
      assert.ok(names.includes('original'), `objects: ${names.join(', ')}`);
      assert.equal(fs.existsSync(path.join(server.dataDir, 'media', 'originals', videoId)), false);
      assert.equal((await fetch(`${server.origin}/media/videos/${videoId}/original`)).status, 404);

      // Every object, fetched through the origin, has the SHA-256 it was stored (and verified) with.
      for (const name of names.filter((file) => file !== 'original')) {
        const res = await fetch(`${server.origin}/media/videos/${videoId}/${name}`);
        assert.equal(res.status, 200, name);
        const info = await storage.head(videoPrefix(videoId) + name);
        assert.equal(sha256(new Uint8Array(await res.arrayBuffer())), info?.sha256, name);
        assert.equal(res.headers.get('etag'), `"${info?.sha256}"`);
      }

      const playlist = await fetch(`${server.origin}/media/videos/${videoId}/index.m3u8`);
      assert.equal(playlist.headers.get('content-type'), 'application/vnd.apple.mpegurl');
      assert.equal(playlist.headers.get('cache-control'), 'public, max-age=86400');
      const text = await playlist.text();
      assert.match(text, /#EXT-X-ENDLIST/);
      assert.equal((text.match(/\.ts$/gm) ?? []).length, segments.length);

      const segmentUrl = `${server.origin}/media/videos/${videoId}/${segments[1]}`;
      const whole = await fetch(segmentUrl);
      const body = new Uint8Array(await whole.arrayBuffer());
      assert.equal(whole.headers.get('content-type'), 'video/mp2t');
      assert.equal(whole.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(Number(whole.headers.get('content-length')), body.length);
      const etag = whole.headers.get('etag')!;
      assert.ok(whole.headers.get('last-modified'));

      const part = await fetch(segmentUrl, { headers: { range: 'bytes=188-1127' } });
      assert.equal(part.status, 206);
      assert.equal(part.headers.get('content-range'), `bytes 188-1127/${body.length}`);
      assert.deepEqual(new Uint8Array(await part.arrayBuffer()), body.subarray(188, 1128));
      const tail = await fetch(segmentUrl, { headers: { range: 'bytes=-100' } });
      assert.equal(tail.status, 206);
      assert.deepEqual(new Uint8Array(await tail.arrayBuffer()), body.subarray(body.length - 100));
      const past = await fetch(segmentUrl, { headers: { range: `bytes=${body.length}-` } });
      assert.equal(past.status, 416);
      assert.equal(past.headers.get('content-range'), `bytes */${body.length}`);
      await past.arrayBuffer();
      const again = await fetch(segmentUrl, { headers: { 'if-none-match': etag } });
      assert.equal(again.status, 304);
      const head = await fetch(segmentUrl, { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(Number(head.headers.get('content-length')), body.length);
      assert.equal(head.headers.get('etag'), etag);
      const missing = await fetch(`${server.origin}/media/videos/${videoId}/seg99999.ts`);
      assert.equal(missing.status, 404);
      await missing.arrayBuffer();

      // The API and the watch page know it has media; ffmpeg plays every frame through the origin.
      const video = await server.request('GET', `/v1/videos/${videoId}`, { key: account.readKey });
      assert.equal(video.status, 200);
      const playback = video.body.playback_url as string;
      assert.deepEqual((await probe(playback)).streams.map((s) => s.codec_name).sort(), ['aac', 'h264']);
      assert.equal(await countVideoFrames(playback), 7 * 25);
      const watch = await fetch(`${server.origin}/watch/${videoId}`);
      assert.equal(watch.status, 200);
      assert.match(await watch.text(), /index\.m3u8/);

      if (dialect === 'sqlite') {
        // The watch page plays it with hls.js, every request proxied from the store.
        const browser = await launchBrowser(t);
        const page = await browser.newPage();
        const pageErrors: string[] = [];
        page.on('pageerror', (error) => pageErrors.push(error.message));
        const opened = await page.goto(video.body.video_url as string);
        assert.equal(opened?.status(), 200);
        await waitUntilPlaying(page, 2);
        assert.deepEqual(pageErrors, []);
        await page.close();
      }

      const deleted = await server.request('DELETE', `/v1/videos/${videoId}`, { key: account.writeKey });
      assert.equal(deleted.status, 200);
      assert.deepEqual(await objectsOf(storage, videoId), [], 'no object remains after the deletion');
      const gone = await fetch(`${server.origin}/media/videos/${videoId}/index.m3u8`);
      assert.equal(gone.status, 404);
      await gone.arrayBuffer();
    });
  }

  test('the store killed while the job runs: the job fails and is retried while the video plays from disk; once the store is back the rest lands there, and a deletion while it is down removes the objects once it is back', async (t) => {
    const gateway = objectStore.gateway();
    // Registered first: the gateway is back before the bucket is emptied and the server stops.
    let killed = false;
    let restarted = false;
    t.after(async () => {
      if (killed && !restarted) await gateway.restart();
    });
    // The real store, killed (SIGKILL) by the job itself once it has stored two files.
    const putKeys: string[] = [];
    const real = await objectStore.storage(t);
    const storage = new Proxy(real, {
      get(target, property) {
        if (property === 'putFile') {
          return async (...args: Parameters<MediaStorage['putFile']>) => {
            if (!killed && putKeys.length === 2) {
              killed = true;
              await gateway.kill();
            }
            const result = await target.putFile(...args);
            putKeys.push(args[0]);
            return result;
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const server = await startMediaServer(t, {
      dialect: 'sqlite',
      objectStore: storage,
      storeRetryDelaysMs: [300, 600, 1200, 2000],
    });
    const { videoId, account } = await importClip(server, 5);
    const folder = path.join(server.dataDir, 'media', 'videos', videoId);

    const failing = await until(
      'a second failed attempt',
      async () => {
        const row = await jobOf(server, videoId);
        return row && row.attempts >= 2 && row.status === 'pending' && row.last_error !== null
          ? row
          : undefined;
      },
      60_000,
    );
    assert.ok(failing.attempts < 20);
    assert.ok(
      server.logs.some(
        (line) => line.includes('media job failed; it will be tried again') && line.includes(videoId),
      ),
      'each failure is logged',
    );
    // Meanwhile the video plays from its local folder.
    assert.equal(await server.services.videos.mediaLocation(videoId), 'local');
    assert.ok(fs.existsSync(path.join(folder, 'index.m3u8')));
    const playlist = await fetch(`${server.origin}/media/videos/${videoId}/index.m3u8`);
    assert.equal(playlist.status, 200);
    const first = /^(.*\.ts)$/m.exec(await playlist.text())![1]!;
    const segment = await fetch(`${server.origin}/media/videos/${videoId}/${first}`);
    assert.equal(segment.status, 200);
    const localBytes = new Uint8Array(await segment.arrayBuffer());
    assert.equal(await countVideoFrames(`${server.origin}/media/videos/${videoId}/index.m3u8`), 5 * 25);

    assert.ok(killed);
    assert.equal(putKeys.length, 2);
    await gateway.restart();
    restarted = true;
    const job = await until(
      'the job done after the store came back',
      async () => {
        const row = await jobOf(server, videoId);
        return row?.status === 'done' || row?.status === 'failed' ? row : undefined;
      },
      120_000,
    );
    assert.equal(job.status, 'done', job.last_error ?? '');
    assert.ok(job.attempts >= 3, `attempts: ${job.attempts}`);
    assert.equal(await server.services.videos.mediaLocation(videoId), 'object');
    assert.equal(fs.existsSync(folder), false);
    const names = (await objectsOf(storage, videoId)).map((o) => o.key.slice(videoPrefix(videoId).length));
    assert.ok(names.includes('index.m3u8') && names.includes(first));
    // The two files stored before the kill were found verified and not sent again.
    assert.deepEqual([...putKeys].sort(), names.map((name) => videoPrefix(videoId) + name).sort());
    const stored = await fetch(`${server.origin}/media/videos/${videoId}/${first}`);
    assert.equal(stored.status, 200);
    assert.deepEqual(new Uint8Array(await stored.arrayBuffer()), localBytes, 'nothing lost');
    assert.equal(await countVideoFrames(`${server.origin}/media/videos/${videoId}/index.m3u8`), 5 * 25);

    // Deleted while the store is down: the deletion succeeds, and its objects go once it is back.
    await gateway.kill();
    restarted = false;
    const deleted = await server.request('DELETE', `/v1/videos/${videoId}`, { key: account.writeKey });
    assert.equal(deleted.status, 200);
    assert.equal(fs.existsSync(folder), false);
    await until(
      'the purge failing while the store is down',
      async () => {
        const row = await jobOf(server, videoId);
        return row?.status === 'pending' && row.attempts >= 1 && row.last_error !== null ? row : undefined;
      },
      60_000,
    );
    await gateway.restart();
    restarted = true;
    const purge = await until(
      'the purge done',
      async () => {
        const row = await jobOf(server, videoId);
        return row?.status === 'done' || row?.status === 'failed' ? row : undefined;
      },
      120_000,
    );
    assert.equal(purge.status, 'done', purge.last_error ?? '');
    assert.deepEqual(await objectsOf(storage, videoId), [], 'no object remains after the deletion');
    const gone = await fetch(`${server.origin}/media/videos/${videoId}/index.m3u8`);
    assert.equal(gone.status, 404);
    await gone.arrayBuffer();
  });
});
