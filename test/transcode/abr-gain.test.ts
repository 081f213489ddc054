// A stream started during a CPU spike gains its ladder once the spike is over, with real ffmpeg
// on the real server and Chromium watching: the publish starts copy-only (no_cpu_room) while
// the master already names the rungs, filled with the source; seconds after the spike ends
// the media goes, from a keyframe, to a packager that encodes them, the creator sees the
// decision change, and hls.js, playing all along from the master it loaded first, switches to
// an encoded rendition without a stall. The machine's load is read from a /proc/stat of this
// test's own processes, so other work on a shared machine does not decide the outcome, and
// the spike is injected into it (two cores busy, exactly). SQLite only.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseMasterPlaylist } from '../../src/hls/master-playlist.ts';
import { launchBrowser } from '../helpers/media-browser.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { waitFor } from '../helpers/media-tools.ts';
import { InjectedSpike, ownTreeProc } from '../helpers/own-tree-proc.ts';
import { ladderState, playLadder, push720, TEST_LADDER } from './ladder-helpers.ts';

describe('adaptive bitrate, gaining the ladder', () => {
  test('a stream started during a CPU spike gains its renditions when the spike ends', async (t) => {
    // Two cores' worth of other work: more than the budget's 1.5 cores leave room for.
    const spike = new InjectedSpike(2);
    const server = await startMediaServer(t, {
      dialect: 'sqlite',
      reconnectWindowSeconds: 1,
      transcode: { ...TEST_LADDER, cpuCores: 2, headroomPercent: 25, procReader: ownTreeProc(spike) },
    });
    const account = await server.createAccount();
    const health = async (id: string) =>
      (await server.request('GET', `/v1/streams/${id}`, { key: account.writeKey })).body.ingest?.health;

    // The spike lasts long enough to be the median of the load admission reads.
    spike.start();
    // Admission reads the median of 10 s of load: 7 s of the spike are most of it.
    await new Promise((resolve) => setTimeout(resolve, 7000));
    const created = await server.createStream(account, { title: 'Spiky start' });
    const push = push720(`${created.ingest.rtmp_url}/${created.ingest.stream_key}`, 180);
    t.after(() => {
      push.stop();
    });
    const refused = await waitFor(
      'the decision',
      async () => (await health(created.id))?.transcoding ?? undefined,
      {
        timeoutMs: 30_000,
      },
    );
    assert.deepEqual(
      { decision: refused.decision, renditions: refused.renditions, reason: refused.reason },
      { decision: 'copy_only', renditions: ['source'], reason: 'no_cpu_room' },
      server.logs.find((line) => line.includes('transcoding admitted')),
    );
    await waitFor(
      'live',
      async () =>
        (await server.request('GET', `/v1/streams/${created.id}`, { key: account.readKey })).body.status ===
        'live',
      { timeoutMs: 30_000 },
    );

    // The master names the rungs from the start, described from the plan.
    const masterUrl = `${server.origin}/media/streams/${created.id}/index.m3u8`;
    const master = parseMasterPlaylist(await (await fetch(masterUrl)).text());
    assert.deepEqual(
      master.map((variant) => [variant.uri, variant.attributes.RESOLUTION]),
      [
        ['source.m3u8', '1280x720'],
        ['480p.m3u8', '854x480'],
        ['360p.m3u8', '640x360'],
      ],
    );
    for (const variant of master.slice(1)) {
      assert.match(variant.attributes.CODECS ?? '', /^avc1\.6400[0-9a-f]{2},mp4a\.40\.2$/);
      assert.equal(variant.attributes['FRAME-RATE'], '10.000');
    }
    // Until then a rung plays the source.
    const rungBefore = await (await fetch(new URL('360p.m3u8', masterUrl))).text();
    assert.doesNotMatch(rungBefore, /seg_360p_/);

    // A viewer starts watching while the stream is copy-only.
    const browser = await launchBrowser(t);
    const page = await browser.newPage();
    await page.goto(created.stream_url);
    await playLadder(page, masterUrl);
    const state = () => ladderState(page);
    await waitFor('playing', async () => (await state()).time > 1, { timeoutMs: 30_000 });
    assert.deepEqual((await state()).levels, [360, 480, 720]);

    // The spike ends: within seconds the publish gains its renditions.
    spike.stop();
    const endedAt = Date.now();
    const gained = await waitFor(
      'the ladder',
      async () => {
        const seen = (await health(created.id))?.transcoding;
        return seen?.decision === 'ladder' ? seen : undefined;
      },
      { timeoutMs: 45_000 },
    );
    const seconds = (Date.now() - endedAt) / 1000;
    assert.deepEqual(gained.renditions, ['source', '480p', '360p']);
    assert.equal(gained.reason, null);
    assert.ok(seconds < 25, `gained ${seconds} s after the spike`);
    t.diagnostic(`the ladder came ${seconds.toFixed(1)} s after the spike ended`);
    assert.ok(server.logs.some((line) => line.includes('CPU room now')));
    await waitFor(
      'encoded 360p segments in its playlist',
      async () =>
        /#EXT-X-DISCONTINUITY[\s\S]*seg_360p_/.test(
          await (await fetch(new URL('360p.m3u8', masterUrl))).text(),
        ),
      { timeoutMs: 30_000 },
    );
    assert.equal(push.process.exitCode, null, 'the publisher never noticed');

    // The viewer, who never reloaded anything, is moved to the encoded 360p and plays on.
    await page.evaluate(() => {
      (globalThis as any).ladder.stalls = [];
    });
    await page.evaluate(() => {
      (globalThis as any).ladder.hls.currentLevel = 0;
    });
    await waitFor('level 0', async () => (await state()).switched.at(-1) === 0, { timeoutMs: 20_000 });
    await waitFor('the 360p picture', async () => (await state()).height === 360, { timeoutMs: 40_000 });
    const before = (await state()).time;
    await waitFor('playing on at 360p', async () => (await state()).time > before + 2, { timeoutMs: 20_000 });
    const watched = await state();
    assert.ok(
      watched.stalls.every((ms) => ms < 1500),
      `stalls: ${watched.stalls.join(', ')} ms`,
    );
    assert.ok(watched.waitingFor < 1500);
    await page.close();

    // The recording keeps the rungs that were encoded.
    push.end();
    await push.exited;
    const published = await waitFor(
      'video.published',
      async () => (await server.events('video.published'))[0],
      {
        timeoutMs: 30_000,
      },
    );
    const video = (await server.request('GET', `/v1/videos/${published.data.id}`, { key: account.readKey }))
      .body;
    const recorded = parseMasterPlaylist(await (await fetch(video.playback_url)).text());
    assert.deepEqual(
      recorded.map((variant) => variant.uri),
      ['source.m3u8', '480p.m3u8', '360p.m3u8'],
    );
  });
});
