// What every MediaStorage promises, as tests: storage-contract.test.ts runs them on the local
// store and on the S3 store over a real gateway, so the two cannot drift apart.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { test, type TestContext } from 'node:test';
import { readAll, sha256Of } from '../../src/storage/digest.ts';
import type { MediaStorage } from '../../src/storage/media-storage.ts';
import { videoKey, videoPrefix } from '../../src/storage/media-keys.ts';
import { StorageError } from '../../src/storage/storage-errors.ts';
import { verifyStored } from '../../src/storage/verify.ts';

export type MakeStorage = (t: TestContext) => Promise<MediaStorage>;

const VIDEO = 'vid_Contract000000000000001';
const OTHER = 'vid_Contract000000000000002';

function isStorageError(kind: StorageError['kind'], retryable = false) {
  return (error: unknown) => {
    assert.ok(error instanceof StorageError, `a StorageError, not ${String(error)}`);
    assert.equal(error.kind, kind, error.message);
    assert.equal(error.retryable, retryable);
    return true;
  };
}

async function text(storage: MediaStorage, key: string): Promise<string | undefined> {
  const found = await storage.get(key);
  return found ? (await readAll(found.body)).toString() : undefined;
}

async function allKeys(storage: MediaStorage, prefix: string, limit?: number): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await storage.list(prefix, {
      ...(cursor === undefined ? {} : { cursor }),
      ...(limit ? { limit } : {}),
    });
    if (limit !== undefined) assert.ok(page.items.length <= limit, 'a page holds at most the limit');
    keys.push(...page.items.map((item) => item.key));
    cursor = page.cursor;
  } while (cursor !== undefined);
  return keys;
}

