// A seeded fuzzer against the real RTMP listener: thousands of random and mutated byte
// streams after a valid handshake (random chunk headers of every format, chunk stream id
// form, length and extended timestamp; AMF0 values of every type marker, valid or not; valid
// commands with mutated fields; truncations; random splits of the stream over several
// writes). Every case starts with a new connection and a handshake, so each case also checks
// that the listener still accepts. At the end an honest encoder still goes live and the HTTP
// API answers. No case may make the listener fail other than with a protocol error.
//
// RTMP_FUZZ_CASES (default 3000) and RTMP_FUZZ_SEED replay or lengthen a run; the seed is
// printed with every failure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PENALTY_DEFAULTS } from '../../src/ingest/penalty-box.ts';
import { TestClock } from '../helpers/clock.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { pushTestPattern, waitFor } from '../helpers/media-tools.ts';
import {
  amf,
  chunkHeader,
  chunkMessage,
  command,
  handshakeC0C1,
  MSG,
  RtmpTestClient,
  setChunkSizeMessage,
} from '../helpers/rtmp-client.ts';

const CASES = Number(process.env.RTMP_FUZZ_CASES ?? 3000);
const SEED = Number(process.env.RTMP_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 32));
const PARALLEL = 8;

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  }
  int(max: number): number {
    return Math.floor(this.next() * max);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
  bytes(length: number): Buffer {
    const out = Buffer.alloc(length);
    for (let i = 0; i < length; i++) out[i] = this.int(256);
    return out;
  }
}

const TYPES = [1, 2, 3, 4, 5, 6, 8, 9, 15, 16, 17, 18, 19, 20, 22, 0, 7, 255] as const;
const COMMANDS = [
  'connect',
  'createStream',
  'publish',
  'play',
  'releaseStream',
  'FCPublish',
  'FCUnpublish',
  'deleteStream',
  '_checkbw',
  '',
];

/** An AMF0 value of any marker, sometimes invalid or truncated. */
function randomAmf(rng: Random, depth = 0): Buffer {
  switch (rng.int(depth > 3 ? 9 : 14)) {
    case 0:
      return amf.number(rng.pick([0, 1, -1, NaN, Infinity, 2 ** 53, rng.next() * 1e9]));
    case 1:
      return amf.boolean(rng.chance(0.5));
    case 2:
      return amf.string(
        rng.pick(['live', '', 'sk_fuzz', '\u0000', 'x'.repeat(rng.int(300)), '__proto__', 'constructor']),
      );
    case 3:
      return amf.null();
    case 4:
      return amf.undefined();
    case 5:
      return amf.date(rng.next() * 1e12);
    case 6:
      return amf.longString('y'.repeat(rng.int(100)));
    case 7:
      // A marker that is reserved, unsupported or unknown, with some bytes after it.
      return Buffer.concat([
        Buffer.from([rng.pick([0x04, 0x07, 0x09, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x7f, 0xff])]),
        rng.bytes(rng.int(8)),
      ]);
    case 8: {
      // A truncated value.
      const whole = randomAmf(rng, depth + 1);
      return whole.subarray(0, rng.int(whole.length));
    }
    case 9:
    case 10: {
      const properties: Record<string, Buffer> = {};
      for (let i = rng.int(5); i > 0; i--) {
        properties[rng.pick(['app', 'tcUrl', 'type', '__proto__', 'objectEncoding', `k${i}`])] = randomAmf(
          rng,
          depth + 1,
        );
      }
      return rng.chance(0.5)
        ? amf.object(properties)
        : amf.ecmaArray(properties, rng.chance(0.8) ? Object.keys(properties).length : rng.int(2 ** 32));
    }
    case 11: {
      const values = Array.from({ length: rng.int(5) }, () => randomAmf(rng, depth + 1));
      return amf.strictArray(values, rng.chance(0.8) ? values.length : rng.int(2 ** 32));
    }
    default: {
      // Typed object: a class name, then properties.
      const name = amf.string('Klass').subarray(1);
      const body = amf.object({ a: randomAmf(rng, depth + 1) }).subarray(1);
      return Buffer.concat([Buffer.from([0x10]), name, body]);
    }
  }
}

