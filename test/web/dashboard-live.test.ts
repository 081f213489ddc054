// The stream page's live status (server-sent events) on a real server, on both databases: it
// pushes changes, holds at most a few connections per user, and ends when the session does.
// (The dashboard's forms are in test/web/csrf-routes-dashboard.ts for csrf.test.ts.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SSE_CONNECTIONS_PER_USER } from '../../src/web/dashboard/stream-events.ts';
import { startTestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { waitFor } from '../helpers/wait.ts';
import { signUp, type WebAgent } from '../helpers/web.ts';

const PASSWORD = 'correct horse battery';

async function newStream(agent: WebAgent, title: string): Promise<string> {
  const created = await agent.post('/dashboard/streams', { title, record: 'on' });
  const id = /\/dashboard\/streams\/(str_\w+)/.exec(created.headers.get('location') ?? '')?.[1];
  assert.ok(id, `created: ${created.status}`);
  return id;
}

/** Reads server-sent events from a streaming fetch response. */
function sseReader(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    /** The next `stream` event's data, or undefined when the server ended the stream. */
    async next(): Promise<Record<string, unknown> | undefined> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (/^event: stream$/m.test(block) && data !== undefined)
            return JSON.parse(data) as Record<string, unknown>;
          continue;
        }
        const chunk = await reader.read();
        if (chunk.done) return undefined;
        buffer += decoder.decode(chunk.value, { stream: true });
      }
    },
    /** Resolves true once the server ends the stream. */
    async ended(): Promise<boolean> {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) return true;
      }
    },
    cancel: () => reader.cancel(),
  };
}

for (const dialect of DIALECTS) {
  test(`${dialect}: the stream page's live status: pushed changes, a per-user cap, closed on sign-out`, async (t) => {
    const server = await startTestApp(t, { dialect });
    const ada = await signUp(server.origin, { name: 'Ada', email: 'ada@example.com', password: PASSWORD });
    const streamId = await newStream(ada, 'Live soon');
    const open = async () => {
      const response = await fetch(`${server.origin}/dashboard/streams/${streamId}/events`, {
        headers: { cookie: ada.cookie },
      });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
      return sseReader(response);
    };
    const first = await open();
    t.after(() => first.cancel().catch(() => undefined));
    assert.equal((await first.next())?.status, 'scheduled', 'the current state at once');

    await server.services.streams.goLive(streamId);
    const live = await first.next();
    assert.equal(live?.status, 'live');
    assert.equal(live.viewer_count, 0);
    await server.services.streams.setViewerCount(streamId, 3);
    assert.equal((await first.next())?.viewer_count, 3, 'the viewer count, without a reload');

    // A user's connections are capped: the oldest is closed for a new one.
    const more = [];
    for (let i = 0; i < SSE_CONNECTIONS_PER_USER; i++) more.push(await open());
    assert.equal(await first.ended(), true, 'the oldest connection was closed');
    for (const reader of more) assert.equal((await reader.next())?.viewer_count, 3);

    const signedOut = await ada.post('/sign-out', {});
    assert.equal(signedOut.status, 303);
    const ends = await Promise.race([
      Promise.all(more.map((reader) => reader.ended())).then(() => 'ended'),
      // A generous bound: signing out closes them at once, and this only delays a failure.
      new Promise((resolve) => setTimeout(resolve, 30_000, 'still open').unref()),
    ]);
    assert.equal(ends, 'ended', 'every live connection ends with its session');
    await waitFor(
      async () =>
        (
          await fetch(`${server.origin}/dashboard/streams/${streamId}/events`, {
            headers: { cookie: ada.cookie },
            redirect: 'manual',
          })
        ).status === 303
          ? true
          : undefined,
      { what: 'signed out' },
    );
  });
}
