// A video recorded from a stream replays the stream's chat: the API lists it (with each message's
// place in the recording), and the video's watch page carries it for public/chat.js to show as
// playback reaches each one. A video not made from a stream has no chat panel.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../helpers/app.ts';
import { TestClock } from '../helpers/clock.ts';
import { seedVideos } from '../helpers/seed.ts';

test('a video made from a stream replays its chat in time with playback', async (t) => {
  const clock = new TestClock();
  const app = await startTestApp(t, { dialect: 'sqlite', clock });
  const creator = await app.createAccount('Cora');
  const viewer = await app.createAccount('Vic');
  const stream = await app.createStream(creator);
  const startedAt = clock.now();
  await app.services.database.db
    .updateTable('streams')
    .set({ status: 'live', started_at: startedAt })
    .where('id', '=', stream.id)
    .execute();
  for (const [after, text] of [
    [5_000, 'five seconds in'],
    [65_000, 'a minute later'],
  ] as const) {
    clock.set(startedAt + after);
    const posted = await app.request('POST', `/v1/streams/${stream.id}/chat/messages`, {
      key: viewer.writeKey,
      body: { text },
    });
    assert.equal(posted.status, 201);
  }
  const [videoId, plainId] = await seedVideos(app.services.database.db, 2, (i) => ({
    creator_id: creator.userId,
    source_stream_id: i === 0 ? stream.id : null,
  }));
  const listed = await app.request('GET', `/v1/videos/${videoId}/chat/messages`, { key: viewer.readKey });
  assert.deepEqual(
    listed.body.data.map((m: any) => [m.text, m.offset_ms]),
    [
      ['five seconds in', 5_000],
      ['a minute later', 65_000],
    ],
  );
  const page = await fetch(`${app.origin}/watch/${videoId}`);
  const html = await page.text();
  assert.match(html, /<h2 id="chat-title">Chat replay<\/h2>/);
  const data = JSON.parse(
    /<script id="chat-data" type="application\/json">([^<]*)<\/script>/.exec(html)?.[1] ?? '{}',
  );
  assert.equal(data.mode, 'replay');
  assert.deepEqual(
    data.messages.map((m: any) => m.offset_ms),
    [5_000, 65_000],
  );
  assert.match(html, /\/assets\/chat\.js/);
  const plain = await (await fetch(`${app.origin}/watch/${plainId}`)).text();
  assert.doesNotMatch(plain, /chat-data/);
  assert.equal(
    (await app.request('GET', `/v1/videos/vid_nothing/chat/messages`, { key: viewer.readKey })).status,
    404,
  );
});
