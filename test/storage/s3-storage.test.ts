// The S3 store against a real S3 implementation (Ceph's RADOS Gateway, see
// test/helpers/object-store.ts): what the shared contract (storage-contract.test.ts) does not
// cover because only S3 has it, or only S3 can get it wrong.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import {
  CreateMultipartUploadCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { digestFile, readAll } from '../../src/storage/digest.ts';
import { videoKey, videoPrefix } from '../../src/storage/media-keys.ts';
import { verifyStored } from '../../src/storage/verify.ts';
import { SKIP_WITHOUT_OBJECT_STORE, useObjectStore } from '../helpers/object-store.ts';
import { waitFor } from '../helpers/wait.ts';

const skip = SKIP_WITHOUT_OBJECT_STORE;
const objectStore = useObjectStore();
const MIB = 1024 * 1024;
const VIDEO = 'vid_S3Storage00000000000001';

function tempDir(t: TestContext): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-s3-'));
  t.after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** A file of random bytes written 1 MiB at a time (never whole in memory). */
function randomFile(file: string, bytes: number): void {
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(MIB);
  for (let written = 0; written < bytes; written += chunk.length) {
    randomFillSync(chunk);
    fs.writeSync(fd, chunk, 0, Math.min(chunk.length, bytes - written));
  }
  fs.closeSync(fd);
}

test('the gateway started (or TEST_S3_ENDPOINT was given)', { skip }, (t) => {
  const gateway = objectStore.gateway();
  t.diagnostic(
    gateway.own ? `radosgw started in ${Math.round(gateway.startMs)} ms` : `using ${gateway.endpoint}`,
  );
});

test(
  'an 80 MiB file goes up in parts, streamed (never read whole), and is verified by size and SHA-256',
  { skip },
  async (t) => {
    const storage = await objectStore.storage(t, { prefix: 'media/' });
    const file = path.join(tempDir(t), 'original.mp4');
    const size = 80 * MIB;
    randomFile(file, size);
    const expected = await digestFile(file);
    assert.equal(expected.size, size);

    const key = videoKey(VIDEO, 'original');
    const objectKey = `media/${key}`;

    // Streamed, not read whole first: the file reaches putFile through a pipe, and half-way the
    // feeding stops until the store holds a finished part. A put that read the whole body before
    // sending would wait for ever there.
    const fifo = path.join(path.dirname(file), 'pipe');
    execFileSync('mkfifo', [fifo]);
    const streamed = storage.putFile(key, fifo, { contentType: 'video/mp4', sha256: expected.sha256 });
    const client = objectStore.client();
    const partsAtStore = async () => {
      const uploads = await client.send(
        new ListMultipartUploadsCommand({ Bucket: storage.bucket, Prefix: objectKey }),
      );
      const uploadId = uploads.Uploads?.[0]?.UploadId;
      if (uploadId === undefined) return 0;
      const parts = await client.send(
        new ListPartsCommand({ Bucket: storage.bucket, Key: objectKey, UploadId: uploadId }),
      );
      return parts.Parts?.length ?? 0;
    };
    const pipe = fs.createWriteStream(fifo);
    let fed = 0;
    try {
      for await (const chunk of fs.createReadStream(file, { highWaterMark: MIB })) {
        if (!pipe.write(chunk)) await once(pipe, 'drain');
        fed += (chunk as Buffer).length;
        if (fed === size / 2) {
          const parts = await waitFor(
            async () => {
              const stored = await partsAtStore();
              return stored > 0 && stored;
            },
            { what: 'a part stored while half the file was not yet read' },
          );
          t.diagnostic(`${parts} parts of 8 MiB stored with 40 MiB of the file still unread`);
        }
      }
    } finally {
      // On a failure too: the put then reads the end of its body and settles.
      pipe.end();
    }
    assert.deepEqual(await streamed, { key, size, sha256: expected.sha256 });

    // Throughput with the defaults, the upload alone (the SHA-256 given, so the file is read once).
    const started = performance.now();
    const put = await storage.putFile(key, file, { contentType: 'video/mp4', sha256: expected.sha256 });
    const seconds = (performance.now() - started) / 1000;
    t.diagnostic(
      `80 MiB multipart put (parts of 8 MiB, 4 at a time): ${seconds.toFixed(2)} s, ${(size / MIB / seconds).toFixed(1)} MiB/s`,
    );
    assert.deepEqual(put, { key, size, sha256: expected.sha256 });

    const info = await storage.head(key);
    assert.ok(info);
    assert.equal(info.size, size);
    assert.equal(info.sha256, expected.sha256, 'the SHA-256 is stored with the object');
    assert.equal(info.contentType, 'video/mp4');
    // A multipart object's ETag is "<md5 of the parts' md5s>-<parts>", never the body's MD5.
    assert.match(info.etag, /^"[0-9a-f]{32}-10"$/);

    const verifyStarted = performance.now();
    await verifyStored(storage, key, expected, { readBack: true });
    t.diagnostic(`read back and hashed in ${((performance.now() - verifyStarted) / 1000).toFixed(2)} s`);

    // A range across the boundary of parts 1 and 2 (8 MiB each).
    const found = await storage.get(key, { range: { start: 8 * MIB - 10, end: 8 * MIB + 9 } });
    assert.ok(found);
    const fd = fs.openSync(file, 'r');
    const slice = Buffer.alloc(20);
    fs.readSync(fd, slice, 0, 20, 8 * MIB - 10);
    fs.closeSync(fd);
    assert.ok((await readAll(found.body)).equals(slice));
    assert.equal(found.size, size);
  },
);

