// The operator's side: `tributary webhooks deliveries`, `tributary webhooks retry`, and the
// worker inside `serve` (or not, with --no-worker) as real processes.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { describe, test } from 'node:test';
import { runCli, startCli } from '../helpers/cli.ts';
import { createTestDatabase, DIALECTS } from '../helpers/databases.ts';
import { startReceiver } from '../helpers/https-receiver.ts';
import { testCa } from '../helpers/test-ca.ts';
import { pause } from '../helpers/wait.ts';
import { eventually, registerWebhook, startWebhookServer } from './harness.ts';

// The harness's services use Buffer.alloc(32, 7) as the master secret.
const HARNESS_SECRET_KEY = '07'.repeat(32);

for (const dialect of DIALECTS) {
  describe(`webhook operator commands on ${dialect}`, () => {
    test('deliveries lists events and attempts; retry sends a failed event again with the same id', async (t) => {
      const { server } = await startWebhookServer(t, { dialect, webhooks: { retryDelaysMs: [] } });
      const receiver = await startReceiver(() => ({ status: 500, body: 'down for maintenance' }));
      t.after(() => receiver.close());
      const account = await server.createAccount();
      const webhook = await registerWebhook(server, account.writeKey, receiver.url());
      const [ping] = await receiver.waitForRequests(1);
      const eventId = String(ping?.body.id);
      const env = {
        DATABASE_URL: server.database.url,
        DATA_DIR: server.database.dataDir,
        SECRET_KEY: HARNESS_SECRET_KEY,
      };
      const failed = await eventually(async () => {
        const result = await runCli(['webhooks', 'deliveries', webhook.id], env);
        return result.stdout.includes('\tfailed\t') ? result : undefined;
      });
      assert.equal(failed.code, 0, failed.stderr);
      assert.match(failed.stdout, new RegExp(`^${eventId}\\tping\\tfailed\\t1 attempt`, 'm'));
      assert.match(failed.stdout, /#1\t.*\tHTTP 500\t\d+ ms\t"down for maintenance"/);

      receiver.script = () => ({ status: 200 });
      const retried = await runCli(['webhooks', 'retry', eventId, '--webhook', webhook.id], env);
      assert.equal(retried.code, 0, retried.stderr);
      const [, again] = await receiver.waitForRequests(2);
      assert.ok(again);
      assert.equal(again.body.id, eventId);
      assert.equal(again.headers['x-service-delivery-attempt'], '2');
      await eventually(async () => {
        const result = await runCli(['webhooks', 'deliveries', webhook.id], env);
        return result.stdout.includes('\tsucceeded\t2 attempt') ? true : undefined;
      });

      const notFailed = await runCli(['webhooks', 'retry', eventId, '--webhook', webhook.id], env);
      assert.equal(notFailed.code, 1);
      assert.match(notFailed.stderr, /state_conflict/);
      const unknown = await runCli(['webhooks', 'deliveries', 'wh_missing'], env);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /resource_not_found/);
      const usage = await runCli(['webhooks', 'retry', eventId], env);
      assert.equal(usage.code, 2);
      assert.match(usage.stderr, /--webhook/);
    });

    test('serve runs the worker; serve --no-worker does not, and tributary worker then delivers', async (t) => {
      const database = await createTestDatabase(dialect);
      const receiver = await startReceiver();
      const children: ChildProcess[] = [];
      t.after(async () => {
        for (const child of children)
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await receiver.close();
        await database.drop();
      });
      const env = {
        DATABASE_URL: database.url,
        DATA_DIR: database.dataDir,
        SECRET_KEY: HARNESS_SECRET_KEY,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        NODE_EXTRA_CA_CERTS: testCa().caFile,
      };
      const api = startCli(['serve', '--no-worker'], env);
      children.push(api.child);
      const listening = await eventually(
        async () => /listening at (\S+)/.exec(api.output())?.[1],
        20_000,
        'the API',
      );
      const writeKey = await eventually(
        async () => /write key: (\S+)/.exec(api.output())?.[1],
        5000,
        'the demo key',
      );
      const res = await fetch(`${listening}/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${writeKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url(), events: ['*'] }),
      });
      assert.equal(res.status, 201);
      // Nothing may happen here, so this waits a fixed time. A worker inside `serve` would hear
      // the in-process signal the registration raised and send the ping within one cycle, a few
      // milliseconds; 1 s is also ten of its idle polls on SQLite and one on PostgreSQL. The
      // worker started below shows the ping was there to send.
      await pause(1000);
      assert.equal(receiver.requests.length, 0, 'no worker, no delivery');

      const worker = startCli(['worker'], env);
      children.push(worker.child);
      await receiver.waitForRequests(1, 20_000);
      worker.child.kill('SIGTERM');
      const [workerCode] = (await once(worker.child, 'exit')) as [number | null];
      assert.equal(workerCode, 0, worker.output());
      api.child.kill('SIGTERM');
      await once(api.child, 'exit');

      // The same database, served with the worker this time.
      const both = startCli(['serve'], env);
      children.push(both.child);
      const url = await eventually(
        async () => /listening at (\S+)/.exec(both.output())?.[1],
        20_000,
        'the API',
      );
      const second = await fetch(`${url}/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${writeKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url('/second'), events: ['*'] }),
      });
      assert.equal(second.status, 201);
      await receiver.waitForRequests(2, 20_000);
      assert.equal(receiver.requests[1]?.path, '/second');
      both.child.kill('SIGTERM');
      const [code] = (await once(both.child, 'exit')) as [number | null];
      assert.equal(code, 0, both.output());
    });
  });
}
