// The RTMP port is open to anyone. Each hostile input found against the old listener
// (node-media-server's parser threw inside the socket's data handler and took the whole
// process down) is replayed here against the real listener, after a valid handshake. After
// each one: the hostile connection is closed, the process is alive, the HTTP API answers,
// and an honest publisher still gets NetStream.Publish.Start.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PENALTY_DEFAULTS } from '../../src/ingest/penalty-box.ts';
import { OVER_CAP_REFUSAL_SLOTS } from '../../src/rtmp/rtmp-server.ts';
import { TestClock } from '../helpers/clock.ts';
import { startMediaServer, type MediaTestServer } from '../helpers/media-server.ts';
import { waitFor } from '../helpers/wait.ts';
import {
  amf,
  chunkHeader,
  chunkMessage,
  command,
  MSG,
  RtmpTestClient,
  setChunkSizeMessage,
} from '../helpers/rtmp-client.ts';

/** A protocol-level publisher with a valid key goes through to NetStream.Publish.Start. */
async function assertHonestPublisherGoesLive(server: MediaTestServer, streamKey: string): Promise<void> {
  const client = await RtmpTestClient.open(server.rtmpPort);
  try {
    client.startPublish('live', streamKey);
    const status = await client.nextStatus();
    assert.equal(status?.code, 'NetStream.Publish.Start');
  } finally {
    client.close();
  }
}

async function assertServiceHealthy(server: MediaTestServer, streamKey: string): Promise<void> {
  assert.equal(process.exitCode ?? 0, 0);
  const health = await server.request('GET', '/healthz');
  assert.equal(health.status, 200);
  await assertHonestPublisherGoesLive(server, streamKey);
}

interface HostileCase {
  name: string;
  /** Bytes sent right after a valid handshake. */
  bytes: () => Buffer;
  /**
   * What the listener does: close the connection as a protocol error (the default), or answer
   * the connect (tcUrl is optional and not used, so its absence or type is no error).
   */
  expect?: 'protocol_error' | 'connected';
}

const connect = (values: unknown[]) =>
  chunkMessage({ csid: 3, type: MSG.invoke, payload: command('connect', 1, ...values) });
const createStream = () =>
  chunkMessage({ csid: 3, type: MSG.invoke, payload: command('createStream', 2, null) });
const goodConnect = () => connect([{ app: 'live', tcUrl: 'rtmp://127.0.0.1/live' }]);

