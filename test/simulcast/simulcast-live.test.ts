// Simulcast through the whole pipeline, on real servers: a creator adds three destinations to a
// stream with the API, publishes with ffmpeg, and the stream goes on to three RTMP receivers (a
// second instance of our own ingest, as another platform would be). One destination goes away
// for 30 s and comes back: it resumes within 5 s of coming back, by itself; the other two get
// one unbroken publish with no gap in their media over 100 ms. The states reach the API and
// webhook events, and no destination key reaches an answer or a log line of either server.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { startMediaServer } from '../helpers/media-server.ts';
import { pushTestPattern } from '../helpers/media-tools.ts';
import { switchableHop } from '../helpers/switchable-hop.ts';
import { waitFor } from '../helpers/wait.ts';

const run = promisify(execFile);

/** The largest step between consecutive video frames of a playlist, in seconds (ffprobe). */
async function largestVideoGap(playlist: string): Promise<{ gap: number; frames: number }> {
  const { stdout } = await run(
    'ffprobe',
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time', '-of', 'csv=p=0', playlist],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const times = stdout
    .split('\n')
    // The hls demuxer's lines end with a comma, and some are blank.
    .map((line) => Number.parseFloat(line))
    .filter((value) => Number.isFinite(value))
    .sort((a, b) => a - b);
  let gap = 0;
  for (let i = 1; i < times.length; i++) gap = Math.max(gap, (times[i] ?? 0) - (times[i - 1] ?? 0));
  return { gap, frames: times.length };
}

test('three destinations: one lost for 30 s resumes within 5 s of coming back; the others never break', async (t) => {
  const receiver = await startMediaServer(t, { dialect: 'sqlite', reconnectWindowSeconds: 60 });
  const receiverAccount = await receiver.createAccount();
  const destinations = await Promise.all(
    ['A', 'B', 'C'].map((name) => receiver.createStream(receiverAccount, { title: `Destination ${name}` })),
  );
  const hop = await switchableHop(receiver.rtmpPort);
  t.after(() => {
    hop.close();
  });

  const origin = await startMediaServer(t, { dialect: 'sqlite', reconnectWindowSeconds: 5 });
  const creator = await origin.createAccount();
  const stream = await origin.createStream(creator, { title: 'Everywhere at once' });
  const keys = destinations.map((destination) => destination.ingest.stream_key as string);
  const targetIds: string[] = [];
  for (const [index, key] of keys.entries()) {
    const port = index === 2 ? hop.port : receiver.rtmpPort;
    const created = await origin.request('POST', `/v1/streams/${stream.id}/simulcast-targets`, {
      key: creator.writeKey,
      body: { url: `rtmp://127.0.0.1:${port}/live`, stream_key: key, name: `Destination ${index}` },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(JSON.stringify(created.body).includes(key), false, 'the key in an answer');
    targetIds.push(created.body.id as string);
  }
  const targets = async () =>
    (await origin.request('GET', `/v1/streams/${stream.id}/simulcast-targets`, { key: creator.writeKey }))
      .body.data as { id: string; state: string; state_reason: string | null }[];

  // 30 fps: consecutive frames are 33 ms apart, so a gap over 100 ms is lost media.
  const push = pushTestPattern(`${stream.ingest.rtmp_url}/${stream.ingest.stream_key}`, 120, {
    size: '640x360',
  });
  t.after(() => {
    push.stop();
  });
  const liveOnReceiver = (index: number) =>
    waitFor(
      async () => {
        const { body } = await receiver.request('GET', `/v1/streams/${destinations[index]?.id as string}`, {
          key: receiverAccount.readKey,
        });
        return body.status === 'live' ? true : undefined;
      },
      { timeoutMs: 45_000, what: `destination ${index} to be live on its receiver` },
    );
  await Promise.all([0, 1, 2].map(liveOnReceiver));
  await waitFor(
    async () => ((await targets()).every((target) => target.state === 'live') ? true : undefined),
    {
      timeoutMs: 10_000,
      what: 'every target live in the API',
    },
  );

  // Destination C goes away for 30 s.
  hop.down();
  await waitFor(async () => ((await targets())[2]?.state === 'failing' ? true : undefined), {
    timeoutMs: 15_000,
    what: 'destination C failing in the API',
  });
  const failing = (await targets())[2];
  assert.ok((failing?.state_reason ?? '').length > 0, JSON.stringify(failing));
  await new Promise((resolve) => setTimeout(resolve, 30_000));
  hop.up();
  const restored = performance.now();
  await waitFor(async () => ((await targets())[2]?.state === 'live' ? true : undefined), {
    timeoutMs: 15_000,
    what: 'destination C live again',
  });
  const resumedMs = performance.now() - restored;
  t.diagnostic(`destination C live again ${Math.round(resumedMs)} ms after it came back`);
  assert.ok(resumedMs < 5000, `C resumed ${Math.round(resumedMs)} ms after it came back`);
  assert.deepEqual(
    (await targets()).map((target) => target.state),
    ['live', 'live', 'live'],
  );

  // The publish ends: every destination stops.
  push.end();
  await push.exited;
  await waitFor(
    async () => ((await targets()).every((target) => target.state === 'stopped') ? true : undefined),
    {
      timeoutMs: 20_000,
      what: 'every target stopped',
    },
  );

  // The events: A and B went live once and never failed; C failed once and came back.
  const events = await waitFor(
    async () => {
      const all = (await origin.events()).filter((event) => event.type.startsWith('simulcast_target.'));
      return all.filter((event) => event.type === 'simulcast_target.stopped').length === 3 ? all : undefined;
    },
    { timeoutMs: 10_000, what: 'the stopped events' },
  );
  const kinds = (id: string) =>
    events
      .filter((event) => (event.data as { id: string }).id === id)
      .map((event) => event.type.split('.')[1]);
  for (const id of targetIds.slice(0, 2)) {
    assert.equal(kinds(id).includes('failing'), false, `${id}: ${kinds(id).join(', ')}`);
    assert.equal(kinds(id).filter((kind) => kind === 'live').length, 1, `${id}: ${kinds(id).join(', ')}`);
  }
  assert.equal(kinds(targetIds[2] ?? '').filter((kind) => kind === 'failing').length, 1);
  assert.equal(kinds(targetIds[2] ?? '').filter((kind) => kind === 'live').length, 2);

  // A and B: one publish on their receiver, no gap in their media over 100 ms.
  const publishes = (index: number) =>
    fs
      .readdirSync(path.join(receiver.dataDir, 'media', 'streams', destinations[index]?.id as string))
      .filter((name) => /^p\d+$/.test(name));
  for (const index of [0, 1]) {
    assert.deepEqual(publishes(index), ['p0'], `destination ${index}`);
    const playlist = path.join(
      receiver.dataDir,
      'media',
      'streams',
      destinations[index]?.id as string,
      'p0',
      'live.m3u8',
    );
    const { gap, frames } = await largestVideoGap(playlist);
    t.diagnostic(`destination ${index}: ${frames} frames, largest gap ${Math.round(gap * 1000)} ms`);
    // At least the 30 s the other destination was away, at 30 frames a second.
    assert.ok(frames > 30 * 30, `destination ${index}: ${frames} frames`);
    assert.ok(gap <= 0.1, `destination ${index}: a gap of ${Math.round(gap * 1000)} ms`);
  }
  assert.ok(publishes(2).length >= 2, 'C was published again after it came back');

  // No destination key in either server's log lines or in any answer about the targets.
  const answers = JSON.stringify(await targets());
  for (const key of keys) {
    assert.equal(origin.logs.join('\n').includes(key), false, 'a key in the origin log');
    assert.equal(answers.includes(key), false, 'a key in an answer');
    assert.equal(JSON.stringify(events).includes(key), false, 'a key in an event');
  }
});
