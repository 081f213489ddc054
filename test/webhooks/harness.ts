// The API on a real socket plus, when asked, an in-process delivery worker over the same
// database, configured like WEBHOOK_* variables would configure it.
import type { TestContext } from 'node:test';
import { buildApp } from '../../src/app.ts';
import type { WebhookConfig } from '../../src/config.ts';
import { createServices } from '../../src/container.ts';
import { migrateToLatest, openDatabase, type Dialect } from '../../src/db/database.ts';
import { MemoryRateLimitStore } from '../../src/http/rate-limit-store.ts';
import { createLogger } from '../../src/logger.ts';
import { systemClock, type Clock } from '../../src/shared/clock.ts';
import { DeliveryWorker, type DeliveryWorkerOptions } from '../../src/webhooks/delivery-worker.ts';
import { createTestDatabase } from '../helpers/databases.ts';
import { TestServer } from '../helpers/server.ts';
import { testCa } from '../helpers/test-ca.ts';

export const FAST_WEBHOOKS: WebhookConfig = {
  retryDelaysMs: [200, 400],
  timeoutMs: 2000,
  disableAfterFailedEvents: 3,
  allowPrivateTargets: true,
};

export interface WebhookTestOptions {
  dialect: Dialect;
  webhooks?: Partial<WebhookConfig>;
  /** Start an in-process worker (default true). */
  worker?: boolean;
  workerOptions?: Partial<DeliveryWorkerOptions>;
  clock?: Clock;
}

export interface WebhookTestServer {
  server: TestServer;
  worker: DeliveryWorker | undefined;
  config: WebhookConfig;
}

export async function startWebhookServer(
  t: TestContext,
  options: WebhookTestOptions,
): Promise<WebhookTestServer> {
  const config = { ...FAST_WEBHOOKS, ...options.webhooks };
  const database = await createTestDatabase(options.dialect);
  const handle = openDatabase(database.url);
  await migrateToLatest(handle.db);
  const clock = options.clock ?? systemClock;
  const services = createServices(
    {
      publicUrl: 'http://media.test',
      ingest: { rtmpPort: 1935 },
      webhooks: config,
    },
    handle,
    Buffer.alloc(32, 7),
    clock,
  );
  const app = await buildApp({
    services,
    rateLimits: new MemoryRateLimitStore(),
    rateLimitPerKey: 100_000,
    rateLimitPerIp: 100_000,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const server = new TestServer(app, services, `http://127.0.0.1:${port}/v1`, database, clock);
  let worker: DeliveryWorker | undefined;
  if (options.worker !== false) {
    worker = new DeliveryWorker({
      database: handle,
      clock,
      config,
      secrets: services.webhookSecrets,
      logger: createLogger('silent'),
      listenUrl: handle.dialect === 'postgres' ? database.url : undefined,
      ca: testCa().caPem,
      ...options.workerOptions,
    });
    await worker.start();
  }
  t.after(async () => {
    await worker?.stop();
    await app.close();
    await handle.close();
    await database.drop();
  });
  return { server, worker, config };
}

export async function registerWebhook(
  server: TestServer,
  key: string,
  url: string,
  events: string[] = ['*'],
): Promise<{ id: string; secret: string }> {
  const res = await server.request('POST', '/v1/webhooks', { key, body: { url, events } });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, secret: res.body.secret };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `check` returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}
