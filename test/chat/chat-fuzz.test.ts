// Hostile frames on the chat socket, fuzzed from a seed (TEST_FUZZ_SEED replays a run): bounded at
// 30 sockets of up to 40 frames each and 60 s. Frames are random bytes, truncated and mangled JSON,
// wrong types, huge numbers, odd Unicode, binary, and valid posts with hostile text. Whatever they
// do, the server answers every frame it keeps with a JSON error or a result, never crashes, and a
// well-behaved client keeps chatting throughout.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { startTestApp } from '../helpers/app.ts';
import { prng, type Rng } from '../helpers/prng.ts';
import { ChatClient, sessionCookie } from './chat-client.ts';

const SEED = Number(process.env.TEST_FUZZ_SEED ?? Date.now() % 1_000_000);
const SOCKETS = 30;
const FRAMES = 40;

function hostileFrame(rng: Rng): string | Buffer {
  const texts = [
    '',
    ' ',
    '\u0000',
    '\u202e',
    '😀'.repeat(300),
    '<script>alert(1)</script>',
    'a'.repeat(600),
    '\ud800',
  ];
  switch (rng.int(10)) {
    case 0:
      return randomBytes(rng.int(200));
    case 1:
      return randomBytes(rng.int(100)).toString('latin1');
    case 2:
      return JSON.stringify({ type: 'post', text: rng.pick(texts) }).slice(0, rng.int(40));
    case 3:
      return JSON.stringify(rng.pick([null, 1, 'post', [], [{ type: 'post' }], true]));
    case 4:
      return JSON.stringify({
        type: rng.pick(['post', 'delete', 'timeout', 'ping', 'PoSt', '__proto__']),
        text: rng.pick([Number.POSITIVE_INFINITY, -1, {}, [], null]),
      });
    case 5:
      return JSON.stringify({
        type: 'timeout',
        user_id: 'usr_x'.repeat(rng.int(30)),
        seconds: rng.pick([-5, 0, 1e12, 0.5, 'x']),
      });
    case 6:
      return JSON.stringify({ type: 'delete', id: rng.pick(['', 'chm_x', '../../etc', 'x'.repeat(100)]) });
    case 7:
      return `{"type":"post","text":"${'\\u'.repeat(rng.int(5))}"}`;
    case 8:
      return JSON.stringify({
        type: 'post',
        text: rng.pick(texts),
        nonce: 'n'.repeat(rng.int(100)),
        __proto__: { admin: true },
      });
    default:
      return '{"type":"post","text":' + '['.repeat(rng.int(5000)) + ']'.repeat(rng.int(5000)) + '}';
  }
}

test(
  `hostile chat frames never end the process or slow the others (seed ${SEED})`,
  { timeout: 120_000 },
  async (t) => {
    const rng = prng(SEED);
    const app = await startTestApp(t, { dialect: 'sqlite', clock: { now: () => Date.now() } });
    const creator = await app.createAccount('Cora');
    const mallory = await app.createAccount('Mallory');
    const stream = await app.createStream(creator);
    const good = await ChatClient.connect(app.origin, stream.id, {
      cookie: await sessionCookie(app.services.sessions, creator.userId),
    });
    t.after(() => {
      good.close();
    });
    const cookie = await sessionCookie(app.services.sessions, mallory.userId);
    const deadline = Date.now() + 60_000;
    let frames = 0;
    for (let s = 0; s < SOCKETS && Date.now() < deadline; s++) {
      const bad = await ChatClient.connect(app.origin, stream.id, { cookie, forwardedFor: `10.1.0.${s}` });
      const count = 1 + rng.int(FRAMES);
      for (let i = 0; i < count && bad.socket.readyState === bad.socket.OPEN; i++) {
        bad.socket.send(hostileFrame(rng));
        frames++;
      }
      // Every frame the server answered was answered in JSON (the client parses each; a
      // non-JSON frame would have thrown in its handler).
      bad.close();
      // The good client still chats at once (every third socket: a well-behaved client keeps
      // under the socket's 10 frames a second).
      if (s % 3 === 0) {
        const answer = await good.post(`still fine after socket ${s}`);
        assert.equal(answer.type, 'posted', JSON.stringify(answer));
      }
    }
    t.diagnostic(`${frames} hostile frames over ${SOCKETS} sockets`);
    assert.equal((await app.request('GET', '/healthz')).status, 200);
    assert.ok(good.texts().length >= SOCKETS / 3);
  },
);