const CASES: HostileCase[] = [
  {
    name: 'Set Chunk Size with an empty payload',
    bytes: () =>
      Buffer.concat([
        chunkMessage({ csid: 2, type: MSG.setChunkSize, payload: Buffer.alloc(0) }),
        goodConnect(),
      ]),
  },
  {
    name: 'Set Chunk Size with a 2-byte payload',
    bytes: () =>
      Buffer.concat([
        chunkMessage({ csid: 2, type: MSG.setChunkSize, payload: Buffer.from([0, 1]) }),
        goodConnect(),
      ]),
  },
  { name: 'Set Chunk Size 0', bytes: () => Buffer.concat([setChunkSizeMessage(0), goodConnect()]) },
  {
    name: 'Set Chunk Size above 0x7fffffff',
    bytes: () => Buffer.concat([setChunkSizeMessage(0xffffffff), goodConnect()]),
  },
  { name: 'connect without tcUrl', bytes: () => connect([{ app: 'live' }]), expect: 'connected' },
  { name: 'connect with null as its command object', bytes: () => connect([null]) },
  { name: 'connect without a command object', bytes: () => connect([]) },
  {
    name: 'connect with a number as tcUrl',
    bytes: () => connect([{ app: 'live', tcUrl: 42 }]),
    expect: 'connected',
  },
  {
    name: 'connect with an object as app',
    bytes: () => connect([{ app: { x: 1 }, tcUrl: 'rtmp://h/live' }]),
  },
  {
    name: 'publish whose stream name is not a string',
    bytes: () =>
      Buffer.concat([
        goodConnect(),
        createStream(),
        chunkMessage({
          csid: 8,
          type: MSG.invoke,
          streamId: 1,
          payload: command('publish', 3, null, 12345, 'live'),
        }),
      ]),
  },
  {
    name: 'publish without a stream name',
    bytes: () =>
      Buffer.concat([
        goodConnect(),
        createStream(),
        chunkMessage({ csid: 8, type: MSG.invoke, streamId: 1, payload: command('publish', 3, null) }),
      ]),
  },
  {
    name: 'an invoke with an unknown AMF type marker',
    bytes: () =>
      chunkMessage({
        csid: 3,
        type: MSG.invoke,
        payload: Buffer.concat([amf.string('connect'), amf.number(1), Buffer.from([0x42, 1, 2, 3])]),
      }),
  },
  {
    name: 'an invoke whose string runs past the message',
    bytes: () => chunkMessage({ csid: 3, type: MSG.invoke, payload: Buffer.from([0x02, 0xff, 0xff, 0x61]) }),
  },
  {
    name: 'an invoke with objects nested 10,000 deep',
    bytes: () => {
      const open = Buffer.from([0x00, 0x01, 0x61, 0x03]);
      const payload = Buffer.concat([
        amf.string('connect'),
        amf.number(1),
        Buffer.from([0x03]),
        ...Array(10_000).fill(open),
      ]);
      return chunkMessage({ csid: 3, type: MSG.invoke, payload, chunkSize: 128 });
    },
  },
  {
    name: 'a strict array claiming 4 billion elements',
    bytes: () =>
      chunkMessage({
        csid: 3,
        type: MSG.invoke,
        payload: Buffer.concat([amf.string('connect'), amf.number(1), amf.strictArray([], 0xffffffff)]),
      }),
  },
  {
    name: 'a huge Set Chunk Size followed by connect',
    bytes: () =>
      Buffer.concat([
        setChunkSizeMessage(0x7fffffff),
        chunkMessage({
          csid: 3,
          type: MSG.invoke,
          payload: command('connect', 1, { app: 'live' }),
          chunkSize: 0x7fffffff,
        }),
      ]),
    // 2^31-1 is the largest chunk size the specification allows: a valid connect follows.
    expect: 'connected',
  },
  {
    name: 'a type-3 chunk on a chunk stream that never had a header',
    bytes: () => Buffer.concat([chunkHeader({ fmt: 3, csid: 9 }), Buffer.alloc(64, 1)]),
  },
  {
    name: 'a type-1 chunk on a chunk stream that never had a header',
    bytes: () =>
      Buffer.concat([chunkHeader({ fmt: 1, csid: 10, length: 4, type: MSG.invoke }), Buffer.alloc(4, 2)]),
  },
  {
    name: 'messages on 64 different chunk streams',
    bytes: () =>
      Buffer.concat(
        Array.from({ length: 64 }, (_, i) =>
          chunkHeader({ fmt: 0, csid: 64 + i * 3, length: 1000, type: MSG.invoke }),
        ),
      ),
  },
  {
    name: 'a 16 MB command message before connect',
    bytes: () => chunkHeader({ fmt: 0, csid: 3, length: 0xffffff, type: MSG.invoke }),
  },
  {
    name: 'media before publish',
    bytes: () => chunkMessage({ csid: 4, type: MSG.video, payload: Buffer.from([0x17, 0, 0, 0, 0]) }),
  },
  {
    name: 'an Abort message with an empty payload',
    bytes: () =>
      Buffer.concat([chunkMessage({ csid: 2, type: MSG.abort, payload: Buffer.alloc(0) }), goodConnect()]),
  },
  {
    name: 'a second connect',
    bytes: () => Buffer.concat([goodConnect(), goodConnect()]),
  },
];

test('the RTMP listener survives hostile input', async (t) => {
  const server = await startMediaServer(t, { dialect: 'sqlite' });
  const account = await server.createAccount('Hostile input');
  const stream = await server.createStream(account);
  const streamKey = stream.ingest.stream_key as string;

  // RTMP_HOSTILE_CASE=<name> replays one case alone (each crashed the old listener by itself).
  const only = process.env.RTMP_HOSTILE_CASE;
  for (const hostile of CASES.filter((c) => only === undefined || c.name === only)) {
    await t.test(hostile.name, async () => {
      const logsBefore = server.logs.length;
      const client = await RtmpTestClient.open(server.rtmpPort);
      t.after(() => {
        client.close();
      });
      client.write(hostile.bytes());
      if (hostile.expect === 'connected') {
        await client.nextResult();
        assert.deepEqual(client.commands(), ['_result']);
        await assertServiceHealthy(server, streamKey);
        return;
      }
      // The listener closes at once; the deadline only bounds how long a failure takes.
      assert.equal(await client.closesWithin(10_000), true, 'the hostile connection is closed');
      assert.equal(
        client.statuses().some((status) => status.code === 'NetStream.Publish.Start'),
        false,
        'never told it is publishing',
      );
      await assertServiceHealthy(server, streamKey);
      const lines = server.logs.slice(logsBefore).map((line) => JSON.parse(line));
      const warning = lines.find((line) => line.msg === 'rtmp connection closed');
      assert.ok(warning, 'one warn line says why');
      assert.equal(warning.level, 40);
      assert.equal(warning.remote, '127.0.0.1');
      assert.equal(typeof warning.reason, 'string');
    });
  }
  assert.equal(
    server.logs.some((line) => line.includes(streamKey)),
    false,
    'the stream key is never logged',
  );
});

