// client.uploadFile and client.uploads against the real service with the real media job
// runner and ffmpeg (SQLite, like the other media tests): a file by path whose connection is cut
// mid-transfer resumes at the server's offset and ends as a published video; a Blob; a file that
// is not a video ends `errored` with its code; resuming an unfinished upload by its id; and the
// plain create/get/list/cancel calls. The package is imported by its name (committed sdk/dist).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe } from 'node:test';
import { ConflictError, InvalidRequestError, Tributary } from '@tributary/sdk';
import { systemClock } from '../../src/shared/clock.ts';
import type { Dialect } from '../../src/db/dialect.ts';
import { freePort, startTestApp, type TestApp } from '../helpers/app.ts';
import { mediaDialects } from '../helpers/databases.ts';
import { makeTestFile } from '../helpers/media-tools.ts';
import { waitFor } from '../helpers/wait.ts';
import { CutProxy } from './cut-proxy.ts';

interface Setup {
  server: TestApp;
  proxy: CutProxy;
  client: Tributary;
  video: string;
}

/** The service behind a cutting proxy that PUBLIC_URL (so every upload_url) names. */
async function setUp(t: Parameters<typeof startTestApp>[0], dialect: Dialect): Promise<Setup> {
  const proxyPort = await freePort();
  const server = await startTestApp(t, {
    dialect,
    clock: systemClock,
    publicUrl: `http://127.0.0.1:${proxyPort}`,
    rateLimitPerKey: 100_000,
    uploadWorker: true,
  });
  const proxy = await CutProxy.start(t, proxyPort, server.port);
  const account = await server.createAccount();
  const client = new Tributary({ apiKey: account.writeKey, baseUrl: `http://127.0.0.1:${proxyPort}` });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-sdk-upload-'));
  t.after(() => {
    fs.rmSync(work, { recursive: true, force: true });
  });
  const video = path.join(work, 'clip.mp4');
  await makeTestFile(video, 30);
  return { server, proxy, client, video };
}

for (const { dialect, test } of mediaDialects(
  'uploadFile by path: the connection is cut mid-transfer, the upload resumes at the offset and the video is published',
)) {
  describe(`client.uploadFile on ${dialect}`, () => {
    test('uploadFile by path: the connection is cut mid-transfer, the upload resumes at the offset and the video is published', async (t) => {
      const { server, proxy, client, video } = await setUp(t, dialect);
      const size = fs.statSync(video).size;
      proxy.cutAfterBytes = Math.floor(size / 2);
      const progress: [number, number][] = [];
      const upload = await client.uploadFile(video, {
        title: 'Cut and resumed',
        category: 'travel',
        privacy: 'private',
        retryDelays: [100, 500, 1000],
        waitUntilReady: true,
        pollIntervalMs: 200,
        onProgress: (sent, total) => progress.push([sent, total]),
      });

      assert.equal(proxy.cuts, 1, 'one connection was cut');
      assert.equal(proxy.patchOffsets[0], 0);
      const resumedAt = proxy.patchOffsets.at(-1) ?? 0;
      assert.ok(proxy.patchOffsets.length >= 2 && resumedAt > 0, `resumed at ${resumedAt}, not 0`);
      assert.ok(resumedAt <= size / 2 + 1, 'never past what was sent');

      assert.equal(upload.status, 'ready');
      assert.equal(upload.size, size);
      assert.equal(upload.bytes_received, size);
      assert.equal(upload.error, null);
      assert.ok(upload.video_id);
      assert.deepEqual(progress.at(-1), [size, size]);
      assert.ok(progress.every(([, total]) => total === size));

      const madeVideo = await client.videos.get(upload.video_id);
      assert.equal(madeVideo.title, 'Cut and resumed');
      assert.equal(madeVideo.category, 'travel');
      assert.equal(madeVideo.privacy, 'private');
      const published = await server.events('video.published');
      assert.equal(published.length, 1);
    });

    test('uploadFile with a Blob returns it processing; with bytes that are not a video it ends errored with the code', async (t) => {
      const { client, video } = await setUp(t, dialect);
      const blob = new Blob([fs.readFileSync(video)], { type: 'video/mp4' });
      const processing = await client.uploadFile(blob, { title: 'From a Blob' });
      assert.ok(['processing', 'ready'].includes(processing.status), processing.status);
      assert.equal(processing.upload_url, null);
      assert.equal(processing.bytes_received, blob.size);

      const notVideo = new TextEncoder().encode('plain text, not a video\n'.repeat(200));
      const errored = await client.uploadFile(notVideo, {
        title: 'Not a video',
        waitUntilReady: true,
        pollIntervalMs: 200,
      });
      assert.equal(errored.status, 'errored');
      const reason = errored.error;
      assert.ok(reason);
      assert.equal(reason.code, 'invalid_media');
      assert.match(reason.message, /not a video file we can read/);
      assert.equal(errored.video_id, null);

      // The Blob's upload finishes too.
      const finished = await waitFor(
        async () => {
          const upload = await client.uploads.get(processing.id);
          return upload.status === 'processing' ? undefined : upload;
        },
        { what: "the Blob's upload to finish processing", intervalMs: 200 },
      );
      assert.equal(finished.status, 'ready');
    });

    test('uploads.create/get/list/cancel, resuming an unfinished upload by id, and refusals as typed errors', async (t) => {
      const { client, video } = await setUp(t, dialect);
      const size = fs.statSync(video).size;

      const created = await client.uploads.create({ size, title: 'Started elsewhere' });
      assert.equal(created.status, 'waiting');
      assert.match(created.upload_url ?? '', /\/uploads\/upl_\w+\.[\w-]+$/);
      // Half the bytes, sent by hand as another client would.
      const half = fs.readFileSync(video).subarray(0, Math.floor(size / 2));
      const patch = await fetch(created.upload_url!, {
        method: 'PATCH',
        headers: {
          'tus-resumable': '1.0.0',
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
        },
        body: half,
      });
      assert.equal(patch.status, 204);

      const progress: number[] = [];
      const resumed = await client.uploadFile(video, {
        title: 'ignored when resuming',
        resume: created.id,
        onProgress: (sent) => progress.push(sent),
      });
      assert.equal(resumed.id, created.id);
      assert.ok(['processing', 'ready'].includes(resumed.status));
      assert.ok((progress[0] ?? 0) >= half.length, 'the transfer started where the first client stopped');

      // Another file cannot continue it.
      await assert.rejects(
        client.uploadFile(new Uint8Array(10), { title: 'x', resume: created.id }),
        /is for a file of \d+ bytes; this one has 10/,
      );

      const other = await client.uploads.create({ size: 1000, title: 'To cancel' });
      const page = await client.uploads.list({ limit: 10 });
      assert.deepEqual(
        page.data.map((u) => u.id),
        [other.id, created.id],
      );
      const cancelled = await client.uploads.cancel(other.id);
      assert.equal(cancelled.status, 'cancelled');
      assert.equal(cancelled.upload_url, null);
      await assert.rejects(client.uploads.cancel(other.id), ConflictError);
      await assert.rejects(
        client.uploadFile(new Uint8Array(10), { title: '' }),
        (error: unknown) => error instanceof InvalidRequestError && error.param === 'title',
      );
    });
  });
}