function randomCommand(rng: Random): Buffer {
  const values = Array.from({ length: rng.int(5) }, () => randomAmf(rng));
  if (rng.chance(0.2)) return Buffer.concat(values);
  return Buffer.concat([
    amf.string(rng.pick(COMMANDS)),
    rng.chance(0.9) ? amf.number(rng.int(10)) : randomAmf(rng),
    ...values,
  ]);
}

/** A valid encoder's opening as AMF0 values per command (the key does not exist). */
function openingValues(rng: Random): { streamId: number; values: Buffer[] }[] {
  const key = `sk_${rng.bytes(8).toString('hex')}`;
  const connectObject = {
    app: amf.string('live'),
    type: amf.string('nonprivate'),
    tcUrl: amf.string('rtmp://127.0.0.1/live'),
  };
  return [
    { streamId: 0, values: [amf.string('connect'), amf.number(1), amf.object(connectObject)] },
    { streamId: 0, values: [amf.string('releaseStream'), amf.number(2), amf.null(), amf.string(key)] },
    { streamId: 0, values: [amf.string('createStream'), amf.number(3), amf.null()] },
    {
      streamId: 1,
      values: [amf.string('publish'), amf.number(4), amf.null(), amf.string(key), amf.string('live')],
    },
  ];
}

function commandMessages(commands: { streamId: number; values: Buffer[] }[]): Buffer[] {
  return commands.map(({ streamId, values }) =>
    chunkMessage({ csid: streamId ? 8 : 3, type: MSG.invoke, streamId, payload: Buffer.concat(values) }),
  );
}

function validOpening(rng: Random): Buffer[] {
  return commandMessages(openingValues(rng));
}

/** The valid opening with fields of its commands replaced, dropped or added, maybe reordered. */
function mutatedFields(rng: Random): Buffer[] {
  const commands = openingValues(rng);
  for (let n = 1 + rng.int(2); n > 0; n--) {
    const { values } = rng.pick(commands);
    const at = rng.int(values.length + 1);
    switch (rng.int(3)) {
      case 0:
        values[at] = randomAmf(rng);
        break;
      case 1:
        values.splice(at, 1);
        break;
      default:
        values.splice(at, 0, randomAmf(rng));
    }
  }
  if (rng.chance(0.2)) commands.splice(rng.int(commands.length), 1);
  if (rng.chance(0.2)) commands.reverse();
  return commandMessages(commands);
}

function randomChunk(rng: Random): Buffer {
  const fmt = rng.int(4) as 0 | 1 | 2 | 3;
  const csid = rng.chance(0.8) ? 2 + rng.int(8) : rng.pick([63, 64, 319, 320, 65599, 2 + rng.int(65598)]);
  const length = rng.chance(0.8) ? rng.int(300) : rng.pick([0, 0xffffff, rng.int(0x1000000)]);
  const timestamp = rng.chance(0.7) ? rng.int(1000) : rng.pick([0xffffff, 0xfffffe, 2 ** 32 - 1]);
  const header = chunkHeader({
    fmt,
    csid,
    timestamp,
    length,
    type: rng.pick(TYPES),
    streamId: rng.int(3),
    ...(rng.chance(0.1) ? { extendedTimestamp: rng.int(2 ** 32) } : {}),
  });
  return Buffer.concat([header, rng.bytes(Math.min(length, rng.int(200)))]);
}

function randomMessage(rng: Random): Buffer {
  const type = rng.pick(TYPES);
  let payload: Buffer;
  if (type === MSG.invoke || type === 17) payload = randomCommand(rng);
  else if (type <= 6) payload = rng.bytes(rng.pick([0, 1, 2, 3, 4, 5, 6, 8]));
  else payload = rng.bytes(rng.int(400));
  if (type === 17) payload = Buffer.concat([Buffer.from([0]), payload]);
  return chunkMessage({
    csid: rng.chance(0.9) ? 3 + rng.int(5) : 2,
    type,
    payload,
    streamId: rng.int(2),
    timestamp: rng.chance(0.9) ? rng.int(5000) : 0xffffff + rng.int(1000),
  });
}

