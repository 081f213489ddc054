// The API on a real socket plus, when asked, an in-process delivery worker over the same
// database, configured like WEBHOOK_* variables would configure it (see test/helpers/app.ts).
import type { TestContext } from 'node:test';
import type { WebhookConfig } from '../../src/config.ts';
import type { Dialect } from '../../src/db/dialect.ts';
import { systemClock, type Clock } from '../../src/shared/clock.ts';
import type { DeliveryWorker, DeliveryWorkerOptions } from '../../src/webhooks/delivery/worker.ts';
import { startTestApp } from '../helpers/app.ts';
import type { TestServer } from '../helpers/server.ts';
import { pause, waitFor } from '../helpers/wait.ts';

export { FAST_WEBHOOKS } from '../helpers/app.ts';

export interface WebhookTestOptions {
  dialect: Dialect;
  webhooks?: Partial<WebhookConfig>;
  /** Start an in-process worker (default true). */
  worker?: boolean;
  workerOptions?: Partial<DeliveryWorkerOptions>;
  /** The system clock unless given. */
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
  const server = await startTestApp(t, {
    dialect: options.dialect,
    clock: options.clock ?? systemClock,
    rateLimitPerKey: 100_000,
    rateLimitPerIp: 100_000,
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
    worker: options.worker === false ? false : (options.workerOptions ?? true),
  });
  return { server, worker: server.worker, config: server.config };
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

/** Lets `ms` pass; see pause() in test/helpers/wait.ts for when that is right. */
export const sleep = pause;

/**
 * Polls until `check` returns a value other than undefined (false included), or fails after
 * `timeoutMs`; an error thrown by `check` fails at once.
 */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const found = await waitFor(
    async () => {
      const value = await check();
      return value === undefined ? undefined : { value };
    },
    { timeoutMs, what, failOnError: true },
  );
  return found.value;
}
