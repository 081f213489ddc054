// One contract, two stores: the local disk and S3 (a real RADOS Gateway, see
// test/helpers/object-store.ts) pass the same tests (storage-contract.ts).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { MediaPaths } from '../../src/media/media-paths.ts';
import { readAll } from '../../src/storage/digest.ts';
import { LocalMediaStorage, localMediaRoot } from '../../src/storage/local-storage.ts';
import { videoKey, videoPrefix } from '../../src/storage/media-keys.ts';
import { SKIP_WITHOUT_OBJECT_STORE, useObjectStore } from '../helpers/object-store.ts';
import { storageContract } from './storage-contract.ts';

const objectStore = useObjectStore();

storageContract('local', (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-local-storage-'));
  t.after(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return Promise.resolve(new LocalMediaStorage(localMediaRoot(dataDir)));
});

storageContract('s3', (t) => objectStore.storage(t, { prefix: 'tributary/' }), SKIP_WITHOUT_OBJECT_STORE);

test('local: keys are the files of the media folder the app already uses', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-local-storage-'));
  t.after(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const paths = new MediaPaths(dataDir);
  const storage = new LocalMediaStorage(localMediaRoot(dataDir));
  assert.equal(storage.root, paths.root);
  const video = 'vid_Local00000000000000001';

  // A file written where the app writes it today is the object under its key, and back.
  fs.mkdirSync(paths.videoDir(video), { recursive: true });
  fs.writeFileSync(paths.videoFile(video, 'index.m3u8') ?? '', '#EXTM3U\n');
  const found = await storage.get(videoKey(video, 'index.m3u8'));
  assert.equal(found && (await readAll(found.body)).toString(), '#EXTM3U\n');
  await storage.put(videoKey(video, 'p0/seg_00001.ts'), 'segment');
  assert.equal(fs.readFileSync(paths.videoFile(video, 'p0/seg_00001.ts') ?? '', 'utf8'), 'segment');

  // No URL to hand out: the origin serves local files.
  assert.equal(await storage.presignGet(), undefined);
  assert.equal(storage.publicUrl(), undefined);

  // A put in progress is a hidden file beside its target, never listed.
  fs.writeFileSync(path.join(paths.videoDir(video), '.index.m3u8.0123.part'), 'half');
  assert.deepEqual(
    (await storage.list(videoPrefix(video))).items.map((item) => item.key),
    [videoKey(video, 'index.m3u8'), videoKey(video, 'p0/seg_00001.ts')],
  );

  // Folders go with their last object, as S3 has none; videos/ itself stays.
  await storage.delete(videoKey(video, 'p0/seg_00001.ts'));
  assert.equal(fs.existsSync(path.join(paths.videoDir(video), 'p0')), false);
  assert.equal(await storage.deletePrefix(videoPrefix(video)), 1);
  assert.equal(fs.existsSync(paths.videoDir(video)), false);
  assert.equal(fs.existsSync(paths.videosRoot), true);
});