test('a connection that does not ask to publish in time is closed', async (t) => {
  const deadlineMs = 400;
  const server = await startMediaServer(t, { dialect: 'sqlite', publishDeadlineMs: deadlineMs });
  const account = await server.createAccount('Deadline');
  const stream = await server.createStream(account);

  // Connected but never publishing; and a bare TCP connection that never says anything.
  // Taken before either connection exists, so their deadlines cannot have started earlier: a
  // lower bound, which a slow machine only makes easier to meet.
  const started = performance.now();
  const idle = await RtmpTestClient.open(server.rtmpPort);
  t.after(() => {
    idle.close();
  });
  idle.sendCommand('connect', 1, [{ app: 'live' }]);
  const silent = await RtmpTestClient.open(server.rtmpPort, { handshake: false });
  t.after(() => {
    silent.close();
  });
  assert.equal(await idle.closesWithin(10_000), true);
  assert.equal(await silent.closesWithin(10_000), true);
  // Timers count whole milliseconds, so one may fire a fraction of one early.
  assert.ok(performance.now() - started >= deadlineMs - 1, 'not before the deadline');
  const warnings = server.logs
    .map((line) => JSON.parse(line))
    .filter((line) => line.msg === 'rtmp connection closed');
  assert.equal(warnings.length, 2);
  for (const warning of warnings) {
    assert.equal(warning.level, 40);
    assert.match(warning.reason, /no publish within 400 ms/);
  }
  // Publishing in time is not affected.
  await assertServiceHealthy(server, stream.ingest.stream_key);
});

test('connections over RTMP_MAX_CONNECTIONS are told so, and the rest closed at once', async (t) => {
  const server = await startMediaServer(t, { dialect: 'sqlite', maxRtmpConnections: 3 });
  const account = await server.createAccount('Crowd');
  const stream = await server.createStream(account);

  const held = await Promise.all([1, 2, 3].map(() => RtmpTestClient.open(server.rtmpPort)));
  t.after(() => {
    for (const client of held) client.close();
  });
  // An encoder over the cap is served far enough to read why it is refused (even with the
  // right key), then closed.
  const told = await RtmpTestClient.open(server.rtmpPort);
  t.after(() => {
    told.close();
  });
  told.startPublish('live', stream.ingest.stream_key);
  const status = await told.nextStatus();
  assert.equal(status?.code, 'NetStream.Publish.Rejected');
  assert.equal(
    status.description,
    'The server is at its limit of 3 encoder connections. Try again in a minute.',
  );
  assert.equal(await told.closesWithin(5000), true, 'closed once told');
  // One that never asks to publish is closed after a short deadline.
  const silent = await RtmpTestClient.open(server.rtmpPort, { handshake: false });
  t.after(() => {
    silent.close();
  });
  assert.equal(await silent.closesWithin(10_000), true, 'the silent extra connection is closed');
  const warning = server.logs
    .map((line) => JSON.parse(line))
    .find((line) => line.msg === 'rtmp connection refused: too many connections');
  assert.ok(warning);
  assert.equal(warning.level, 40);
  assert.equal(warning.maxConnections, 3);
  assert.equal(warning.remote, '127.0.0.1');

  // Only OVER_CAP_REFUSAL_SLOTS of them are served at once; beyond, closed without a handshake
  // (well before the 3 s deadline that closes the served ones).
  const floodStarted = Date.now();
  const flood = await Promise.all(
    Array.from({ length: OVER_CAP_REFUSAL_SLOTS + 1 }, () =>
      RtmpTestClient.open(server.rtmpPort, { handshake: false }),
    ),
  );
  t.after(() => {
    for (const client of flood) client.close();
  });
  await waitFor(() => flood.some((client) => client.isClosed), { what: 'one of them to be closed' });
  assert.ok(Date.now() - floodStarted < 2000, 'closed at once, not by the deadline');
  const closed = flood.filter((client) => client.isClosed);
  await assert.rejects(closed[0]!.handshake(1000));
  for (const client of flood) client.close();

  // A place frees up when a connection ends (once the listener has seen it close, so until
  // then a new connection may still be turned away); the HTTP API never stopped answering.
  held.pop()!.close();
  const next = await waitFor(() => RtmpTestClient.open(server.rtmpPort).catch(() => undefined), {
    what: 'a place to free up',
  });
  t.after(() => {
    next.close();
  });
  next.startPublish('live', stream.ingest.stream_key);
  assert.equal((await next.nextStatus())?.code, 'NetStream.Publish.Start');
  assert.equal((await server.request('GET', '/healthz')).status, 200);
});

