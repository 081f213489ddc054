// The adaptive-bitrate ladder end to end, with real ffmpeg and real Chromium: a 720p push is
// published as a master playlist of the copied source and the encoded rungs below it, every
// rendition's segments decode and start on keyframes at the same instants, hls.js lists every
// level and switches between them without a stall, and the recording keeps every rendition.
// SQLite only (dialects are covered by the repository tests; real-time media is slow).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { parseMediaPlaylist } from '../../src/hls/hls-playlist.ts';
import { parseMasterPlaylist } from '../../src/hls/master-playlist.ts';
import { launchBrowser } from '../helpers/media-browser.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { countVideoFrames, waitFor } from '../helpers/media-tools.ts';
import { ladderState, playLadder, push720, TEST_LADDER } from './ladder-helpers.ts';

const run = promisify(execFile);

/** The first video frame of a segment: whether it is a keyframe, and its time. */
async function firstFrame(file: string): Promise<{ key: boolean; time: number }> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_frames',
    '-read_intervals',
    '%+#1',
    '-show_entries',
    'frame=key_frame,pts_time',
    '-of',
    'csv=p=0',
    file,
  ]);
  const [key, time] = stdout.trim().split('\n')[0]?.split(',') ?? [];
  return { key: key === '1', time: Number(time) };
}

describe('adaptive bitrate, live', () => {
  test('a 720p push is a master playlist whose renditions are aligned, switchable and recorded', async (t) => {
    const server = await startMediaServer(t, {
      dialect: 'sqlite',
      reconnectWindowSeconds: 1,
      transcode: TEST_LADDER,
    });
    const account = await server.createAccount();
    const created = await server.createStream(account, { title: 'Ladder' });
    const get = async () =>
      (await server.request('GET', `/v1/streams/${created.id}`, { key: account.readKey })).body;
    const push = push720(`${created.ingest.rtmp_url}/${created.ingest.stream_key}`, 120);
    t.after(() => {
      push.stop();
    });
    await waitFor('live', async () => (await get()).status === 'live', { timeoutMs: 30_000 });

    // The master: the copied source and the rungs strictly below 720p, each fully described.
    const masterUrl = `${server.origin}/media/streams/${created.id}/index.m3u8`;
    const masterText = await (await fetch(masterUrl)).text();
    const master = parseMasterPlaylist(masterText);
    assert.deepEqual(
      master.map((variant) => [variant.uri, variant.attributes.RESOLUTION]),
      [
        ['source.m3u8', '1280x720'],
        ['480p.m3u8', '854x480'],
        ['360p.m3u8', '640x360'],
      ],
    );
    for (const variant of master) {
      assert.ok(Number(variant.attributes.BANDWIDTH) > 0, variant.uri);
      assert.ok(Number(variant.attributes['AVERAGE-BANDWIDTH']) > 0, variant.uri);
      assert.ok(Number(variant.attributes.BANDWIDTH) >= Number(variant.attributes['AVERAGE-BANDWIDTH']));
      assert.equal(variant.attributes['FRAME-RATE'], '10.000');
      assert.match(variant.attributes.CODECS ?? '', /^avc1\.[0-9a-f]{6},mp4a\.40\.2$/);
    }
    // A live rendition's playlist is never cached as if it were a segment.
    const rendition = await fetch(new URL('480p.m3u8', masterUrl));
    assert.equal(rendition.headers.get('cache-control'), 'no-cache');
    await rendition.text();
    // The encoded rungs' bandwidth is the configured one, not the source's.
    assert.ok(Number(master[2]?.attributes['AVERAGE-BANDWIDTH']) < 1_500_000);

    // hls.js in Chromium (the watch page's own copy) lists every level and plays each one it
    // is forced to, without a stall.
    const browser = await launchBrowser(t);
    const page = await browser.newPage();
    await page.goto(created.stream_url);
    await playLadder(page, masterUrl);
    const state = () => ladderState(page);
    await waitFor('three levels', async () => (await state()).levels.length === 3, { timeoutMs: 20_000 });
    // hls.js orders its levels by bandwidth, lowest first.
    assert.deepEqual((await state()).levels, [360, 480, 720]);
    await waitFor('playing', async () => (await state()).time > 1, { timeoutMs: 30_000 });
    // From here on a `waiting` is a stall (before, it was the start-up's buffering).
    await page.evaluate(() => {
      (globalThis as any).ladder.stalls = [];
    });
    for (const level of [2, 0, 1]) {
      await page.evaluate((next) => {
        (globalThis as any).ladder.hls.currentLevel = next;
      }, level);
      await waitFor(`level ${level}`, async () => (await state()).switched.at(-1) === level, {
        timeoutMs: 20_000,
      });
      const before = (await state()).time;
      await waitFor(`playing on at level ${level}`, async () => (await state()).time > before + 2, {
        timeoutMs: 20_000,
      });
    }
    const watched = await state();
    assert.ok(
      watched.stalls.every((ms) => ms < 1500),
      `stalls: ${watched.stalls.join(', ')} ms`,
    );
    assert.ok(watched.waitingFor < 1500);
    await page.close();

    // Ended: every rendition's segments decode, and start on a keyframe at the same instants.
    push.end();
    await push.exited;
    const published = await waitFor(
      'video.published',
      async () => (await server.events('video.published'))[0],
      {
        timeoutMs: 30_000,
      },
    );
    const streamDir = path.join(server.dataDir, 'media', 'streams', created.id);
    const lists = await Promise.all(
      ['source', '480p', '360p'].map(async (name) =>
        parseMediaPlaylist(await (await fetch(new URL(`${name}.m3u8`, masterUrl))).text()),
      ),
    );
    const counts = lists.map((list) => list.segments.length);
    assert.ok(
      counts.every((count) => count === counts[0] && count >= 5),
      `segments: ${counts.join(', ')}`,
    );
    for (let index = 0; index < (counts[0] ?? 0) - 1; index++) {
      const frames = await Promise.all(
        lists.map((list) => firstFrame(path.join(streamDir, list.segments[index]?.uri ?? ''))),
      );
      for (const frame of frames) assert.ok(frame.key, `segment ${index} starts on a keyframe`);
      const times = frames.map((frame) => frame.time);
      // One frame (0.1 s at 10 fps) of slack: the copied and encoded timestamps are rounded apart.
      assert.ok(
        Math.max(...times) - Math.min(...times) < 0.1,
        `segment ${index} starts at ${times.join(', ')}`,
      );
      const durations = lists.map((list) => list.segments[index]?.duration ?? 0);
      assert.ok(Math.max(...durations) - Math.min(...durations) < 0.1);
    }

    // The recording keeps every rendition under a master, each one decodes whole.
    const video = (await server.request('GET', `/v1/videos/${published.data.id}`, { key: account.readKey }))
      .body;
    const recorded = parseMasterPlaylist(await (await fetch(video.playback_url)).text());
    assert.deepEqual(
      recorded.map((variant) => variant.uri),
      ['source.m3u8', '480p.m3u8', '360p.m3u8'],
    );
    const frames = await Promise.all(
      recorded.map((variant) => countVideoFrames(new URL(variant.uri, video.playback_url).toString())),
    );
    assert.ok(
      frames.every((count) => count > 50 && Math.abs(count - (frames[0] ?? 0)) <= 10),
      frames.join(', '),
    );
  });
});
