// SimulcastOutput against real RTMP receivers on loopback (the project's own ingest, as in
// rtmp-relay.test.ts): a stream with two enabled destinations, one that refuses every
// connection and one disabled, fed one real-time ffmpeg publish as the ingest hands it to its
// outputs. Both receivers get the media and go live; the rows and the outbox say connecting,
// live; the refusing destination is failing with its reason and one event however often it is
// retried; the disabled one is never tried; after the publish ends every destination tried is
// stopped. No key reaches a log line.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { Writable } from 'node:stream';
import pino from 'pino';
import { systemClock } from '../../src/shared/clock.ts';
import { SimulcastKeys } from '../../src/simulcast/simulcast-keys.ts';
import { SimulcastOutput, UNREADABLE_KEY_REASON } from '../../src/simulcast/simulcast.output.ts';
import { freePort } from '../helpers/app.ts';
import { FlvTagSplitter } from '../helpers/flv-splitter.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { startTestServer } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';

test('two destinations receive the publish and go live, a refusing one fails once, all stop at the end', async (t) => {
  const receiver = await startMediaServer(t, { dialect: 'sqlite', reconnectWindowSeconds: 60 });
  const receiverAccount = await receiver.createAccount();
  const destinations = [
    await receiver.createStream(receiverAccount, { title: 'Destination A' }),
    await receiver.createStream(receiverAccount, { title: 'Destination B' }),
  ];
  const receiverKeys = destinations.map((stream) => stream.ingest.stream_key as string);

  const sender = await startTestServer(t, { dialect: 'sqlite', clock: systemClock, logger: 'capture' });
  const creator = await sender.createAccount('Creator');
  const stream = await sender.createStream(creator, { title: 'Simulcast me' });
  const add = async (body: Record<string, unknown>) => {
    const answer = await sender.request('POST', `/v1/streams/${stream.id as string}/simulcast-targets`, {
      key: creator.writeKey,
      body,
    });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return answer.body.id as string;
  };
  const receiverUrl = `rtmp://127.0.0.1:${receiver.rtmpPort}/live`;
  const [a, b] = [
    await add({ name: 'A', url: receiverUrl, stream_key: receiverKeys[0] }),
    await add({ name: 'B', url: receiverUrl, stream_key: receiverKeys[1] }),
  ];
  const refusingKey = 'refused-key-0123456789';
  const refusing = await add({
    name: 'Nobody',
    url: `rtmp://127.0.0.1:${await freePort()}/live`,
    stream_key: refusingKey,
  });
  const disabledKey = 'disabled-key-0123456789';
  const disabled = await add({ name: 'Off', url: receiverUrl, stream_key: disabledKey, enabled: false });

  const logged: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => logged.push(line) });
  const output = new SimulcastOutput({
    simulcast: sender.services.simulcast,
    keys: sender.services.simulcastKeys,
    ffmpegPath: 'ffmpeg',
    relay: { backoffMs: [200, 400] },
  });
  assert.equal(output.name, 'simulcast');
  const run = await output.open({
    streamId: stream.id as string,
    latencyMode: 'normal',
    creatorId: creator.userId,
    index: 0,
    logger,
  });
  assert.ok(run, 'a stream with enabled destinations gets a run');
  t.after(() => {
    run.stop();
  });

  // One real-time publish, split into FLV tags as the ingest hands them to its outputs.
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
        run.sink.write(chunk);
        done();
      },
    }),
  );

  const row = async (id: string) => {
    const answer = await sender.request('GET', `/v1/streams/${stream.id as string}/simulcast-targets/${id}`, {
      key: creator.writeKey,
    });
    return answer.body;
  };
  // Both receivers package the media they are sent: their streams go live.
  await Promise.all(
    destinations.map((destination, index) =>
      waitFor(
        async () => {
          const { body } = await receiver.request('GET', `/v1/streams/${destination.id as string}`, {
            key: receiverAccount.readKey,
          });
          return body.status === 'live' ? true : undefined;
        },
        { timeoutMs: 30_000, what: `destination ${index} to be live on its receiver` },
      ),
    ),
  );
  await waitFor(
    async () => ((await row(a)).state === 'live' && (await row(b)).state === 'live' ? true : undefined),
    {
      timeoutMs: 10_000,
      what: 'both rows to say live',
    },
  );
  // The refusing destination has been retried several times by now: still one failing.
  await waitFor(
    () =>
      logged.filter((line) => line.includes('simulcast destination failed') && line.includes(refusing))
        .length >= 3
        ? true
        : undefined,
    { timeoutMs: 10_000, what: 'three failed attempts on the refusing destination' },
  );
  const failing = await row(refusing);
  assert.equal(failing.state, 'failing');
  assert.ok(
    typeof failing.state_reason === 'string' && failing.state_reason.length > 0,
    JSON.stringify(failing),
  );
  assert.equal((await row(disabled)).state, 'idle', 'a disabled destination is not tried');

  const typesOf = async (id: string) =>
    (await sender.events()).filter((event) => event.data.id === id).map((event) => event.type);
  assert.deepEqual(await typesOf(a), ['simulcast_target.connecting', 'simulcast_target.live']);
  assert.deepEqual(await typesOf(b), ['simulcast_target.connecting', 'simulcast_target.live']);
  assert.deepEqual(await typesOf(refusing), ['simulcast_target.connecting', 'simulcast_target.failing']);
  assert.deepEqual(await typesOf(disabled), []);

  // The publish ends: every relay stops, and `finished` waits for their states to be recorded.
  run.sink.end();
  await run.finished;
  for (const id of [a, b, refusing]) {
    const stopped = await row(id);
    assert.equal(stopped.state, 'stopped', id);
    assert.equal(stopped.state_reason, null);
    assert.equal((await typesOf(id)).at(-1), 'simulcast_target.stopped', id);
  }
  assert.deepEqual(await typesOf(a), [
    'simulcast_target.connecting',
    'simulcast_target.live',
    'simulcast_target.stopped',
  ]);
  assert.equal((await row(disabled)).state, 'idle');

  // No key in what the output logged, the service logged, or the events say.
  const everything = [...logged, ...sender.logs, JSON.stringify(await sender.events())].join('\n');
  for (const key of [...receiverKeys, refusingKey, disabledKey]) {
    assert.equal(everything.includes(key), false, 'a destination key was logged');
  }
  source.kill('SIGKILL');
});