test('over-the-cap refusals are logged at most every 10 s of the injected clock, with how many', async (t) => {
  const clock = new TestClock();
  const server = await startMediaServer(t, { dialect: 'sqlite', clock, maxRtmpConnections: 1 });
  const held = await RtmpTestClient.open(server.rtmpPort);
  t.after(() => {
    held.close();
  });
  const refuse = async () => {
    const extra = await RtmpTestClient.open(server.rtmpPort);
    try {
      extra.startPublish('live', 'sk_any');
      assert.equal((await extra.nextStatus())?.code, 'NetStream.Publish.Rejected');
      assert.equal(await extra.closesWithin(10_000), true, 'refused');
    } finally {
      extra.close();
    }
  };
  const capLines = () =>
    server.logs
      .map((line) => JSON.parse(line))
      .filter((line) => line.msg === 'rtmp connection refused: too many connections');

  await refuse();
  await refuse();
  await refuse();
  assert.deepEqual(
    capLines().map((line) => line.refused),
    [1],
    'one line for a burst',
  );
  clock.advance(10_000);
  await refuse();
  assert.deepEqual(
    capLines().map((line) => line.refused),
    [1, 3],
    'the next line counts the refusals it stayed quiet about',
  );
});

test('repeated wrong stream keys from one address lock it out for growing times', async (t) => {
  const clock = new TestClock();
  const server = await startMediaServer(t, { dialect: 'sqlite', clock });
  const account = await server.createAccount('Guesser');
  const stream = await server.createStream(account);
  const streamKey = stream.ingest.stream_key as string;
  let lookups = 0;
  // Admission's one lookup of a presented key (among stream keys and channel keys).
  const channels = server.services.channels;
  const findPublishTarget = channels.findPublishTarget.bind(channels);
  channels.findPublishTarget = (key: string) => {
    lookups += 1;
    return findPublishTarget(key);
  };

  const attempt = async (key: string) => {
    const client = await RtmpTestClient.open(server.rtmpPort);
    try {
      client.startPublish('live', key);
      return await client.nextStatus();
    } finally {
      client.close();
    }
  };
  const guessFiveTimes = async () => {
    for (let i = 0; i < PENALTY_DEFAULTS.maxFailures; i++) {
      const status = await attempt(`sk_${'x'.repeat(30)}${i}`);
      assert.equal(status?.code, 'NetStream.Publish.BadName');
      assert.match(status.description, /^The stream key is not valid\. /);
    }
  };

  await guessFiveTimes();
  assert.equal(lookups, 5);
  // Locked out: even the right key is refused, without a database lookup.
  const locked = await attempt(streamKey);
  assert.equal(locked?.code, 'NetStream.Publish.Rejected');
  assert.match(locked.description, /^Too many invalid stream keys from this address; try again in 30 s\.$/);
  assert.equal(lookups, 5);

  clock.advance(PENALTY_DEFAULTS.lockMs + 1);
  assert.equal((await attempt(streamKey))?.code, 'NetStream.Publish.Start');

  // A second lockout lasts twice as long.
  await guessFiveTimes();
  clock.advance(PENALTY_DEFAULTS.lockMs + 1);
  assert.match((await attempt(streamKey))?.description ?? '', /Too many invalid stream keys/);
  clock.advance(PENALTY_DEFAULTS.lockMs);
  assert.equal((await attempt(streamKey))?.code, 'NetStream.Publish.Start');
  assert.equal((await server.request('GET', '/healthz')).status, 200);

  const refusals = server.logs
    .map((line) => JSON.parse(line))
    .filter((line) => line.msg === 'publish refused');
  assert.ok(refusals.some((line) => line.reason === 'too_many_unknown_keys' && line.remote === '127.0.0.1'));
  assert.equal(
    server.logs.some((line) => line.includes(streamKey)),
    false,
    'the stream key is never logged',
  );
});