/** Flips, inserts, removes or overwrites bytes. */
function mutate(rng: Random, bytes: Buffer): Buffer {
  let out = Buffer.from(bytes);
  for (let n = 1 + rng.int(4); n > 0 && out.length > 0; n--) {
    const at = rng.int(out.length);
    switch (rng.int(4)) {
      case 0:
        out[at] = (out[at] as number) ^ (1 << rng.int(8));
        break;
      case 1:
        out[at] = rng.pick([0x00, 0x01, 0x02, 0x03, 0x05, 0x08, 0x09, 0x0a, 0x0c, 0x11, 0xff]);
        break;
      case 2:
        out = Buffer.concat([out.subarray(0, at), rng.bytes(1 + rng.int(8)), out.subarray(at)]);
        break;
      default:
        out = Buffer.concat([out.subarray(0, at), out.subarray(at + 1 + rng.int(8))]);
    }
  }
  return out;
}

/** The bytes of one case, and whether they replace the handshake. */
function generate(rng: Random): { bytes: Buffer; raw: boolean } {
  switch (rng.int(10)) {
    case 8:
    case 9:
      return { bytes: Buffer.concat(mutatedFields(rng)), raw: false };
    case 0:
      return { bytes: rng.bytes(rng.int(600)), raw: false };
    case 1:
      return {
        bytes: Buffer.concat(Array.from({ length: 1 + rng.int(20) }, () => randomChunk(rng))),
        raw: false,
      };
    case 2:
      return {
        bytes: Buffer.concat(Array.from({ length: 1 + rng.int(6) }, () => randomMessage(rng))),
        raw: false,
      };
    case 3:
      return { bytes: mutate(rng, Buffer.concat(validOpening(rng))), raw: false };
    case 4: {
      // The valid opening, then random messages (media included) after publish.
      const rest = Array.from({ length: 1 + rng.int(6) }, () =>
        rng.chance(0.5) ? randomMessage(rng) : randomChunk(rng),
      );
      return { bytes: Buffer.concat([...validOpening(rng), ...rest]), raw: false };
    }
    case 5: {
      // Control messages, chunk sizes above all, then a connect written with that chunk size.
      const size = rng.pick([
        0,
        1,
        2,
        127,
        128,
        4096,
        65536,
        0x7fffffff,
        0x80000000,
        0xffffffff,
        rng.int(2 ** 32),
      ]);
      const connect = chunkMessage({
        csid: 3,
        type: MSG.invoke,
        payload: command('connect', 1, { app: 'live' }),
        chunkSize: Math.max(1, Math.min(size, 1 << 20)),
      });
      return { bytes: Buffer.concat([setChunkSizeMessage(size), connect, randomMessage(rng)]), raw: false };
    }
    case 6: {
      // Truncated: a prefix of a valid opening.
      const whole = Buffer.concat(validOpening(rng));
      return { bytes: whole.subarray(0, rng.int(whole.length)), raw: false };
    }
    default: {
      // The handshake itself: wrong versions, short or mutated C0 C1, or none at all.
      const c0c1 = handshakeC0C1();
      if (rng.chance(0.5)) c0c1[0] = rng.int(256);
      return { bytes: mutate(rng, c0c1).subarray(0, rng.int(1600)), raw: true };
    }
  }
}

/** Writes `bytes` in a few pieces, sometimes letting the server read between them. */
async function writeSplit(rng: Random, client: RtmpTestClient, bytes: Buffer): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const size = rng.chance(0.3) ? 1 + rng.int(8) : 1 + rng.int(bytes.length);
    client.write(bytes.subarray(offset, offset + size));
    offset += size;
    if (rng.chance(0.3)) await new Promise((resolve) => setImmediate(resolve));
  }
}

