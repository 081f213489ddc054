// Viewer counts and live-playlist fetches against a real server: random viewer ids in presence
// signals from one address do not inflate the count the API reports, each address counts,
// playlist fetches count nobody, and an address that fetches a live playlist far more often
// than a player would is told to slow down. The playlist limit's windows run on the services'
// clock, which the test holds still: how many fetches a burst gets through does not depend on
// how fast the machine sends them, nor on where a minute boundary falls.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, test } from 'node:test';
import { RATE_LIMIT_WINDOW_MS, windowStart } from '../../src/http/rate-limit-store.ts';
import { TestClock } from '../helpers/clock.ts';
import { startMediaServer, type MediaTestServer } from '../helpers/media-server.ts';
import { waitFor } from '../helpers/media-tools.ts';

/** As many players as one address may add to a stream's count (a household behind one NAT). */
const PLAYERS_PER_ADDRESS = 3;
/** A player refetches the live playlist every ~2 s: 30 a minute; four players' worth. */
const PLAYLIST_FETCHES_PER_MINUTE = 120;
/**
 * How long a player counts after its last presence signal, for the tests that count them:
 * long enough that none expires while a loaded machine makes the test slow (expiry is tested
 * with a controlled clock in test/media/viewer-tracker.test.ts).
 */
const VIEWER_WINDOW_MS = 180_000;

/** A stream that is live with one segment on disk, as the ingest leaves it while publishing. */
async function liveStream(server: MediaTestServer): Promise<{ id: string; readKey: string }> {
  const account = await server.createAccount();
  const stream = await server.createStream(account);
  await server.services.streams.goLive(stream.id);
  const dir = path.join(server.dataDir, 'media', 'streams', stream.id);
  fs.mkdirSync(path.join(dir, 'p0'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'p0', 'seg00000.ts'), 'segment');
  fs.writeFileSync(
    path.join(dir, 'index.m3u8'),
    '#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n' +
      '#EXT-X-PLAYLIST-TYPE:EVENT\n#EXTINF:2.000,\np0/seg00000.ts\n',
  );
  return { id: stream.id, readKey: account.readKey };
}

interface Fetched {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A GET from a chosen loopback address (all of 127.0.0.0/8 reaches the server on 127.0.0.1). */
function getFrom(localAddress: string, url: string, agent: http.Agent, method = 'GET'): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { localAddress, agent, method }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
      });
    });
    request.on('error', reject);
    request.end();
  });
}

/** `count` fetches from one address, a few at a time over kept-alive connections. */
async function fetchMany(
  localAddress: string,
  urls: () => string,
  count: number,
  parallel = 8,
  method = 'GET',
): Promise<Fetched[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: parallel });
  const results: Fetched[] = [];
  let started = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (started < count) {
        started++;
        results.push(await getFrom(localAddress, urls(), agent, method));
      }
    }),
  );
  agent.destroy();
  return results;
}

async function viewerCount(server: MediaTestServer, id: string, key: string): Promise<number> {
  const res = await server.request('GET', `/v1/streams/${id}`, { key });
  assert.equal(res.status, 200);
  return res.body.viewer_count as number;
}

/**
 * Waits for the ingest's flushes (every couple of seconds) to bring the count the API reports to
 * `expected`. The bound is generous: it only delays a failure on a loaded machine.
 */