test('behind a balancer speaking the PROXY protocol, the penalty box locks out the encoder, not the balancer', async (t) => {
  const server = await startMediaServer(t, { dialect: 'sqlite', rtmpProxyProtocol: true });
  const account = await server.createAccount('Behind nginx');
  const stream = await server.createStream(account);
  const streamKey = stream.ingest.stream_key as string;
  const from = (address: string) => `PROXY TCP4 ${address} 127.0.0.1 50000 1935\r\n`;
  const attempt = async (key: string, proxyHeader: string | Buffer) => {
    const client = await RtmpTestClient.open(server.rtmpPort, { proxyHeader });
    try {
      client.startPublish('live', key);
      return await client.nextStatus();
    } finally {
      client.close();
    }
  };

  for (let i = 0; i < PENALTY_DEFAULTS.maxFailures; i++) {
    assert.equal(
      (await attempt(`sk_${'x'.repeat(30)}${i}`, from('203.0.113.7')))?.code,
      'NetStream.Publish.BadName',
    );
  }
  const locked = await attempt(streamKey, from('203.0.113.7'));
  assert.match(locked?.description ?? '', /^Too many invalid stream keys from this address/);
  // Another encoder behind the same balancer is not locked out with the guesser.
  assert.equal((await attempt(streamKey, from('198.51.100.20')))?.code, 'NetStream.Publish.Start');

  const lines = server.logs.map(
    (line) => JSON.parse(line) as { msg: string; reason?: string; remote?: string },
  );
  assert.ok(
    lines.some(
      (line) =>
        line.msg === 'publish refused' &&
        line.reason === 'too_many_unknown_keys' &&
        line.remote === '203.0.113.7',
    ),
    'the refusal names the encoder behind the balancer',
  );

  // An encoder reaching the port directly, without the balancer's header, is closed at once;
  // so is a forged or oversized header. The service carries on.
  for (const bytes of [
    Buffer.from([3]),
    Buffer.from('PROXY TCP4 not-an-address\r\n'),
    Buffer.alloc(200, 0x50),
  ]) {
    const client = await RtmpTestClient.open(server.rtmpPort, { handshake: false });
    client.write(bytes);
    assert.equal(
      await client.closesWithin(2000),
      true,
      `closed after ${JSON.stringify(bytes.toString('latin1', 0, 30))}`,
    );
  }
  const local = Buffer.concat([
    Buffer.from('0d0a0d0a000d0a515549540a', 'hex'),
    Buffer.from([0x20, 0x00, 0x00, 0x00]),
  ]);
  // The balancer's own connection (LOCAL) is served as coming from the balancer.
  assert.equal((await attempt(streamKey, local))?.code, 'NetStream.Publish.Start');
  assert.equal((await server.request('GET', '/healthz')).status, 200);
});

test('NetStream.Publish.Start is sent only once admission has accepted the key', async (t) => {
  const server = await startMediaServer(t, { dialect: 'sqlite' });
  const account = await server.createAccount('Patient');
  const stream = await server.createStream(account);
  // The key lookup waits until the test lets it go on.
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let lookups = 0;
  const channels = server.services.channels;
  const findPublishTarget = channels.findPublishTarget.bind(channels);
  channels.findPublishTarget = async (key: string) => {
    lookups += 1;
    await gate;
    return findPublishTarget(key);
  };

  const client = await RtmpTestClient.open(server.rtmpPort);
  t.after(() => {
    client.close();
  });
  client.startPublish('live', stream.ingest.stream_key);
  await waitFor(() => lookups > 0, { what: 'admission to look the key up' });
  // The server answers in order: once the answer to a later createStream is here, anything
  // it said about the publish before that is here too.
  client.sendCommand('createStream', 6, [null]);
  await waitFor(() => client.commands().filter((name) => name === '_result').length === 3, {
    what: 'connect and both createStream calls answered',
  });
  assert.deepEqual(client.statuses(), [], 'nothing said while admission is deciding');
  release();
  assert.equal((await client.nextStatus())?.code, 'NetStream.Publish.Start');
});