test('no run without enabled destinations; a key that cannot be opened is failing, not tried', async (t) => {
  const sender = await startTestServer(t, { dialect: 'sqlite' });
  const creator = await sender.createAccount('Creator');
  const stream = await sender.createStream(creator);
  const output = new SimulcastOutput({
    simulcast: sender.services.simulcast,
    keys: sender.services.simulcastKeys,
    ffmpegPath: 'ffmpeg',
  });
  const logger = pino({ level: 'silent' });
  assert.equal(
    await output.open({
      streamId: stream.id as string,
      creatorId: creator.userId,
      latencyMode: 'normal',
      index: 0,
      logger,
    }),
    undefined,
  );
  await sender.request('POST', `/v1/streams/${stream.id as string}/simulcast-targets`, {
    key: creator.writeKey,
    body: { url: 'rtmp://127.0.0.1:1/live', stream_key: 'off-key-1234', enabled: false },
  });
  assert.equal(
    await output.open({
      streamId: stream.id as string,
      creatorId: creator.userId,
      latencyMode: 'normal',
      index: 0,
      logger,
    }),
    undefined,
  );

  // A key sealed under another master secret (SECRET_KEY changed) cannot be sent: the
  // destination says so, and is stopped with the publish.
  const { id } = (
    await sender.request('POST', `/v1/streams/${stream.id as string}/simulcast-targets`, {
      key: creator.writeKey,
      body: { url: 'rtmp://127.0.0.1:1/live', stream_key: 'lost-key-1234' },
    })
  ).body;
  await sender.services.database.db
    .updateTable('simulcast_targets')
    .set({ key_ciphertext: new SimulcastKeys(Buffer.alloc(32, 3)).seal('lost-key-1234', id) })
    .where('id', '=', id)
    .execute();
  const run = await output.open({
    streamId: stream.id as string,
    latencyMode: 'normal',
    creatorId: creator.userId,
    index: 1,
    logger,
  });
  assert.ok(run);
  run.sink.write(Buffer.from('FLV\x01\x05\0\0\0\x09\0\0\0\0', 'latin1'));
  run.stop();
  await run.finished;
  // (The test clock stands still: both events have one time, so their order is not compared.)
  const events = (await sender.events()).filter((event) => event.data.id === id);
  assert.deepEqual(events.map((event) => [event.type, event.data.state_reason]).sort(), [
    ['simulcast_target.failing', UNREADABLE_KEY_REASON],
    ['simulcast_target.stopped', null],
  ]);
  const row = await sender.services.simulcast.get(creator.userId, stream.id as string, id);
  assert.equal(row.state, 'stopped');
});
