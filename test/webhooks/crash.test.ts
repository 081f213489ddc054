// kill -9 of the worker process mid-burst loses no event: after a restart, every evt_ id
// reaches the receiver (at least once), with the id it was given when it was recorded.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { describe, test } from 'node:test';
import { createServices } from '../../src/container.ts';
import { migrateToLatest, openDatabase } from '../../src/db/database.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { startCli } from '../helpers/cli.ts';
import { createTestDatabase, DIALECTS } from '../helpers/databases.ts';
import { startReceiver } from '../helpers/https-receiver.ts';
import { testCa } from '../helpers/test-ca.ts';
import { eventually } from './harness.ts';

const SECRET_KEY = 'ab'.repeat(32);
const BURST = 300;

for (const dialect of DIALECTS) {
  describe(`worker crash on ${dialect}`, () => {
    test('SIGKILL mid-burst, restart: every event id arrives, none is lost or renamed', async (t) => {
      const database = await createTestDatabase(dialect);
      const handle = openDatabase(database.url);
      await migrateToLatest(handle.db);
      const receiver = await startReceiver(() => ({ status: 200, delayMs: 5 }));
      const workers: ChildProcess[] = [];
      t.after(async () => {
        for (const worker of workers)
          if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
        await receiver.close();
        await handle.close();
        await database.drop();
      });
      const services = createServices(
        {
          publicUrl: 'http://media.test',
          dataDir: database.dataDir,
          ingest: { rtmpPort: 1935 },
          webhooks: { allowPrivateTargets: true },
        },
        handle,
        Buffer.from(SECRET_KEY, 'hex'),
        systemClock,
      );
      const env = {
        DATABASE_URL: database.url,
        DATA_DIR: database.dataDir,
        SECRET_KEY,
        LOG_LEVEL: 'warn',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_TIMEOUT_MS: '1000',
        WEBHOOK_RETRY_DELAYS: '200ms,200ms,200ms,200ms',
        NODE_EXTRA_CA_CERTS: testCa().caFile,
      };
      const creator = await services.accounts.createUser('creator');
      const { row: webhook } = await services.webhooks.register(creator.id, {
        url: receiver.url(),
        events: ['*'],
      });

      const first = startCli(['worker'], env);
      workers.push(first.child);
      await receiver.waitForRequests(1, 15_000).catch((error: unknown) => {
        throw new Error(`${String(error)}\nworker output:\n${first.output()}`);
      });

      let produced = 0;
      const produce = async (count: number) => {
        for (let i = 0; i < count; i++) {
          const { stream } = await services.streams.create(creator.id, { title: `Burst ${produced}` });
          await services.streams.goLive(stream.id);
          produced++;
        }
      };
      const producing = produce(BURST);
      // Kill it while the burst is being delivered.
      await eventually(
        async () => (receiver.requests.length >= 1 + BURST / 5 ? true : undefined),
        20_000,
        'deliveries',
      );
      first.child.kill('SIGKILL');
      await once(first.child, 'exit');
      const receivedBeforeKill = receiver.requests.length;
      await producing;
      assert.ok(receivedBeforeKill - 1 < BURST, 'the worker died before the burst was delivered');

      const second = startCli(['worker'], env);
      workers.push(second.child);
      const expected = (
        await handle.db.selectFrom('events').select('id').where('type', '=', 'stream.started').execute()
      ).map((row) => row.id);
      assert.equal(expected.length, BURST);
      await eventually(
        async () => {
          const seen = new Set(receiver.requests.map((request) => request.body.id as string));
          return expected.every((id) => seen.has(id)) ? true : undefined;
        },
        30_000,
        'every event at the receiver',
      ).catch((error: unknown) => {
        throw new Error(`${String(error)}\nworker output:\n${second.output()}`);
      });
      const seen = new Set(receiver.requests.map((request) => request.body.id as string));
      const unknown = [...seen].filter(
        (id) =>
          !expected.includes(id) && receiver.requests.find((r) => r.body.id === id)?.body.type !== 'ping',
      );
      assert.deepEqual(unknown, [], 'no event arrives under an id it was not recorded with');

      // What the dead worker had claimed is taken over once its lease runs out, and settled.
      await eventually(
        async () => {
          const open = await handle.db
            .selectFrom('webhook_deliveries')
            .select('id')
            .where('webhook_id', '=', webhook.id)
            .where('status', '!=', 'succeeded')
            .execute();
          return open.length === 0 ? true : undefined;
        },
        20_000,
        'every delivery settled',
      );

      // A graceful stop exits cleanly.
      second.child.kill('SIGTERM');
      const [code] = (await once(second.child, 'exit')) as [number | null];
      assert.equal(code, 0, second.output());
    });
  });
}
