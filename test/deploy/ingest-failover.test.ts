// Issue 25's "done when", end to end on loopback: two `tributary serve --ingest-only` processes
// with their own data folders behind the shipped nginx stream balancer (deploy/nginx-ingest.conf),
// an API/origin process (`serve --no-ingest`) with its own, PostgreSQL, and the object store
// (Ceph's gateway). A real ffmpeg pushes through the balancer; hls.js in Chromium plays the
// stream's watch page from the origin; the ingest process holding the stream is SIGKILLed; the
// page says "Reconnecting"; the push is restarted through the balancer, as an encoder
// reconnects, and lands on the other process, which continues the stream from the store; the
// page plays on from the same URL; the video made at the end decodes end to end and is at most
// 4 s shorter than what was pushed. (A rolling SIGTERM restart: test/deploy/ingest-balancer.test.ts.)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { openDatabase } from '../../src/db/database.ts';
import { createTestDatabase, POSTGRES_ADMIN_URL } from '../helpers/databases.ts';
import { currentTime, launchBrowser, waitForText, waitUntilPlaying } from '../helpers/media-browser.ts';
import { countVideoFrames, pushTestPattern, type Push } from '../helpers/media-tools.ts';
import { SKIP_WITHOUT_OBJECT_STORE, useObjectStore } from '../helpers/object-store.ts';
import { waitFor } from '../helpers/wait.ts';
import {
  ingestTestEnv,
  progressOf,
  startIngestProcess,
  startService,
  tributaryCli,
  waitUntilReady,
  type IngestProcess,
} from '../scale/processes.ts';
import { freePort } from '../scale/redis.ts';
import { SKIP_WITHOUT_STREAM_NGINX, startBalancer } from './ingest-balancer.ts';

const SKIP = !POSTGRES_ADMIN_URL
  ? 'needs TEST_POSTGRES_URL (a PostgreSQL server)'
  : SKIP_WITHOUT_STREAM_NGINX || SKIP_WITHOUT_OBJECT_STORE;
if (process.env.CI === 'true' && SKIP !== false)
  throw new Error(`CI must run the ingest failover test: ${SKIP}`);
const objectStore = useObjectStore();