async function expectViewers(server: MediaTestServer, id: string, key: string, expected: number) {
  let last = -1;
  try {
    await waitFor(
      `viewer_count ${expected}`,
      async () => {
        last = await viewerCount(server, id, key);
        return last === expected;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
  } catch {
    assert.fail(`viewer_count stayed ${last}, expected ${expected}`);
  }
}

describe('viewer counts and live playlist limits', () => {
  test('a thousand presence signals with random viewer ids from one address count as that address own players', async (t) => {
    const server = await startMediaServer(t, { dialect: 'sqlite', viewerWindowMs: VIEWER_WINDOW_MS });
    const stream = await liveStream(server);
    const presence = () => `${server.origin}/watch/${stream.id}/presence?viewer=${randomUUID()}`;

    const flood = await fetchMany('127.0.0.1', presence, 1000, 8, 'POST');
    assert.ok(flood.filter((res) => res.status === 204).length >= PLAYERS_PER_ADDRESS);
    // The rest are told to slow down, in the envelope.
    assert.ok(flood.some((res) => res.status === 429 && res.body.includes('rate_limit_exceeded')));
    await expectViewers(server, stream.id, stream.readKey, PLAYERS_PER_ADDRESS);
    // Another address is another household: its one player counts.
    const other = await getFrom('127.0.0.2', presence(), new http.Agent(), 'POST');
    assert.equal(other.status, 204);
    await expectViewers(server, stream.id, stream.readKey, PLAYERS_PER_ADDRESS + 1);
  });

  test('each address counts, and playlist fetches count nobody', async (t) => {
    const server = await startMediaServer(t, { dialect: 'sqlite', viewerWindowMs: VIEWER_WINDOW_MS });
    const stream = await liveStream(server);
    // Refreshing the playlist, as players do every segment (and as an edge cache does for
    // many), is no viewer: only presence signals are.
    const playlist = (viewer: string) =>
      `${server.origin}/media/streams/${stream.id}/index.m3u8?viewer=${viewer}`;
    for (const from of ['127.0.0.3', '127.0.0.4', '127.0.0.5']) {
      assert.equal((await getFrom(from, playlist(`lurker-${from}`), new http.Agent())).status, 200);
    }
    const presence = (viewer: string) => `${server.origin}/watch/${stream.id}/presence?viewer=${viewer}`;
    for (let i = 0; i < 3; i++) {
      assert.equal(
        (await getFrom('127.0.0.1', presence('player-one-aaaa'), new http.Agent(), 'POST')).status,
        204,
      );
      assert.equal(
        (await getFrom('127.0.0.2', presence('player-two-bbbb'), new http.Agent(), 'POST')).status,
        204,
      );
    }
    await expectViewers(server, stream.id, stream.readKey, 2);
  });

  test('an address fetching a live playlist faster than players do gets a 429 in the envelope', async (t) => {
    // The whole burst falls in one window, 1 s into it, however long the machine takes to send it.
    const clock = new TestClock(windowStart(Date.now()) + 1000);
    const server = await startMediaServer(t, { dialect: 'sqlite', clock });
    const stream = await liveStream(server);
    const second = await liveStream(server);
    const url = `${server.origin}/media/streams/${stream.id}/index.m3u8?viewer=player-one-aaaa`;

    const burst = await fetchMany('127.0.0.1', () => url, PLAYLIST_FETCHES_PER_MINUTE + 5, 4);
    const ok = burst.filter((res) => res.status === 200);
    const limited = burst.filter((res) => res.status === 429);
    assert.equal(ok.length, PLAYLIST_FETCHES_PER_MINUTE, 'the budget is answered');
    assert.equal(limited.length, 5, 'every fetch over the budget is limited');
    const refused = limited[0]!;
    assert.match(String(refused.headers['content-type']), /^application\/json/);
    const body = JSON.parse(refused.body) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'rate_limit_exceeded');
    assert.match(body.error.message, /playlist/);
    // The seconds left in the window.
    assert.equal(refused.headers['retry-after'], '59');

    // Segments are not limited; another stream and another address have budgets of their own.
    const agent = new http.Agent();
    const segment = await getFrom(
      '127.0.0.1',
      `${server.origin}/media/streams/${stream.id}/p0/seg00000.ts`,
      agent,
    );
    assert.equal(segment.status, 200);
    assert.equal(segment.body, 'segment');
    const otherStream = `${server.origin}/media/streams/${second.id}/index.m3u8`;
    assert.equal((await getFrom('127.0.0.1', otherStream, agent)).status, 200);
    assert.equal((await getFrom('127.0.0.2', url, agent)).status, 200);
    // The API's own per-IP budget is untouched by media fetches.
    const api = await server.request('GET', '/v1/streams/str_missing');
    assert.equal(api.status, 401);

    // Still limited until the window ends; the next window brings a new budget.
    clock.advance(RATE_LIMIT_WINDOW_MS - 1001);
    const late = await getFrom('127.0.0.1', url, agent);
    assert.equal(late.status, 429);
    assert.equal(late.headers['retry-after'], '1');
    clock.advance(1);
    assert.equal((await getFrom('127.0.0.1', url, agent)).status, 200);
  });
});