test(`the RTMP listener survives ${CASES} fuzzed inputs (seed ${SEED})`, async (t) => {
  const clock = new TestClock();
  const server = await startMediaServer(t, { dialect: 'sqlite', clock, maxRtmpConnections: 64 });
  const account = await server.createAccount('Fuzz');
  const stream = await server.createStream(account);
  const replay = `replay with RTMP_FUZZ_SEED=${SEED} RTMP_FUZZ_CASES=${CASES}`;
  let next = 0;
  const failures: string[] = [];

  const worker = async () => {
    for (let index = next++; index < CASES && failures.length === 0; index = next++) {
      // One generator per case, so a case can be replayed by its index alone.
      const rng = new Random(SEED ^ Math.imul(index + 1, 0x9e3779b1));
      const { bytes, raw } = generate(rng);
      let client: RtmpTestClient;
      try {
        client = await RtmpTestClient.open(server.rtmpPort, { handshake: !raw });
      } catch (error) {
        failures.push(
          `case ${index}: the listener did not accept and handshake (${(error as Error).message}); ${replay}`,
        );
        return;
      }
      try {
        await writeSplit(rng, client, bytes);
        await client.closesWithin(rng.chance(0.1) ? 30 : 2);
      } finally {
        client.close();
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  assert.deepEqual(failures, []);

  // Nothing went wrong other than as a protocol error (those are warn lines, not errors).
  const errors = server.logs.map((line) => JSON.parse(line)).filter((line) => line.level >= 50);
  assert.deepEqual(
    errors.map((line) => `${line.msg}: ${line.err?.message ?? ''}`),
    [],
    `no error logged; ${replay}`,
  );
  const warned = server.logs.filter((line) => line.includes('"rtmp connection closed"')).length;
  t.diagnostic(`${warned} of ${CASES} connections closed as protocol errors; seed ${SEED}`);
  assert.ok(warned > CASES / 4, `most cases are protocol errors (${warned}); ${replay}`);

  // The fuzzed keys locked 127.0.0.1 out; once that passes, a real encoder goes live.
  clock.advance(PENALTY_DEFAULTS.maxLockMs + PENALTY_DEFAULTS.windowMs + 1);
  assert.equal((await server.request('GET', '/healthz')).status, 200);
  const push = pushTestPattern(`${stream.ingest.rtmp_url}/${stream.ingest.stream_key}`, 5, {
    size: '320x240',
  });
  t.after(() => {
    push.stop();
  });
  await waitFor('the stream to go live after the fuzzing', async () => {
    const res = await server.request('GET', `/v1/streams/${stream.id}`, { key: account.readKey });
    return res.body.status === 'live' ? true : undefined;
  });
});

/** A PROXY protocol header, valid or mutated, of either version, maybe followed by a handshake. */
function proxyHeaderCase(rng: Random): Buffer {
  const v1 = Buffer.from(`PROXY TCP4 203.0.113.${rng.int(256)} 127.0.0.1 ${rng.int(65536)} 1935\r\n`);
  const payload = rng.bytes(rng.pick([0, 4, 12, 36, 40, 300]));
  const v2Head = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(rng.chance(0.8) ? payload.length : rng.int(65536));
  const v2 = Buffer.concat([v2Head, Buffer.from([0x20 | rng.int(3), rng.int(256)]), length, payload]);
  const header = rng.pick([v1, v2, Buffer.from('PROXY UNKNOWN\r\n'), rng.bytes(rng.int(120))]);
  const mutated = rng.chance(0.5) ? mutate(rng, header) : header;
  const tail = rng.chance(0.5) ? handshakeC0C1() : rng.bytes(rng.int(64));
  return Buffer.concat([mutated.subarray(0, rng.chance(0.2) ? rng.int(mutated.length) : undefined), tail]);
}

const PROXY_CASES = Math.max(100, Math.floor(CASES / 6));

test(`behind a PROXY protocol balancer, the listener survives ${PROXY_CASES} fuzzed headers (seed ${SEED})`, async (t) => {
  const server = await startMediaServer(t, { dialect: 'sqlite', rtmpProxyProtocol: true });
  const account = await server.createAccount('Fuzz behind nginx');
  const stream = await server.createStream(account);
  const replay = `replay with RTMP_FUZZ_SEED=${SEED} RTMP_FUZZ_CASES=${CASES}`;
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < PROXY_CASES; index = next++) {
      const rng = new Random(SEED ^ Math.imul(index + 7, 0x85ebca6b));
      const client = await RtmpTestClient.open(server.rtmpPort, { handshake: false });
      try {
        await writeSplit(rng, client, proxyHeaderCase(rng));
        await client.closesWithin(2);
      } finally {
        client.close();
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  const errors = server.logs.map((line) => JSON.parse(line)).filter((line) => line.level >= 50);
  assert.deepEqual(
    errors.map((line) => `${line.msg}: ${line.err?.message ?? ''}`),
    [],
    `no error logged; ${replay}`,
  );
  // An encoder behind the balancer still goes live.
  const client = await RtmpTestClient.open(server.rtmpPort, {
    proxyHeader: 'PROXY TCP4 198.51.100.1 127.0.0.1 40000 1935\r\n',
  });
  t.after(() => {
    client.close();
  });
  client.startPublish('live', stream.ingest.stream_key as string);
  assert.equal((await client.nextStatus())?.code, 'NetStream.Publish.Start');
});
