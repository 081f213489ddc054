// A ladder stream's folder as a restart finds it: the master names the rungs, each publish's
// rendition playlists give their segments, and a publish that lacks a rung (handed over to
// the source alone, or a later publish over budget) is filled with its source segments.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { StreamFolder } from '../../src/live/stream-folder.ts';
import { renderPlaylist } from '../../src/hls/hls-playlist.ts';
import { renderMasterPlaylist } from '../../src/hls/master-playlist.ts';
import { MediaPaths } from '../../src/media/media-paths.ts';

const media = (uris: string[]) =>
  renderPlaylist({ publishes: [uris.map((uri) => ({ duration: 2, uri }))], type: 'EVENT', ended: false });

test('a restart reads a ladder stream back, filling the rungs a publish lacks with its source', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-ladder-'));
  t.after(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const folder = new StreamFolder(new MediaPaths(dataDir), 'str_ladder');
  const variant = {
    bandwidth: 1,
    averageBandwidth: 1,
    width: 2,
    height: 2,
    frameRate: 30,
    codecs: 'avc1.64001f',
  };
  fs.mkdirSync(folder.publishDir(0), { recursive: true });
  fs.mkdirSync(folder.publishDir(1), { recursive: true });
  fs.writeFileSync(
    path.join(folder.dir, 'index.m3u8'),
    renderMasterPlaylist([
      { ...variant, uri: 'source.m3u8' },
      { ...variant, uri: '480p.m3u8' },
      { ...variant, uri: '360p.m3u8' },
    ]),
  );
  // Publish 0 made every rung; publish 1 was copy-only (its source under the old name).
  fs.writeFileSync(path.join(folder.publishDir(0), 'live_source.m3u8'), media(['seg_source_00000.ts']));
  fs.writeFileSync(path.join(folder.publishDir(0), 'live_480p.m3u8'), media(['seg_480p_00000.ts']));
  fs.writeFileSync(path.join(folder.publishDir(0), 'live_360p.m3u8'), media(['seg_360p_00000.ts']));
  fs.writeFileSync(path.join(folder.publishDir(1), 'live.m3u8'), media(['seg00000.ts', 'seg00001.ts']));

  const publishes = await folder.readPublishes();
  assert.deepEqual(
    publishes.map((publish) => publish.map((segment) => segment.uri)),
    [['p0/seg_source_00000.ts'], ['p1/seg00000.ts', 'p1/seg00001.ts']],
  );
  const ladder = await folder.readLadder(publishes.length);
  assert.ok(ladder);
  assert.deepEqual(ladder.rungs, ['480p', '360p']);
  assert.deepEqual(
    ladder.publishesOf('360p', publishes, true).map((publish) => publish.map((segment) => segment.uri)),
    [['p0/seg_360p_00000.ts'], ['p1/seg00000.ts', 'p1/seg00001.ts']],
  );
  // A single-playlist stream has no ladder.
  fs.writeFileSync(path.join(folder.dir, 'index.m3u8'), media(['p0/seg00000.ts']));
  assert.equal(await folder.readLadder(2), undefined);
});
