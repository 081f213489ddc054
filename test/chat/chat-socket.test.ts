// The watch page's chat socket against the real server on both databases: history for a late
// viewer, order, a resume that loses and repeats nothing, who may post, and hostile clients.
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { TestClock } from '../helpers/clock.ts';
import { rawExchange } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';
import { ChatClient, sessionCookie } from './chat-client.ts';

async function room(app: TestApp) {
  const creator = await app.createAccount('Cora Creator');
  const stream = await app.createStream(creator);
  const viewer = await app.createAccount('Vic Viewer');
  const other = await app.createAccount('Ola Other');
  return {
    creator,
    viewer,
    other,
    streamId: stream.id as string,
    creatorCookie: await sessionCookie(app.services.sessions, creator.userId),
    viewerCookie: await sessionCookie(app.services.sessions, viewer.userId),
    otherCookie: await sessionCookie(app.services.sessions, other.userId),
  };
}

for (const dialect of DIALECTS) {
  describe(`chat socket (${dialect})`, () => {
    test('two viewers see each other in order, a late one gets the history, roles are marked', async (t) => {
      const app = await startTestApp(t, { dialect });
      const r = await room(app);
      const a = await ChatClient.connect(app.origin, r.streamId, { cookie: r.viewerCookie });
      const b = await ChatClient.connect(app.origin, r.streamId, { cookie: r.creatorCookie });
      t.after(() => {
        a.close();
        b.close();
      });
      assert.equal((await a.hello()).user.name, 'Vic Viewer');
      assert.equal((await b.hello()).user.role, 'creator');
      assert.equal((await a.post('hello <b>world</b> https://example.com')).type, 'posted');
      assert.equal((await b.post('welcome 👋')).type, 'posted');
      assert.equal((await a.post('thanks')).type, 'posted');
      const expected = ['hello <b>world</b> https://example.com', 'welcome 👋', 'thanks'];
      assert.deepEqual(await a.waitForTexts(3), expected);
      assert.deepEqual(await b.waitForTexts(3), expected);
      assert.deepEqual(
        a.messages().map((m) => m.seq),
        [1, 2, 3],
      );
      assert.deepEqual(
        a.messages().map((m) => [m.author.name, m.author.role]),
        [
          ['Vic Viewer', 'viewer'],
          ['Cora Creator', 'creator'],
          ['Vic Viewer', 'viewer'],
        ],
      );
      // A late viewer, signed out, reads the history and may not post.
      const late = await ChatClient.connect(app.origin, r.streamId);
      t.after(() => {
        late.close();
      });
      const hello = await late.hello();
      assert.deepEqual(late.texts(), expected);
      assert.equal(hello.can_post, false);
      assert.equal(hello.reason.code, 'authentication_required');
      const refused = await late.post('me too');
      assert.equal(refused.code, 'authentication_required');
    });

    test('a dropped connection resumes from its last seq without losing or repeating', async (t) => {
      const clock = new TestClock();
      const app = await startTestApp(t, { dialect, clock });
      const r = await room(app);
      const writer = await ChatClient.connect(app.origin, r.streamId, { cookie: r.creatorCookie });
      const reader = await ChatClient.connect(app.origin, r.streamId, { cookie: r.viewerCookie });
      t.after(() => {
        writer.close();
      });
      for (let i = 1; i <= 5; i++) assert.equal((await writer.post(`m${i}`)).type, 'posted');
      await reader.waitForTexts(5);
      const seen = reader.lastSeq();
      reader.close();
      await reader.closed();
      for (let i = 6; i <= 12; i++) {
        clock.advance(1000);
        assert.equal((await writer.post(`m${i}`)).type, 'posted');
      }
      const resumed = await ChatClient.connect(app.origin, r.streamId, {
        cookie: r.viewerCookie,
        after: seen,
      });
      t.after(() => {
        resumed.close();
      });
      assert.equal((await writer.post('m13')).type, 'posted');
      const texts = await resumed.waitForTexts(8);
      assert.deepEqual(texts, ['m6', 'm7', 'm8', 'm9', 'm10', 'm11', 'm12', 'm13']);
      assert.deepEqual(
        resumed.messages().map((m) => m.seq),
        [6, 7, 8, 9, 10, 11, 12, 13],
      );
    });

    test('another site cannot open the chat with a visitor cookie; bad resume points are refused', async (t) => {
      const app = await startTestApp(t, { dialect });
      const r = await room(app);
      const foreign = new ChatClient(app.origin, r.streamId, {
        cookie: r.viewerCookie,
        origin: 'https://evil.example',
      });
      await assert.rejects(foreign.opened, /upgrade refused: 403/);
      const own = await ChatClient.connect(app.origin, r.streamId, {
        cookie: r.viewerCookie,
        origin: app.origin,
      });
      own.close();
      await assert.rejects(new ChatClient(app.origin, r.streamId, { after: -1 }).opened, /400/);
      await assert.rejects(new ChatClient(app.origin, 'str_nothing').opened, /404/);
      // A plain GET of the socket's address is a clear error, not a hang.
      const plain = await app.request('GET', `/watch/${r.streamId}/chat`);
      assert.equal(plain.status, 400);
      assert.equal(plain.body.error.code, 'malformed_request');
    });

    test('a handshake ws refuses (no key, a bad key, another version, a bad protocol) is a 400 in the envelope', async (t) => {
      const app = await startTestApp(t, { dialect });
      const r = await room(app);
      const cases = [
        'Sec-WebSocket-Version: 13\r\n',
        'Sec-WebSocket-Key: short\r\nSec-WebSocket-Version: 13\r\n',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 99\r\n',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: a,,b\r\n',
      ];
      for (const headers of cases) {
        const exchange = await rawExchange(
          app.port,
          `GET /watch/${r.streamId}/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n${headers}\r\n`,
          { waitMs: 5000 },
        );
        const answer = exchange.responses[0];
        assert.equal(answer?.status, 400, headers);
        assert.match(answer.headers['content-type'] ?? '', /^application\/json/, headers);
        assert.equal(
          (JSON.parse(answer.body) as { error: { code: string } }).error.code,
          'malformed_request',
        );
        assert.equal(exchange.closed, true, `${headers}: closed`);
      }
    });

    test('an upgrade refused before its route runs (rate limit, a body, a malformed path) is answered and closed, not left open', async (t) => {
      const app = await startTestApp(t, { dialect, rateLimitPerIp: 3 });
      const r = await room(app);
      const upgrade = (extra = '') =>
        `GET /watch/${r.streamId}/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n` +
        `Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`;
      // Such a socket has left Node's HTTP server: no idle timeout would ever end it.
      const answers: { status: string; closed: boolean }[] = [];
      const sockets: net.Socket[] = [];
      try {
        for (const request of [
          upgrade('Content-Length: 5\r\n') + 'hello',
          // A malformed escape in the path is refused before any hook runs.
          upgrade().replace(`/watch/${r.streamId}/chat`, '/watch/%zz/chat'),
          ...Array.from({ length: 5 }, () => upgrade()),
        ]) {
          const socket = net.connect(app.port, '127.0.0.1');
          sockets.push(socket);
          socket.on('error', () => undefined);
          const answer = { status: '', closed: false };
          answers.push(answer);
          socket.on('data', (chunk: Buffer) => {
            answer.status ||= chunk.toString('latin1').slice(9, 12);
          });
          socket.on('close', () => {
            answer.closed = true;
          });
          socket.write(request);
          await waitFor(() => answer.status || undefined, { what: 'an answer', timeoutMs: 5000 });
          // An accepted one stays open as the chat; the rest are closed once answered.
          if (answer.status === '101') socket.destroy();
          else
            await waitFor(() => answer.closed || undefined, {
              what: `close after ${answer.status}`,
              timeoutMs: 5000,
            });
        }
      } finally {
        for (const socket of sockets) socket.destroy();
      }
      assert.deepEqual(
        answers.map((answer) => answer.status),
        ['400', '404', '101', '101', '429', '429', '429'],
      );
    });

    test('hostile frames close only their own socket; a slow reader is dropped, not buffered', async (t) => {
      const app = await startTestApp(t, { dialect, chat: { sendBufferLimit: 64 * 1024 } });
      const r = await room(app);
      const good = await ChatClient.connect(app.origin, r.streamId, { cookie: r.creatorCookie });
      t.after(() => {
        good.close();
      });
      // Binary.
      const binary = await ChatClient.connect(app.origin, r.streamId, { cookie: r.viewerCookie });
      binary.socket.send(Buffer.from([1, 2, 3]));
      assert.equal(await binary.closed(), 1003);
      // Oversized.
      const big = await ChatClient.connect(app.origin, r.streamId, { cookie: r.viewerCookie });
      big.socket.send(JSON.stringify({ type: 'post', text: 'x'.repeat(20_000) }));
      assert.equal(await big.closed(), 1009);
      // Malformed JSON: an error frame each, then closed after a run of them.
      const garbled = await ChatClient.connect(app.origin, r.streamId, { cookie: r.viewerCookie });
      garbled.socket.send('{"type":');
      const error = await waitFor(() => garbled.frames.find((f) => f.type === 'error'));
      assert.equal(error.code, 'invalid_json');
      for (let i = 0; i < 6; i++) garbled.socket.send('[1,2');
      assert.equal(await garbled.closed(), 1007);
      // A flood of frames.
      const flood = await ChatClient.connect(app.origin, r.streamId, { cookie: r.viewerCookie });
      for (let i = 0; i < 100; i++) flood.socket.send(JSON.stringify({ type: 'ping' }));
      assert.equal(await flood.closed(), 1008);

      // A reader that completes the handshake and then never reads.
      const slow = net.connect(app.port, '127.0.0.1');
      await new Promise((resolve) => slow.once('connect', resolve));
      slow.write(
        `GET /watch/${r.streamId}/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      );
      await new Promise((resolve) => slow.once('data', resolve));
      slow.pause();
      t.after(() => slow.destroy());
      const hub = app.app.chatHub;
      // The volume comes straight through the chat bus (as another process's messages would):
      // 20 MB, far past what the kernel's buffers take, at 4 KB a message, ten at a time as
      // fast as the good reader takes them.
      const room0 = await app.services.chat.lastSeq(r.streamId);
      const text = 'y'.repeat(4000);
      const started = performance.now();
      for (let i = 1; i <= 5_000; i++) {
        app.services.chat.bus.publish({
          kind: 'message',
          streamId: r.streamId,
          message: {
            id: `chm_${i}`,
            stream_id: r.streamId,
            seq: room0 + i,
            author: { id: r.creator.userId, name: 'Cora Creator', role: 'creator' },
            text,
            created_at: new Date().toISOString(),
            offset_ms: null,
          },
        });
        if (i % 10 === 0)
          await waitFor(() => good.messages().length >= i, {
            intervalMs: 2,
            what: `message ${i} (good has ${good.messages().length}, closed ${good.closeCode})`,
          });
      }
      await waitFor(() => good.messages().length >= 5_000, {
        what: 'the good reader to get every message',
        timeoutMs: 60_000,
      });
      const elapsed = performance.now() - started;
      const dropped = await waitFor(() => {
        const stats = hub.stats();
        return stats.droppedSlow >= 1 ? stats.droppedSlow : undefined;
      });
      assert.equal(dropped, 1);
      t.diagnostic(`5,000 messages of 4 KB to the good reader in ${Math.round(elapsed)} ms`);
      // The server still answers, and the good reader can still post.
      assert.equal((await good.post('still here')).type, 'posted');
    });
  });
}