export function storageContract(name: string, make: MakeStorage, skip: string | false = false): void {
  test(`${name}: put, head and get a small body; missing objects are undefined`, { skip }, async (t) => {
    const storage = await make(t);
    const key = videoKey(VIDEO, 'index.m3u8');
    assert.equal(await storage.head(key), undefined);
    assert.equal(await storage.get(key), undefined);
    const body = '#EXTM3U\n#EXT-X-VERSION:3\n';
    const put = await storage.put(key, body, { contentType: 'application/vnd.apple.mpegurl' });
    assert.deepEqual(put, { key, size: body.length, sha256: sha256Of(body) });
    const info = await storage.head(key);
    assert.ok(info);
    assert.equal(info.key, key);
    assert.equal(info.size, body.length);
    assert.match(info.etag, /^"[^"]+"$/);
    assert.ok(Math.abs(info.lastModified.getTime() - Date.now()) < 120_000, 'last-modified is about now');
    const found = await storage.get(key);
    assert.ok(found);
    assert.equal(found.size, body.length);
    assert.equal(found.length, body.length);
    assert.equal(found.range, undefined);
    assert.equal((await readAll(found.body)).toString(), body);

    // A put replaces the object whole.
    await storage.put(key, Buffer.from('#EXTM3U\n'));
    assert.equal(await text(storage, key), '#EXTM3U\n');
    assert.equal((await storage.head(key))?.size, 8);
  });

  test(`${name}: a stream and a file are stored with their size and SHA-256`, { skip }, async (t) => {
    const storage = await make(t);
    const chunks = Array.from({ length: 20 }, () => randomBytes(10_000));
    const whole = Buffer.concat(chunks);
    const put = await storage.put(videoKey(VIDEO, 'seg_00001.ts'), Readable.from(chunks));
    assert.equal(put.size, whole.length);
    assert.equal(put.sha256, sha256Of(whole));
    const found = await storage.get(put.key);
    assert.ok(found);
    assert.ok((await readAll(found.body)).equals(whole));

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-contract-'));
    t.after(() => {
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const file = path.join(dir, 'thumbnail.jpg');
    const jpeg = randomBytes(70_000);
    fs.writeFileSync(file, jpeg);
    const fromFile = await storage.putFile(videoKey(VIDEO, 'thumbnail.jpg'), file, {
      contentType: 'image/jpeg',
    });
    assert.deepEqual(fromFile, {
      key: videoKey(VIDEO, 'thumbnail.jpg'),
      size: jpeg.length,
      sha256: sha256Of(jpeg),
    });
    await verifyStored(
      storage,
      fromFile.key,
      { size: jpeg.length, sha256: sha256Of(jpeg) },
      { readBack: true },
    );
    await assert.rejects(
      verifyStored(storage, fromFile.key, { size: jpeg.length, sha256: sha256Of('other bytes') }),
      isStorageError('mismatch'),
    );
    await assert.rejects(
      verifyStored(storage, fromFile.key, { size: jpeg.length + 1, sha256: sha256Of(jpeg) }),
      isStorageError('mismatch'),
    );
    await assert.rejects(
      verifyStored(storage, videoKey(VIDEO, 'none.jpg'), { size: 1, sha256: sha256Of('x') }),
      isStorageError('not_found'),
    );
    await assert.rejects(
      storage.putFile(videoKey(VIDEO, 'gone.ts'), path.join(dir, 'no-such-file')),
      isStorageError('not_found'),
    );
    assert.equal(await storage.head(videoKey(VIDEO, 'gone.ts')), undefined);
  });

  test(
    `${name}: a stream whose SHA-256 is not the one declared is refused and not kept`,
    { skip },
    async (t) => {
      const storage = await make(t);
      const key = videoKey(VIDEO, 'seg_00002.ts');
      await assert.rejects(
        storage.put(key, Readable.from([Buffer.from('what was sent')]), {
          sha256: sha256Of('what was meant'),
        }),
        isStorageError('mismatch'),
      );
      assert.equal(await storage.head(key), undefined);
      const meant = Buffer.from('what was meant');
      const put = await storage.put(key, Readable.from([meant]), { sha256: sha256Of(meant) });
      assert.equal(put.sha256, sha256Of(meant));
    },
  );

  test(`${name}: an aborted put stores nothing`, { skip }, async (t) => {
    const storage = await make(t);
    const key = videoKey(VIDEO, 'seg_00004.ts');
    const controller = new AbortController();
    // A body that gives one piece and then stalls; the put is aborted once it asks for more.
    let given = false;
    const body = new Readable({
      read() {
        if (given) controller.abort();
        else this.push(Buffer.alloc(1000, 1));
        given = true;
      },
    });
    await assert.rejects(storage.put(key, body, { signal: controller.signal }), isStorageError('aborted'));
    assert.equal(await storage.head(key), undefined);
    assert.deepEqual((await storage.list(videoPrefix(VIDEO))).items, []);
  });

  test(`${name}: byte ranges`, { skip }, async (t) => {
    const storage = await make(t);
    const key = videoKey(VIDEO, 'seg_00003.ts');
    const bytes = randomBytes(1000);
    await storage.put(key, bytes);
    const read = async (start: number, end?: number) => {
      const found = await storage.get(key, { range: { start, ...(end === undefined ? {} : { end }) } });
      assert.ok(found);
      return { found, bytes: await readAll(found.body) };
    };
    const middle = await read(100, 199);
    assert.ok(middle.bytes.equals(bytes.subarray(100, 200)));
    assert.deepEqual(middle.found.range, { start: 100, end: 199 });
    assert.equal(middle.found.length, 100);
    assert.equal(middle.found.size, 1000, 'size is the whole object');
    const open = await read(990);
    assert.ok(open.bytes.equals(bytes.subarray(990)));
    assert.deepEqual(open.found.range, { start: 990, end: 999 });
    const past = await read(998, 5000);
    assert.ok(past.bytes.equals(bytes.subarray(998)), 'an end past the object is cut to it');
    assert.deepEqual(past.found.range, { start: 998, end: 999 });
    await assert.rejects(storage.get(key, { range: { start: 1000 } }), isStorageError('invalid_range'));
  });

  test(`${name}: list pages through a prefix in key order`, { skip }, async (t) => {
    const storage = await make(t);
    const files = [
      'index.m3u8',
      'thumbnail.jpg',
      '720p/index.m3u8',
      '720p/seg_00001.ts',
      '720p/seg_00002.ts',
    ];
    files.push(...Array.from({ length: 9 }, (_, i) => `source/seg_${String(i).padStart(5, '0')}.ts`));
    for (const file of files) await storage.put(videoKey(VIDEO, file), file);
    await storage.put(videoKey(OTHER, 'index.m3u8'), 'other');
    const expected = files.map((file) => videoKey(VIDEO, file)).sort();
    for (const limit of [1, 4, 1000]) {
      assert.deepEqual(await allKeys(storage, videoPrefix(VIDEO), limit), expected, `pages of ${limit}`);
    }
    const first = await storage.list(videoPrefix(VIDEO), { limit: 4 });
    assert.equal(first.items.length, 4);
    assert.ok(first.cursor !== undefined);
    assert.deepEqual(
      first.items.map((item) => item.size),
      first.items.map((item) => item.key.slice(videoPrefix(VIDEO).length).length),
    );
    assert.deepEqual(
      await allKeys(storage, `${videoPrefix(VIDEO)}720p/`),
      expected.filter((k) => k.includes('/720p/')),
    );
    assert.deepEqual(
      await allKeys(storage, 'videos/vid_Contract'),
      [...expected, videoKey(OTHER, 'index.m3u8')].sort(),
    );
    assert.deepEqual(await allKeys(storage, 'videos/vid_Nothing/'), []);
  });

  test(`${name}: delete one object, and a prefix leaving nothing under it`, { skip }, async (t) => {
    const storage = await make(t);
    const files = ['index.m3u8', '720p/index.m3u8', '720p/seg_00001.ts', 'thumbnail.jpg'];
    for (const file of files) await storage.put(videoKey(VIDEO, file), file);
    await storage.put(videoKey(OTHER, 'index.m3u8'), 'kept');

    await storage.delete(videoKey(VIDEO, 'thumbnail.jpg'));
    assert.equal(await storage.head(videoKey(VIDEO, 'thumbnail.jpg')), undefined);
    await storage.delete(videoKey(VIDEO, 'thumbnail.jpg')); // not there: not an error

    assert.equal(await storage.deletePrefix(videoPrefix(VIDEO)), 3);
    assert.deepEqual(await allKeys(storage, videoPrefix(VIDEO)), []);
    assert.equal(await storage.head(videoKey(VIDEO, '720p/index.m3u8')), undefined);
    assert.equal(await text(storage, videoKey(OTHER, 'index.m3u8')), 'kept', 'another video is untouched');
    assert.equal(await storage.deletePrefix(videoPrefix(VIDEO)), 0);

    // Only whole segments: a prefix must end in "/", and never be everything.
    for (const bad of ['', '/', 'videos/vid_Contract', 'videos//', '../videos/']) {
      await assert.rejects(storage.deletePrefix(bad), isStorageError('rejected'), JSON.stringify(bad));
    }
    assert.equal(await text(storage, videoKey(OTHER, 'index.m3u8')), 'kept');
  });

  test(`${name}: keys are relative paths of plain segments`, { skip }, async (t) => {
    const storage = await make(t);
    for (const bad of [
      '',
      '/videos/a',
      'videos//a',
      'videos/../secret.key',
      '.hidden',
      'videos/a/',
      'a b',
      'videos/a\\b',
    ]) {
      await assert.rejects(storage.put(bad, 'x'), isStorageError('rejected'), JSON.stringify(bad));
      await assert.rejects(storage.head(bad), isStorageError('rejected'), JSON.stringify(bad));
    }
    await assert.rejects(storage.list('../'), isStorageError('rejected'));
  });

  test(`${name}: check() writes, reads back and deletes, leaving nothing`, { skip }, async (t) => {
    const storage = await make(t);
    const result = await storage.check();
    assert.ok(result.elapsedMs >= 0);
    assert.deepEqual(await allKeys(storage, 'storage-check/'), []);
  });
}
