// The real processes with MEDIA_STORAGE=s3 over a real gateway: `videos import` publishes a video
// (and enqueues its move), `tributary media-worker` moves it to the bucket, and `tributary serve
// --no-media-jobs` serves it from there: the wiring of the runtime, the worker and the server.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { freePort } from '../helpers/app.ts';
import { runCli, startCli } from '../helpers/cli.ts';
import { makeTestFile } from '../helpers/media-tools.ts';
import { SKIP_WITHOUT_OBJECT_STORE, useObjectStore } from '../helpers/object-store.ts';

const skip = SKIP_WITHOUT_OBJECT_STORE;
const objectStore = useObjectStore();

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

test(
  'media-worker moves an imported video to the bucket and serve plays it from there',
  { skip },
  async (t) => {
    const gateway = objectStore.gateway();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-serve-store-'));
    t.after(() => {
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const port = await freePort();
    const env = {
      MEDIA_STORAGE: 's3',
      S3_ENDPOINT: gateway.endpoint,
      S3_REGION: gateway.region,
      S3_BUCKET: await objectStore.freshBucket(t),
      S3_PREFIX: 'tributary/',
      S3_ACCESS_KEY_ID: gateway.accessKeyId,
      S3_SECRET_ACCESS_KEY: gateway.secretAccessKey,
      DATA_DIR: path.join(dir, 'data'),
      DATABASE_URL: path.join(dir, 'tributary.db'),
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'info',
    };
    const user = await runCli(['users', 'create', '--name', 'Ada'], env);
    assert.equal(user.code, 0, user.stderr);
    const userId = user.stdout.trim().split('\n').at(-1)!;
    const clip = path.join(dir, 'clip.mp4');
    await makeTestFile(clip, 4);
    const imported = await runCli(['videos', 'import', clip, '--creator', userId, '--title', 'Stored'], env);
    assert.equal(imported.code, 0, imported.stderr);
    const videoId = imported.stdout.trim().split('\n').at(-1)!;
    assert.match(videoId, /^vid_/);
    const folder = path.join(env.DATA_DIR, 'media', 'videos', videoId);
    assert.ok(fs.existsSync(folder));

    const worker = startCli(['media-worker'], env);
    const server = startCli(['serve', '--no-ingest', '--no-worker', '--no-media-jobs'], env);
    t.after(async () => {
      for (const child of [worker.child, server.child]) {
        if (child.exitCode !== null) continue;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    });
    await until('the worker to move the video', () => !fs.existsSync(folder), 60_000);
    // Log lines reach the pipe in batches, up to 25 ms after they are written (src/shared/logger.ts).
    await until(
      'the worker to say so',
      () => /video media stored in the object store; local folder removed/.test(worker.output()),
      5_000,
    );
    await until('serve to listen', () => server.output().includes('"msg":"listening"'), 60_000);

    const base = `http://127.0.0.1:${port}/media/videos/${videoId}`;
    const playlist = await fetch(`${base}/index.m3u8`);
    assert.equal(playlist.status, 200);
    const segment = /^(.*\.ts)$/m.exec(await playlist.text())![1]!;
    const part = await fetch(`${base}/${segment}`, { headers: { range: 'bytes=0-187' } });
    assert.equal(part.status, 206);
    assert.equal((await part.arrayBuffer()).byteLength, 188);
    assert.equal(part.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  },
);