describe('a live stream survives the loss of its ingest machine', { skip: SKIP, timeout: 500_000 }, () => {
  test('SIGKILL of the holder: reconnecting, then playing on at the same URL; the video keeps both parts', async (t) => {
    const database = await createTestDatabase('postgres', { migrated: true });
    t.after(() => database.drop());
    const db = openDatabase(database.url).db;
    t.after(() => db.destroy());
    const originPort = await freePort();
    const origin = `http://127.0.0.1:${originPort}`;
    const env = ingestTestEnv(database, {
      PUBLIC_URL: origin,
      CLEAN_STOP_GRACE_SECONDS: '1',
      TRUST_PROXY: '127.0.0.1',
      RTMP_PROXY_PROTOCOL: 'true',
      ...(await objectStore.processEnv(t, 'tributary/')),
    });
    const originDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-origin-'));
    t.after(() => {
      fs.rmSync(originDir, { recursive: true, force: true });
    });
    const cliEnv = { ...env, DATA_DIR: originDir };
    const userId = await tributaryCli(cliEnv, ['users', 'create', '--name', 'Failover']);
    const key = await tributaryCli(cliEnv, ['keys', 'create', '--user', userId, '--scope', 'write']);
    const ports: [number, number] = [await freePort(), await freePort()];
    const machines: IngestProcess[] = [];
    for (const index of [0, 1]) {
      machines.push(
        await startIngestProcess(
          t,
          `ingest-${index}`,
          { ...env, RTMP_PORT: String(ports[index]) },
          database.dataDir,
        ),
      );
    }
    const originService = startService(t, {
      name: 'origin',
      args: ['serve', '--no-ingest', '--no-worker', '--no-media-jobs'],
      env: { ...cliEnv, PORT: String(originPort), HOST: '127.0.0.1' },
      logDir: database.dataDir,
    });
    await waitUntilReady(originService, `${origin}/readyz`);
    const balancerPort = await freePort();
    await startBalancer(t, balancerPort, ports);

    const response = await fetch(`${origin}/v1/streams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Survives its machine' }),
    });
    assert.equal(response.status, 201);
    const created = (await response.json()) as {
      id: string;
      stream_url: string;
      ingest: { stream_key: string };
    };
    const pushes: Push[] = [];
    t.after(() => {
      for (const push of pushes) push.stop();
    });
    const push = (): Push => {
      const started = pushTestPattern(
        `rtmp://127.0.0.1:${balancerPort}/live/${created.ingest.stream_key}`,
        300,
        {
          size: '320x180',
          progress: true,
        },
      );
      pushes.push(started);
      return started;
    };
    const holder = async () =>
      (
        await db
          .selectFrom('stream_leases')
          .select('holder')
          .where('stream_id', '=', created.id)
          .executeTakeFirst()
      )?.holder;

    const first = push();
    const firstPushed = progressOf(first);
    const firstHolder = await waitFor(async () => holder(), {
      timeoutMs: 60_000,
      what: 'a machine holding it',
    });
    const browser = await launchBrowser(t);
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const playlists = new Set<string>();
    page.on('request', (request) => {
      if (request.url().includes('.m3u8')) playlists.add(request.url().split('?')[0]!);
    });
    // The watch page on the origin, which has none of the stream's files: hls.js plays it
    // streamed through from the holder.
    await page.goto(created.stream_url);
    await waitUntilPlaying(page, 1, 60_000);
    assert.equal(await page.textContent('#status'), 'Live');
    await waitFor(() => firstPushed() >= 12, { timeoutMs: 60_000, what: '12 s pushed' });

    const dead = machines.find((machine) => machine.service.name === firstHolder)!;
    await dead.service.stop('SIGKILL');
    const beforeLoss = firstPushed();
    first.stop();
    await waitForText(page, '#status', 'Reconnecting', 30_000);
    assert.equal(await page.isVisible('#notice'), true);
    const frozenAt = await currentTime(page);

    // The encoder reconnects through the balancer (again and again until it is taken).
    let second: Push | undefined;
    let secondPushed: () => number = () => 0;
    await waitFor(
      async () => {
        const now = await holder();
        if (now !== undefined && now !== firstHolder && second?.process.exitCode === null) return true;
        if (second?.process.exitCode !== null) {
          second = push();
          secondPushed = progressOf(second);
        }
        return false;
      },
      { timeoutMs: 60_000, intervalMs: 1000, what: 'the other machine holding the stream' },
    );
    await waitForText(page, '#status', 'Live', 30_000);
    await page.waitForFunction(
      (start) => (globalThis as any).document.querySelector('#player').currentTime > start + 2,
      frozenAt,
      { timeout: 60_000, polling: 200 },
    );
    assert.deepEqual(
      [...playlists],
      [`${origin}/media/streams/${created.id}/index.m3u8`],
      'one playback URL throughout',
    );
    assert.deepEqual(pageErrors, []);
    await waitFor(() => secondPushed() >= 8, { timeoutMs: 60_000, what: '8 s pushed after the loss' });
    second!.end();
    await second!.exited;
    const afterLoss = secondPushed();

    const video = await waitFor(
      async () =>
        db
          .selectFrom('videos')
          .select('id')
          .where('source_stream_id', '=', created.id)
          .where('published_at', 'is not', null)
          .executeTakeFirst(),
      { timeoutMs: 90_000, what: 'the recording published' },
    );
    const survivor = machines.find((machine) => machine !== dead)!;
    const recorded =
      (await countVideoFrames(path.join(survivor.dataDir, 'media', 'videos', video.id, 'index.m3u8'))) / 30;
    const pushed = beforeLoss + afterLoss;
    t.diagnostic(`pushed ${pushed.toFixed(1)} s, recorded ${recorded.toFixed(1)} s`);
    assert.ok(recorded >= pushed - 4, `recorded ${recorded} s of ${pushed} s pushed`);
    assert.ok(recorded <= pushed + 1, `recorded ${recorded} s of ${pushed} s pushed`);
  });
});
