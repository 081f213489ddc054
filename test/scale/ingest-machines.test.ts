// Live ingest on many machines (issue 25): real `tributary serve --ingest-only` processes, each
// with its own data folder, on one PostgreSQL database. One stream is held by one process at a
// time (a lease in the database); a second encoder on the other process is refused; when the
// holder is SIGKILLed its lease lapses and the encoder's reconnect on the other process takes
// the stream over; SIGTERM drains (the lease is released, the process exits).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { openDatabase } from '../../src/db/database.ts';
import { createTestDatabase, POSTGRES_ADMIN_URL } from '../helpers/databases.ts';
import { pushTestPattern, type Push } from '../helpers/media-tools.ts';
import { waitFor } from '../helpers/wait.ts';
import {
  ingestTestEnv,
  startIngestProcess,
  startService,
  tributaryCli,
  waitUntilReady,
  type IngestProcess,
} from './processes.ts';
import { freePort } from './redis.ts';

const SKIP = POSTGRES_ADMIN_URL ? false : 'needs TEST_POSTGRES_URL (a PostgreSQL server)';

describe('many ingest processes on PostgreSQL', { skip: SKIP, timeout: 300_000 }, () => {
  test('one holder per stream; a second encoder elsewhere is refused; SIGKILL moves it; SIGTERM drains', async (t) => {
    const database = await createTestDatabase('postgres', { migrated: true });
    t.after(() => database.drop());
    const db = openDatabase(database.url).db;
    t.after(() => db.destroy());
    // The origin forwards its clients' addresses; the ingest processes trust it (loopback).
    const env = ingestTestEnv(database, { TRUST_PROXY: '127.0.0.1' });
    const userId = await tributaryCli(env, ['users', 'create', '--name', 'Ingest machines']);
    const key = await tributaryCli(env, ['keys', 'create', '--user', userId, '--scope', 'write']);
    const logDir = database.dataDir;
    // Each machine reports its own figures on its own metrics listener.
    const metricsPorts = [await freePort(), await freePort()] as const;
    const a = await startIngestProcess(
      t,
      'ingest-a',
      { ...env, METRICS_PORT: String(metricsPorts[0]) },
      logDir,
    );
    const b = await startIngestProcess(
      t,
      'ingest-b',
      { ...env, METRICS_PORT: String(metricsPorts[1]) },
      logDir,
    );
    const publishing = async (index: 0 | 1) => {
      const text = await (await fetch(`http://127.0.0.1:${metricsPorts[index]}/metrics`)).text();
      return Number(/^tributary_ingest_streams\{state="publishing"\} (\d+)$/m.exec(text)?.[1]);
    };
    // The origin: an API process without ingest, with a data folder of its own.
    const originPort = await freePort();
    const originDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-origin-'));
    t.after(() => {
      fs.rmSync(originDir, { recursive: true, force: true });
    });
    const originService = startService(t, {
      name: 'origin',
      args: ['serve', '--no-ingest', '--no-worker', '--no-media-jobs'],
      env: { ...env, DATA_DIR: originDir, PORT: String(originPort), HOST: '127.0.0.1' },
      logDir,
    });
    const origin = `http://127.0.0.1:${originPort}`;
    await waitUntilReady(originService, `${origin}/readyz`);
    const info = async () =>
      (await (await fetch(`${origin}/watch/${created.id}/info`)).json()) as {
        status: string;
        reconnecting: boolean;
        playback_url: string | null;
      };
    /** The playlist and its last segment through the origin, at the one playback URL. */
    const playThroughOrigin = async () => {
      const playlist = await fetch(`${origin}/media/streams/${created.id}/index.m3u8`);
      if (playlist.status !== 200) return false;
      const text = await playlist.text();
      const segment = text
        .split('\n')
        .filter((line) => line.endsWith('.ts'))
        .at(-1);
      if (segment === undefined) return false;
      const media = await fetch(`${origin}/media/streams/${created.id}/${segment}`);
      const bytes = Buffer.from(await media.arrayBuffer());
      return media.status === 200 && bytes.length > 0 && bytes[0] === 0x47 ? { text, segment } : false;
    };

    // Any ingest process answers the API too (same database): the stream is made on one.
    const response = await fetch(`${a.origin}/v1/streams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Across machines' }),
    });
    assert.equal(response.status, 201);
    const created = (await response.json()) as { id: string; ingest: { stream_key: string } };
    const streamKey = created.ingest.stream_key;
    const pushes: Push[] = [];
    t.after(() => {
      for (const push of pushes) push.stop();
    });
    const push = (to: IngestProcess, seconds: number): Push => {
      const started = pushTestPattern(`rtmp://127.0.0.1:${to.rtmpPort}/live/${streamKey}`, seconds, {
        size: '320x180',
      });
      pushes.push(started);
      return started;
    };
    const holder = async () =>
      (
        await db
          .selectFrom('stream_leases')
          .select(['holder', 'origin_url'])
          .where('stream_id', '=', created.id)
          .executeTakeFirst()
      )?.holder;
    const status = async () =>
      (await db.selectFrom('streams').select('status').where('id', '=', created.id).executeTakeFirstOrThrow())
        .status;

    // Live on a: a holds the lease.
    const first = push(a, 120);
    await waitFor(async () => (await status()) === 'live' && (await holder()) === 'ingest-a', {
      timeoutMs: 60_000,
      what: 'the stream live on ingest-a, which holds its lease',
    });

    // Each machine counts what it holds; the creator's health is measured by a and answered by
    // every process (the origin and b read what a shares beside its lease).
    assert.deepEqual([await publishing(0), await publishing(1)], [1, 0]);
    const healthFrom = async (base: string) => {
      const res = await fetch(`${base}/v1/streams/${created.id}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const body = (await res.json()) as {
        ingest: { health: { state: string; video: { codec: string; width: number } | null } | null };
      };
      return body.ingest.health;
    };
    for (const base of [a.origin, origin, b.origin]) {
      const health = await waitFor(
        async () => {
          const measured = await healthFrom(base);
          return measured?.video ? measured : undefined;
        },
        { timeoutMs: 15_000, what: `ingest.health from ${base}` },
      );
      assert.equal(health.state, 'publishing');
      assert.deepEqual(
        { codec: health.video?.codec, width: health.video?.width },
        { codec: 'H.264', width: 320 },
      );
    }

    // The origin has no folder of the stream: it streams it through from a, at the same URL.
    const fromA = await waitFor(playThroughOrigin, {
      timeoutMs: 30_000,
      what: 'playback through the origin',
    });
    assert.match(fromA.text, /^#EXTM3U/);
    assert.equal(fs.existsSync(path.join(originDir, 'media', 'streams', created.id)), false);
    const live = await info();
    assert.deepEqual(
      { status: live.status, reconnecting: live.reconnecting },
      { status: 'live', reconnecting: false },
    );
    const playbackUrl = live.playback_url;
    assert.ok(playbackUrl);

    // A second encoder for the same key on b is refused as on one machine, and changes nothing.
    const second = push(b, 30);
    const refused = await Promise.race([
      second.exited,
      new Promise<undefined>((resolve) =>
        setTimeout(() => {
          resolve(undefined);
        }, 30_000),
      ),
    ]);
    assert.ok(refused, 'the second encoder was cut off');
    await waitFor(() => b.service.log().includes('"reason":"already_publishing"'), {
      what: "ingest-b's refusal in its log",
    });
    assert.equal(await holder(), 'ingest-a');

    // The holder dies: nothing renews its lease; the encoder keeps reconnecting (as OBS does)
    // through the balancer, here straight at b, and b takes the stream over once it lapses.
    await a.service.stop('SIGKILL');
    first.stop();
    // Nobody holds it once the dead holder's lease lapses: viewers are told it reconnects.
    await waitFor(async () => (await info()).reconnecting, { timeoutMs: 20_000, what: 'reconnecting' });
    assert.equal((await info()).playback_url, playbackUrl, 'the same URL while it reconnects');
    let reconnect: Push | undefined;
    await waitFor(
      async () => {
        if ((await holder()) === 'ingest-b' && reconnect && reconnect.process.exitCode === null) return true;
        if (!reconnect || reconnect.process.exitCode !== null) reconnect = push(b, 120);
        return false;
      },
      { timeoutMs: 60_000, intervalMs: 1000, what: 'ingest-b holding the stream after ingest-a died' },
    );
    assert.equal(await status(), 'live', 'the stream never ended');
    // Held by b now: the same URL plays on through the origin, and the notice goes.
    await waitFor(async () => !(await info()).reconnecting, {
      timeoutMs: 30_000,
      what: 'no longer reconnecting',
    });
    const fromB = await waitFor(playThroughOrigin, {
      timeoutMs: 30_000,
      what: 'playback from b through the origin',
    });
    assert.match(fromB.text, /#EXT-X-DISCONTINUITY|p0\//, 'the playlist continues');
    // b counts it now, and the origin answers the creator with b's measurement.
    await waitFor(async () => (await publishing(1)) === 1, { what: "the stream in b's metrics" });
    const fromBHealth = await waitFor(
      async () => {
        const measured = await healthFrom(origin);
        return measured?.state === 'publishing' ? measured : undefined;
      },
      { timeoutMs: 15_000, what: "b's health through the origin" },
    );
    assert.equal(fromBHealth.video?.codec, 'H.264');
    assert.equal((await info()).playback_url, playbackUrl);
    await waitFor(() => b.service.log().includes('"streamId":"' + created.id + '"'), {
      what: 'b logs the stream',
    });

    // SIGTERM drains b: it stops taking publishers, lets the stream go (its lease released at
    // once, so another process can take the encoder's reconnect) and exits on its own.
    const code = await b.service.stop('SIGTERM');
    assert.equal(code, 0, b.service.log().slice(-2000));
    assert.equal(await holder(), undefined, 'the drained lease is released');
    assert.equal(await status(), 'live', 'draining ends no stream (its encoder reconnects elsewhere)');
    assert.match(b.service.log(), /drain timed out|drained/);
  });
});