test('keys are stored below S3_PREFIX, and listed without it', { skip }, async (t) => {
  const storage = await objectStore.storage(t, { prefix: 'site-a/media/' });
  await storage.put(videoKey(VIDEO, 'index.m3u8'), '#EXTM3U\n');
  const raw = await objectStore.client().send(new ListObjectsV2Command({ Bucket: storage.bucket }));
  assert.deepEqual(
    raw.Contents?.map((object) => object.Key),
    [`site-a/media/videos/${VIDEO}/index.m3u8`],
  );
  assert.deepEqual(
    (await storage.list(videoPrefix(VIDEO))).items.map((item) => item.key),
    [videoKey(VIDEO, 'index.m3u8')],
  );
  // Another prefix in the same bucket sees nothing of it.
  const other = await objectStore.storage(t, { bucket: storage.bucket, prefix: 'site-b/' });
  assert.deepEqual((await other.list('')).items, []);
  assert.equal(await other.deletePrefix(videoPrefix(VIDEO)), 0);
  assert.ok(await storage.head(videoKey(VIDEO, 'index.m3u8')));
});

test('deleting a prefix also aborts multipart uploads left unfinished under it', { skip }, async (t) => {
  const storage = await objectStore.storage(t, { prefix: 'p/' });
  const client = objectStore.client();
  await storage.put(videoKey(VIDEO, 'index.m3u8'), '#EXTM3U\n');
  const left = await client.send(
    new CreateMultipartUploadCommand({ Bucket: storage.bucket, Key: `p/${videoKey(VIDEO, 'original')}` }),
  );
  await client.send(
    new UploadPartCommand({
      Bucket: storage.bucket,
      Key: `p/${videoKey(VIDEO, 'original')}`,
      UploadId: left.UploadId,
      PartNumber: 1,
      Body: Buffer.alloc(5 * MIB, 1),
    }),
  );
  assert.equal(await storage.deletePrefix(videoPrefix(VIDEO)), 1);
  const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: storage.bucket }));
  assert.deepEqual(uploads.Uploads ?? [], []);
  const objects = await client.send(new ListObjectsV2Command({ Bucket: storage.bucket }));
  assert.deepEqual(objects.Contents ?? [], []);
});

