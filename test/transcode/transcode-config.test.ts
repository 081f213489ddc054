// The ladder's variables: defaults, a custom ladder, and every bad value reported at start.
import assert from 'node:assert/strict';
import os from 'node:os';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { planLadder } from '../../src/transcode/ladder.ts';
import { parseMasterPlaylist, renderMasterPlaylist, avcCodecString } from '../../src/hls/master-playlist.ts';

test('the ladder is on by default: 720p, 480p and 360p at veryfast, all cores less 25%', () => {
  const transcode = loadConfig({}).ingest.transcode;
  assert.deepEqual(transcode, {
    mode: 'auto',
    rungs: [
      { height: 720, videoKbps: 2800 },
      { height: 480, videoKbps: 1400 },
      { height: 360, videoKbps: 800 },
    ],
    preset: 'veryfast',
    cpuCores: os.availableParallelism(),
    headroomPercent: 25,
  });
});

test('a custom ladder is sorted, and only rungs below the source are planned', () => {
  const transcode = loadConfig({
    TRANSCODE: 'off',
    TRANSCODE_LADDER: '360:700, 1080:5000,540:1800',
    TRANSCODE_PRESET: 'faster',
    TRANSCODE_CPU_CORES: '1.5',
    TRANSCODE_HEADROOM_PERCENT: '10',
  }).ingest.transcode;
  assert.ok(transcode);
  assert.equal(transcode.mode, 'off');
  assert.deepEqual(
    transcode.rungs.map((rung) => rung.height),
    [1080, 540, 360],
  );
  assert.equal(transcode.cpuCores, 1.5);
  const plan = planLadder({ width: 1920, height: 1080 }, transcode.rungs);
  assert.deepEqual(
    plan.renditions.map((r) => [r.name, r.width, r.height, r.copy]),
    [
      ['source', 1920, 1080, true],
      ['540p', 960, 540, false],
      ['360p', 640, 360, false],
    ],
  );
});

test('bad ladder variables are all reported at once', () => {
  assert.throws(
    () =>
      loadConfig({
        TRANSCODE: 'maybe',
        TRANSCODE_LADDER: '720:2800,721:100',
        TRANSCODE_PRESET: 'warp',
        TRANSCODE_CPU_CORES: '0',
        TRANSCODE_HEADROOM_PERCENT: '95',
      }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.deepEqual(
        error.problems.map((problem) => problem.split(' ')[0]),
        [
          'TRANSCODE_LADDER',
          'TRANSCODE_CPU_CORES',
          'TRANSCODE',
          'TRANSCODE_PRESET',
          'TRANSCODE_HEADROOM_PERCENT',
        ],
      );
      return true;
    },
  );
});

test('master playlists round-trip with every attribute players choose by', () => {
  const text = renderMasterPlaylist([
    {
      uri: 'source.m3u8',
      bandwidth: 3_300_000,
      averageBandwidth: 3_100_000,
      width: 1280,
      height: 720,
      frameRate: 30,
      codecs: `${avcCodecString('High', 31)},mp4a.40.2`,
    },
  ]);
  assert.deepEqual(parseMasterPlaylist(text), [
    {
      uri: 'source.m3u8',
      attributes: {
        BANDWIDTH: '3300000',
        'AVERAGE-BANDWIDTH': '3100000',
        RESOLUTION: '1280x720',
        'FRAME-RATE': '30.000',
        CODECS: 'avc1.64001f,mp4a.40.2',
      },
    },
  ]);
});
