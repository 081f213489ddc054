// The chat of a real live stream and its replay with the recording, in headless Chromium: ffmpeg
// pushes over RTMP to the real ingest; a viewer watches the live stream (hls.js playing) and
// chats beside it with the creator; the stream ends, its recording is published, and the video's
// watch page shows each message only once playback reaches the moment it was sent.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { launchBrowser, waitUntilPlaying } from '../helpers/media-browser.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { pushTestPattern, waitFor } from '../helpers/media-tools.ts';
import { screenshotBothWidths } from '../helpers/web-browser.ts';
import { ChatClient, sessionCookie } from './chat-client.ts';

test(
  'a real live stream: chat beside the player, then replayed in time with its recording',
  { timeout: 300_000 },
  async (t) => {
    const server = await startMediaServer(t, { dialect: 'sqlite' });
    const creator = await server.createAccount('Cora Creator');
    const vic = await server.createAccount('Vic Viewer');
    const stream = await server.createStream(creator, { title: 'Chat over a real push' });
    const push = pushTestPattern(`${stream.ingest.rtmp_url}/${stream.ingest.stream_key}`, 120, {
      size: '640x360',
    });
    t.after(() => {
      push.stop();
    });
    await waitFor(
      'the stream live',
      async () =>
        (await server.request('GET', `/v1/streams/${stream.id}`, { key: creator.readKey })).body.status ===
          'live' || undefined,
      { timeoutMs: 60_000 },
    );

    // Vic watches the live stream and chats beside it; the creator answers from a socket.
    const context = await launchBrowser(t);
    const { token } = await server.services.sessions.start(vic.userId);
    await context.addCookies([{ name: 'tributary_session', value: token, url: server.origin }]);
    const live = await context.newPage();
    const errors: string[] = [];
    live.on('pageerror', (error) => errors.push(error.message));
    await live.goto(`${server.origin}/watch/${stream.id}`);
    await waitUntilPlaying(live, 1, 60_000);
    // A stream passed through without a ladder names no size or bitrate: its one level is "Source".
    assert.equal(await live.textContent('#quality-current'), 'Playing Source');
    const host = await ChatClient.connect(server.origin, stream.id, {
      cookie: await sessionCookie(server.services.sessions, creator.userId),
    });
    t.after(() => {
      host.close();
    });
    await live.fill('#chat-input', 'Hello from the live page');
    await live.press('#chat-input', 'Enter');
    assert.ok((await host.waitForTexts(1)).includes('Hello from the live page'), 'the creator sees it');
    // Some seconds later, so the two messages are apart in the recording.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    assert.equal((await host.post('Thanks for watching')).type, 'posted');
    await live.locator('#chat-messages li', { hasText: 'Thanks for watching' }).waitFor();
    await screenshotBothWidths(live, 'chat-live-stream');
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    // The stream ends; its recording is published with the stream's chat.
    push.stop();
    const ended = await server.request('POST', `/v1/streams/${stream.id}/end`, { key: creator.writeKey });
    assert.equal(ended.status, 200);
    const published = await waitFor(
      'the recording published',
      async () => (await server.events('video.published')).find((e) => e.data.source_stream_id === stream.id),
      { timeoutMs: 90_000 },
    );
    const videoId = published.data.id as string;
    const listed = await server.request('GET', `/v1/videos/${videoId}/chat/messages`, { key: vic.readKey });
    assert.equal(listed.status, 200);
    const offsets = listed.body.data.map((m: { text: string; offset_ms: number }) => [m.text, m.offset_ms]);
    assert.deepEqual(
      offsets.map(([text]: [string]) => text),
      ['Hello from the live page', 'Thanks for watching'],
    );
    const [, secondOffset] = offsets[1] as [string, number];
    assert.ok(secondOffset - (offsets[0] as [string, number])[1] >= 3_000, JSON.stringify(offsets));

    // The video's page shows each message only once playback reaches it.
    const replay = await context.newPage();
    replay.on('pageerror', (error) => errors.push(error.message));
    await replay.goto(`${server.origin}/watch/${videoId}`);
    await replay.locator('#chat-title', { hasText: 'Chat replay' }).waitFor();
    const second = replay.locator('#chat-messages li', { hasText: 'Thanks for watching' });
    const atStart = await replay.evaluate(
      () => (globalThis as any).document.querySelector('#player').currentTime,
    );
    if (atStart * 1000 < secondOffset - 500) assert.equal(await second.count(), 0, 'not before its moment');
    await waitUntilPlaying(replay, secondOffset / 1000 + 0.5, 60_000);
    await second.waitFor({ timeout: 5_000 });
    assert.equal(
      await replay.locator('#chat-messages li', { hasText: 'Hello from the live page' }).count(),
      1,
    );
    // Seeking back before the second message takes it away again.
    await replay.evaluate(
      (seconds) => {
        (globalThis as any).document.querySelector('#player').currentTime = seconds;
      },
      Math.max(0, (offsets[0] as [string, number])[1] / 1000 + 0.2),
    );
    await second.waitFor({ state: 'detached', timeout: 5_000 });
    await screenshotBothWidths(replay, 'chat-replay');
    assert.deepEqual(errors, []);
  },
);
