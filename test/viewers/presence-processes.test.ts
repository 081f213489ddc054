// Two real `tributary serve` processes on one PostgreSQL database and one Redis, as a scaled-out
// deployment runs them: ffmpeg publishes to the first (which runs the ingest), players signal
// presence to either, and the stream's viewer_count is the sum over both processes; one address
// adds at most its share whichever process it reaches; a viewer who reaches both processes at
// once counts one view of a video.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { describe, test } from 'node:test';
import { openDatabase } from '../../src/db/database.ts';
import { LIVE_VIEWERS_KEY_PREFIX } from '../../src/viewers/redis-live-viewers.ts';
import { createTestDatabase, POSTGRES_ADMIN_URL } from '../helpers/databases.ts';
import { pushTestPattern } from '../helpers/media-tools.ts';
import { seedVideos } from '../helpers/seed.ts';
import { waitFor } from '../helpers/wait.ts';
import { startService, tributaryCli, waitUntilReady } from '../scale/processes.ts';
import { freePort, inspectRedis, REDIS_URL } from '../scale/redis.ts';

const SKIP =
  POSTGRES_ADMIN_URL && REDIS_URL
    ? false
    : 'needs TEST_POSTGRES_URL and TEST_REDIS_URL (a PostgreSQL server and a redis-server)';

interface Answer {
  status: number;
  setCookie: string | undefined;
}

/** A presence signal from a chosen loopback address (all of 127.0.0.0/8 reaches 127.0.0.1). */
function presence(
  origin: string,
  id: string,
  from: string,
  viewer: string,
  cookie?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${origin}/watch/${id}/presence?viewer=${viewer}`,
      { method: 'POST', localAddress: from, headers: cookie === undefined ? {} : { cookie } },
      (response) => {
        response.resume().on('end', () => {
          resolve({ status: response.statusCode ?? 0, setCookie: response.headers['set-cookie']?.[0] });
        });
      },
    );
    request.on('error', reject);
    request.end();
  });
}

describe('viewers across two API processes on PostgreSQL and Redis', { skip: SKIP }, () => {
  test('viewer_count is summed over both processes, per-address caps hold across them, a view counts once', async (t) => {
    const database = await createTestDatabase('postgres');
    t.after(() => database.drop());
    const rtmpPort = await freePort();
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      SECRET_KEY: randomBytes(32).toString('hex'),
      REDIS_URL,
      LOG_LEVEL: 'info',
    };
    await tributaryCli(env, ['migrate']);
    const userId = await tributaryCli(env, ['users', 'create', '--name', 'Viewers test']);
    const writeKey = await tributaryCli(env, ['keys', 'create', '--user', userId, '--scope', 'write']);

    // Both processes share the data folder (one machine), so the second can serve the media too.
    const [port1, port2] = [await freePort(), await freePort()];
    const api1 = startService(t, {
      name: 'api-1',
      args: ['serve', '--no-worker'],
      env: { ...env, PORT: String(port1), HOST: '127.0.0.1', RTMP_PORT: String(rtmpPort) },
      logDir: database.dataDir,
    });
    const api2 = startService(t, {
      name: 'api-2',
      args: ['serve', '--no-worker', '--no-ingest'],
      env: { ...env, PORT: String(port2), HOST: '127.0.0.1' },
      logDir: database.dataDir,
    });
    const origins = [`http://127.0.0.1:${port1}`, `http://127.0.0.1:${port2}`] as const;
    await waitUntilReady(api1, `${origins[0]}/readyz`);
    await waitUntilReady(api2, `${origins[1]}/readyz`);

    const created = await fetch(`${origins[0]}/v1/streams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writeKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Shared audience' }),
    });
    const stream = (await created.json()) as { id: string; ingest: { stream_key: string } };
    assert.equal(created.status, 201);
    const push = pushTestPattern(`rtmp://127.0.0.1:${rtmpPort}/live/${stream.ingest.stream_key}`, 120);
    t.after(() => {
      push.stop();
    });
    const get = async (origin: string) => {
      const response = await fetch(`${origin}/v1/streams/${stream.id}`, {
        headers: { authorization: `Bearer ${writeKey}` },
      });
      return (await response.json()) as { status: string; viewer_count: number | null };
    };
    await waitFor(async () => (await get(origins[1])).status === 'live', { what: 'live', timeoutMs: 20_000 });

    // Two viewers at the first process, three at the second; one of the first also reaches the
    // second (same address, same cookie): five viewers. Another address invents five ids spread
    // over both processes and adds only its share of three.
    const viewers = [
      { from: '127.0.0.2', id: 'viewer-aaaa', at: [0, 1] },
      { from: '127.0.0.3', id: 'viewer-bbbb', at: [0] },
      { from: '127.0.0.4', id: 'viewer-cccc', at: [1] },
      { from: '127.0.0.5', id: 'viewer-dddd', at: [1] },
      { from: '127.0.0.6', id: 'viewer-eeee', at: [1] },
      ...[0, 1, 2, 3, 4].map((i) => ({ from: '127.0.0.7', id: `invented-${i}000`, at: [i % 2] })),
    ];
    const cookies = new Map<string, string>();
    const signalAll = async () => {
      for (const viewer of viewers) {
        for (const at of viewer.at) {
          const answer = await presence(
            origins[at] ?? '',
            stream.id,
            viewer.from,
            viewer.id,
            cookies.get(viewer.id),
          );
          assert.equal(answer.status, 204);
          if (answer.setCookie !== undefined) cookies.set(viewer.id, answer.setCookie.split(';')[0] ?? '');
        }
      }
    };
    // Players signal every 5 s; this keeps signalling until the ingest has written the count.
    const counted = await waitFor(
      async () => {
        await signalAll();
        const [one, two] = [await get(origins[0]), await get(origins[1])];
        return one.viewer_count === 8 && two.viewer_count === 8 ? one : undefined;
      },
      { what: 'eight viewers on the stream', timeoutMs: 20_000 },
    );
    assert.equal(counted.viewer_count, 8);

    // The stream's keys in Redis expire on their own: nothing is left behind when nobody watches.
    const redis = inspectRedis(t);
    const keys = await redis.keys(`${LIVE_VIEWERS_KEY_PREFIX}{${stream.id}}*`);
    assert.equal(keys.length, 2);
    for (const key of keys) {
      const ttl = await redis.pttl(key);
      assert.ok(ttl > 0 && ttl <= 30_000, `${key} expires (pttl ${ttl})`);
    }

    // A viewer whose signals reach both processes at once counts one view of a video.
    const handle = openDatabase(database.url);
    t.after(() => handle.close());
    const [videoId = ''] = await seedVideos(handle.db, 1, () => ({ creator_id: userId }));
    const first = await presence(origins[0], videoId, '127.0.0.8', 'video-viewer');
    const cookie = first.setCookie?.split(';')[0];
    assert.ok(cookie);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        presence(origins[i % 2] ?? '', videoId, '127.0.0.8', `reload-${i}000`, cookie),
      ),
    );
    assert.deepEqual(new Set(answers.map((answer) => answer.status)), new Set([204]));
    await presence(origins[1], videoId, '127.0.0.9', 'another-viewer');
    const video = await handle.db
      .selectFrom('videos')
      .select('view_count')
      .where('id', '=', videoId)
      .executeTakeFirst();
    assert.equal(video?.view_count, 2);

    push.stop();
  });
});
