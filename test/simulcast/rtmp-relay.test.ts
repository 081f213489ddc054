// Simulcast relays against real RTMP receivers on loopback (the project's own ingest): three
// destinations fed one real-time ffmpeg publish; one destination goes away for a while and comes
// back. The other two stay live on one unbroken publish, the lost one reconnects by itself soon
// after it is back, and no stream key reaches a log line or a failure reason.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Writable } from 'node:stream';
import pino from 'pino';
import { RtmpRelay, type RelayState } from '../../src/simulcast/rtmp-relay.ts';
import { FlvTagSplitter } from '../helpers/flv-splitter.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { switchableHop } from '../helpers/switchable-hop.ts';
import { waitFor } from '../helpers/wait.ts';

test('three destinations: one lost for 10 s reconnects by itself, the others never break, no key is logged', async (t) => {
  const receiver = await startMediaServer(t, { dialect: 'sqlite', reconnectWindowSeconds: 60 });
  const account = await receiver.createAccount();
  const streams = [
    await receiver.createStream(account, { title: 'Destination A' }),
    await receiver.createStream(account, { title: 'Destination B' }),
    await receiver.createStream(account, { title: 'Destination C' }),
  ];
  const hop = await switchableHop(receiver.rtmpPort);
  t.after(() => {
    hop.close();
  });

  const logged: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => logged.push(line) });
  const history: RelayState[][] = [[], [], []];
  const relays = streams.map((stream, index) => {
    const port = index === 2 ? hop.port : receiver.rtmpPort;
    const relay = new RtmpRelay({
      ffmpegPath: 'ffmpeg',
      serverUrl: `rtmp://127.0.0.1:${port}/live`,
      streamKey: stream.ingest.stream_key as string,
      logger,
      label: `dst_${index}`,
    });
    relay.on('state', (state) => history[index]?.push(state));
    return relay;
  });
  t.after(() => {
    for (const relay of relays) relay.stop();
  });

  // One real-time publish, split into FLV tags as the ingest hands them to its sinks.
  const source = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-re'],
      ...['-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440'],
      ...['-t', '40', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-pix_fmt', 'yuv420p'],
      ...['-c:a', 'aac', '-f', 'flv', 'pipe:1'],
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  t.after(() => source.kill('SIGKILL'));
  source.stdout.pipe(new FlvTagSplitter()).pipe(
    new Writable({
      objectMode: true,
      write(chunk: Buffer, _encoding, done) {
        for (const relay of relays) relay.write(chunk);
        done();
      },
    }),
  );

  const liveOnReceiver = (index: number) =>
    waitFor(
      async () => {
        const { body } = await receiver.request('GET', `/v1/streams/${streams[index].id as string}`, {
          key: account.readKey,
        });
        return body.status === 'live' ? true : undefined;
      },
      { timeoutMs: 30_000, what: `destination ${index} to be live on its receiver` },
    );
  await Promise.all([0, 1, 2].map(liveOnReceiver));
  for (const relay of relays) assert.equal(relay.state.state, 'live');

  // Destination C goes away: its relay fails and keeps trying; A and B carry on.
  hop.down();
  await waitFor(() => (relays[2]?.state.state === 'failing' ? true : undefined), {
    timeoutMs: 10_000,
    what: 'destination C to fail',
  });
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  hop.up();
  const restored = performance.now();
  await waitFor(() => (relays[2]?.state.state === 'live' ? true : undefined), {
    timeoutMs: 15_000,
    what: 'destination C to be live again',
  });
  t.diagnostic(`destination C live again ${Math.round(performance.now() - restored)} ms after it came back`);

  // A and B never left live; their receivers saw one unbroken publish. C's saw a second one.
  for (const index of [0, 1]) {
    assert.deepEqual(
      history[index]?.map((state) => state.state),
      ['live'],
      `destination ${index}: ${JSON.stringify(history[index])}`,
    );
  }
  const publishes = (index: number) =>
    fs
      .readdirSync(path.join(receiver.dataDir, 'media', 'streams', streams[index].id as string))
      .filter((name) => /^p\d+$/.test(name));
  assert.deepEqual(publishes(0), ['p0']);
  assert.deepEqual(publishes(1), ['p0']);
  await waitFor(() => (publishes(2).length >= 2 ? true : undefined), {
    timeoutMs: 15_000,
    what: "C's receiver to package the resumed publish",
  });
  const failing = history[2]?.find((state) => state.state === 'failing');
  assert.ok(failing?.state === 'failing' && failing.reason.length > 0, JSON.stringify(history[2]));

  // No stream key anywhere in what the relays logged or said.
  for (const stream of streams) {
    const key = stream.ingest.stream_key as string;
    assert.equal(logged.join('\n').includes(key), false, 'a key in the log');
    assert.equal(JSON.stringify(history).includes(key), false, 'a key in a state');
  }
  for (const relay of relays) relay.stop();
  assert.equal(relays[0]?.state.state, 'stopped');
});
