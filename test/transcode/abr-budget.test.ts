// The CPU budget with real ffmpeg: a stream that does not fit is published copy-only and keeps
// real time; a transcoder that falls behind hands the publish over to fewer rungs, then to the
// source alone, without the publisher noticing and without the source stalling. The budget and
// the allowed lag are made tiny on purpose (configuration), so the machine's load does not
// decide the outcome. SQLite only.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseMediaPlaylist, totalDuration } from '../../src/hls/hls-playlist.ts';
import { isMasterPlaylist, parseMasterPlaylist } from '../../src/hls/master-playlist.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { countVideoFrames, waitFor } from '../helpers/media-tools.ts';
import { push720, TEST_LADDER } from './ladder-helpers.ts';

describe('adaptive bitrate, CPU budget', () => {
  test('a stream over the budget is published copy-only and keeps real time', async (t) => {
    const server = await startMediaServer(t, {
      dialect: 'sqlite',
      reconnectWindowSeconds: 1,
      transcode: { ...TEST_LADDER, cpuCores: 0.01 },
    });
    const account = await server.createAccount();
    const created = await server.createStream(account, { title: 'No room' });
    const push = push720(`${created.ingest.rtmp_url}/${created.ingest.stream_key}`, 120);
    t.after(() => {
      push.stop();
    });
    const playlistUrl = `${server.origin}/media/streams/${created.id}/index.m3u8`;
    await waitFor(
      'live',
      async () =>
        (await server.request('GET', `/v1/streams/${created.id}`, { key: account.readKey })).body.status ===
        'live',
      { timeoutMs: 30_000 },
    );
    // The master names the rungs the stream would gain if room appeared; they play the source.
    const master = await (await fetch(playlistUrl)).text();
    assert.equal(isMasterPlaylist(master), true);
    assert.deepEqual(
      parseMasterPlaylist(master).map((variant) => variant.uri),
      ['source.m3u8', '480p.m3u8', '360p.m3u8'],
    );
    const sourceUrl = `${server.origin}/media/streams/${created.id}/source.m3u8`;
    const first = await (await fetch(sourceUrl)).text();
    assert.ok(server.logs.some((line) => line.includes('no CPU room to transcode')));
    // The creator is told, with the reason.
    const health = (await server.request('GET', `/v1/streams/${created.id}`, { key: account.writeKey })).body
      .ingest.health;
    assert.equal(health.transcoding.decision, 'copy_only');
    assert.deepEqual(health.transcoding.renditions, ['source']);
    assert.equal(health.transcoding.reason, 'no_cpu_room');
    assert.match(health.transcoding.message, /CPU/);
    // Real time: 8 more seconds of wall clock add about 8 seconds of media.
    const before = totalDuration(parseMediaPlaylist(first).segments);
    const startedAt = Date.now();
    const later = await waitFor(
      'eight more seconds of media',
      async () => {
        const text = await (await fetch(sourceUrl)).text();
        const duration = totalDuration(parseMediaPlaylist(text).segments);
        return duration >= before + 8 ? duration : undefined;
      },
      { timeoutMs: 20_000 },
    );
    const wall = (Date.now() - startedAt) / 1000;
    assert.ok(wall < 8 + 2 * 2 + 1.5, `${later - before} s of media took ${wall} s`);
    assert.equal(push.process.exitCode, null, 'the publisher is still connected');
  });

  test('a transcoder that falls behind drops its rungs without stalling the source', async (t) => {
    const server = await startMediaServer(t, {
      dialect: 'sqlite',
      reconnectWindowSeconds: 1,
      // Any lag at all counts as falling behind: every transcoder hands over at once.
      transcode: { ...TEST_LADDER, maxLagSeconds: -1 },
    });
    const account = await server.createAccount();
    const created = await server.createStream(account, { title: 'Behind' });
    const push = push720(`${created.ingest.rtmp_url}/${created.ingest.stream_key}`, 120);
    t.after(() => {
      push.stop();
    });
    const root = `${server.origin}/media/streams/${created.id}`;
    await waitFor(
      'two hand-overs',
      () => (server.logs.filter((line) => line.includes('rungs dropped')).length >= 2 ? true : undefined),
      { timeoutMs: 30_000 },
    );
    const drops = server.logs
      .filter((line) => line.includes('rungs dropped'))
      .map((line) => JSON.parse(line));
    assert.deepEqual(drops[0].renditions, ['source', '360p']);
    assert.deepEqual(drops[1].renditions, []);
    // The creator sees the source alone, and why.
    const transcoding = await waitFor(
      'the last hand-over in ingest.health',
      async () => {
        const res = await server.request('GET', `/v1/streams/${created.id}`, { key: account.writeKey });
        const seen = res.body.ingest?.health?.transcoding;
        return seen?.decision === 'copy_only' ? seen : undefined;
      },
      { timeoutMs: 30_000 },
    );
    assert.deepEqual(transcoding.renditions, ['source']);
    assert.equal(transcoding.reason, 'fell_behind');

    // The source keeps real time across the hand-overs: 10 more seconds of wall clock add
    // about 10 seconds of media.
    const sourceDuration = async () =>
      totalDuration(parseMediaPlaylist(await (await fetch(`${root}/source.m3u8`)).text()).segments);
    await waitFor('the source playlist', async () => (await sourceDuration()) > 0, { timeoutMs: 30_000 });
    const before = await sourceDuration();
    const startedAt = Date.now();
    await waitFor('ten more seconds of media', async () => (await sourceDuration()) >= before + 10, {
      timeoutMs: 25_000,
    });
    const wall = (Date.now() - startedAt) / 1000;
    assert.ok(wall < 10 + 2 * 2 + 1.5, `10 s of media took ${wall} s`);
    assert.equal(push.process.exitCode, null, 'the publisher never noticed');

    // The master still names every rung; after the hand-overs a rung's playlist carries the
    // source, past a discontinuity, and the whole of it decodes.
    const master = parseMasterPlaylist(await (await fetch(`${root}/index.m3u8`)).text());
    assert.deepEqual(
      master.map((variant) => variant.uri),
      ['source.m3u8', '480p.m3u8', '360p.m3u8'],
    );
    const rung = await (await fetch(`${root}/480p.m3u8`)).text();
    assert.match(rung, /#EXT-X-DISCONTINUITY/);
    assert.match(rung, /p2\/seg\d{5}\.ts/);
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
    const frames = await countVideoFrames(new URL('360p.m3u8', video.playback_url).toString());
    const sourceUrl = new URL('source.m3u8', video.playback_url).toString();
    const sourceFrames = await countVideoFrames(sourceUrl);
    const recorded = parseMediaPlaylist(await (await fetch(sourceUrl)).text());
    // Nothing lost at the hand-overs: every second of the recording holds its 10 frames.
    assert.ok(Math.abs(sourceFrames - totalDuration(recorded.segments) * 10) <= 10, `${sourceFrames} frames`);
    assert.ok(Math.abs(frames - sourceFrames) <= 10, `${frames} vs ${sourceFrames}`);
  });
});
