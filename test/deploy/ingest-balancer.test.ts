// deploy/nginx-ingest.conf, as shipped (only its addresses changed), in front of two real
// `tributary serve --ingest-only` processes on one PostgreSQL database (issue 25). A real ffmpeg
// pushes through the balancer and reconnects whenever its connection ends, as OBS does: the
// ingest process holding the stream is SIGKILLed and the stream goes on on the other; then a
// rolling SIGTERM restart of both ends nothing (the stream stays live throughout, held by one
// process at a time).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openDatabase } from '../../src/db/database.ts';
import { createTestDatabase, POSTGRES_ADMIN_URL } from '../helpers/databases.ts';
import { pushTestPattern, type Push } from '../helpers/media-tools.ts';
import { waitFor } from '../helpers/wait.ts';
import { ingestTestEnv, startIngestProcess, tributaryCli, type IngestProcess } from '../scale/processes.ts';
import { freePort } from '../scale/redis.ts';
import { SKIP_WITHOUT_STREAM_NGINX, startBalancer } from './ingest-balancer.ts';

const SKIP = !POSTGRES_ADMIN_URL
  ? 'needs TEST_POSTGRES_URL (a PostgreSQL server)'
  : SKIP_WITHOUT_STREAM_NGINX;
if (process.env.CI === 'true' && SKIP !== false)
  throw new Error(`CI must run the ingest balancer test: ${SKIP}`);

describe('ingest machines behind the shipped nginx stream balancer', { skip: SKIP, timeout: 400_000 }, () => {
  test('SIGKILL of the holder and a rolling SIGTERM restart end no stream', async (t) => {
    const database = await createTestDatabase('postgres', { migrated: true });
    t.after(() => database.drop());
    const db = openDatabase(database.url).db;
    t.after(() => db.destroy());
    const env = ingestTestEnv(database, { RTMP_PROXY_PROTOCOL: 'true' });
    const userId = await tributaryCli(env, ['users', 'create', '--name', 'Balanced']);
    const key = await tributaryCli(env, ['keys', 'create', '--user', userId, '--scope', 'write']);
    const ports: [number, number] = [await freePort(), await freePort()];
    const start = (index: 0 | 1) =>
      startIngestProcess(t, `ingest-${index}`, { ...env, RTMP_PORT: String(ports[index]) }, database.dataDir);
    const machines: IngestProcess[] = [await start(0), await start(1)];
    const balancerPort = await freePort();
    await startBalancer(t, balancerPort, ports);

    const response = await fetch(`${machines[0]!.origin}/v1/streams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Behind the balancer' }),
    });
    const created = (await response.json()) as { id: string; ingest: { stream_key: string } };
    // The encoder: one RTMP address; whenever its connection ends it connects again (OBS's
    // automatic reconnect), every half second.
    let push: Push | undefined;
    let connects = 0;
    const encoder = setInterval(() => {
      if (push && push.process.exitCode === null && push.process.signalCode === null) return;
      connects++;
      push = pushTestPattern(`rtmp://127.0.0.1:${balancerPort}/live/${created.ingest.stream_key}`, 600, {
        size: '320x180',
      });
    }, 500);
    t.after(() => {
      clearInterval(encoder);
      push?.stop();
    });
    const holder = async () =>
      (
        await db
          .selectFrom('stream_leases')
          .select('holder')
          .where('stream_id', '=', created.id)
          .executeTakeFirst()
      )?.holder;
    const status = async () =>
      (await db.selectFrom('streams').select('status').where('id', '=', created.id).executeTakeFirstOrThrow())
        .status;
    const ended: string[] = [];
    // Watches for the stream ending at any moment. A read that fails is no observation: the
    // database is dropped when the test ends, maybe before this interval is cleared (the after
    // hooks run in the order they were added), and such a failure once failed a passing run.
    const watchStatus = setInterval(() => {
      status().then(
        (now) => {
          if (now === 'ended') ended.push(now);
        },
        () => undefined,
      );
    }, 500);
    t.after(() => {
      clearInterval(watchStatus);
    });

    const first = await waitFor(async () => (await status()) === 'live' && (await holder()), {
      timeoutMs: 60_000,
      what: 'the stream live through the balancer',
    });
    const firstIndex = first === 'ingest-0' ? 0 : 1;
    const otherIndex = firstIndex === 0 ? 1 : 0;

    // The holder dies: the encoder's reconnect goes through the balancer to the other machine.
    await machines[firstIndex]!.service.stop('SIGKILL');
    await waitFor(async () => (await holder()) === `ingest-${otherIndex}`, {
      timeoutMs: 60_000,
      what: 'the other machine holding the stream after the SIGKILL',
    });
    assert.equal(await status(), 'live');

    // Rolling restart: the dead machine comes back; each machine in turn gets SIGTERM (drains,
    // exits 0) and is started again; the stream moves each time and never ends.
    machines[firstIndex] = await start(firstIndex);
    for (const index of [otherIndex, firstIndex] as const) {
      const connectsBefore = connects;
      const code = await machines[index]!.service.stop('SIGTERM');
      assert.equal(code, 0, machines[index]!.service.log().slice(-2000));
      const target = `ingest-${index === 0 ? 1 : 0}`;
      await waitFor(async () => (await holder()) === target, {
        timeoutMs: 60_000,
        what: `${target} holding the stream after ingest-${index} drained`,
      });
      assert.ok(connects > connectsBefore, 'the encoder reconnected');
      machines[index] = await start(index);
    }
    clearInterval(watchStatus);
    assert.equal(await status(), 'live');
    assert.deepEqual(ended, [], 'the stream never ended');
  });
});