test(
  'more than 1000 objects under a prefix are listed in pages and deleted in batches',
  { skip },
  async (t) => {
    const storage = await objectStore.storage(t);
    const keys = Array.from({ length: 1203 }, (_, i) =>
      videoKey(VIDEO, `seg_${String(i).padStart(5, '0')}.ts`),
    );
    // 16 at a time: the gateway's threads, not the test, bound how fast this goes.
    for (let i = 0; i < keys.length; i += 16) {
      await Promise.all(keys.slice(i, i + 16).map((key) => storage.put(key, key)));
    }
    const first = await storage.list(videoPrefix(VIDEO));
    assert.equal(first.items.length, 1000);
    assert.ok(first.cursor !== undefined);
    const second = await storage.list(videoPrefix(VIDEO), { cursor: first.cursor });
    assert.equal(second.items.length, 203);
    assert.equal(second.cursor, undefined);
    assert.deepEqual(
      [...first.items, ...second.items].map((item) => item.key),
      keys,
    );
    assert.equal(await storage.deletePrefix(videoPrefix(VIDEO)), 1203);
    assert.deepEqual((await storage.list('')).items, []);
  },
);

test(
  'a presigned GET is fetched with plain fetch, ranges included, until it expires',
  { skip },
  async (t) => {
    const storage = await objectStore.storage(t, { prefix: 'media/' });
    const key = videoKey(VIDEO, '720p/seg_00001.ts');
    const bytes = Buffer.alloc(4096);
    randomFillSync(bytes);
    await storage.put(key, bytes, { contentType: 'video/mp2t' });

    const url = await storage.presignGet(key, { expiresInSeconds: 60 });
    assert.match(url, /X-Amz-Signature=/);
    const whole = await fetch(url);
    assert.equal(whole.status, 200);
    assert.equal(whole.headers.get('content-type'), 'video/mp2t');
    assert.ok(Buffer.from(await whole.arrayBuffer()).equals(bytes));

    const ranged = await fetch(url, { headers: { Range: 'bytes=100-199' } });
    assert.equal(ranged.status, 206);
    assert.ok(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(100, 200)));

    const typed = await storage.presignGet(key, {
      responseContentType: 'application/octet-stream',
      responseCacheControl: 'private, max-age=60',
    });
    const answer = await fetch(typed);
    await answer.arrayBuffer();
    assert.equal(answer.headers.get('content-type'), 'application/octet-stream');
    assert.equal(answer.headers.get('cache-control'), 'private, max-age=60');

    // Without the signature, or with it altered, the bucket is not readable.
    const unsigned = new URL(url);
    unsigned.search = '';
    assert.equal((await fetch(unsigned)).status, 403);
    const altered = new URL(url);
    altered.searchParams.set('X-Amz-Signature', '0'.repeat(64));
    assert.equal((await fetch(altered)).status, 403);

    const shortLived = await storage.presignGet(key, { expiresInSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    assert.equal((await fetch(shortLived)).status, 403, 'an expired URL is refused');
  },
);

test('publicUrl is S3_PUBLIC_URL and the whole key, only when configured', { skip }, async (t) => {
  const plain = await objectStore.storage(t, { prefix: 'media/' });
  assert.equal(plain.publicUrl(videoKey(VIDEO, 'index.m3u8')), undefined);
  const cdn = await objectStore.storage(t, {
    bucket: plain.bucket,
    prefix: 'media/',
    publicUrl: 'https://cdn.example.com/base',
  });
  assert.equal(
    cdn.publicUrl(videoKey(VIDEO, '720p/index.m3u8')),
    `https://cdn.example.com/base/media/videos/${VIDEO}/720p/index.m3u8`,
  );
});

test('check() writes, reads back and deletes below the prefix', { skip }, async (t) => {
  const storage = await objectStore.storage(t, { prefix: 'media/' });
  const result = await storage.check();
  t.diagnostic(`check took ${result.elapsedMs.toFixed(0)} ms`);
  const raw = await objectStore.client().send(new ListObjectsV2Command({ Bucket: storage.bucket }));
  assert.deepEqual(raw.Contents ?? [], []);
});
