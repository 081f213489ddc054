// The Redis server the scale tests talk to. CI sets TEST_REDIS_URL (see .ci/run); locally the
// tests that need it are skipped with a notice when it is unset.
import { spawn } from 'node:child_process';
import { freePort } from '../helpers/ports.ts';
import type { TestContext } from 'node:test';
import { Redis } from 'ioredis';

export const REDIS_URL = process.env.TEST_REDIS_URL;

if (process.env.CI === 'true' && !REDIS_URL) {
  throw new Error('CI must set TEST_REDIS_URL so the shared rate-limit store is tested');
}

export const SKIP_WITHOUT_REDIS = REDIS_URL
  ? false
  : 'TEST_REDIS_URL is not set: start redis-server and set TEST_REDIS_URL=redis://127.0.0.1:6379';

/** A plain client for looking at what the store wrote; closed after the test. */
export function inspectRedis(t: TestContext, url = REDIS_URL ?? ''): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  t.after(() => {
    client.disconnect();
  });
  return client;
}

export { freePort };

export interface OwnRedis {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/**
 * A redis-server of the test's own on a free port, for faults the shared one must not
 * suffer: the test stops it and starts it again on the same port.
 */
export async function startOwnRedis(t: TestContext): Promise<OwnRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ReturnType<typeof spawn> | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    // Only a failure waits this long: redis-server starts in milliseconds on an idle machine.
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        await probe.ping();
        probe.disconnect();
        return;
      } catch {
        probe.disconnect();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    throw new Error(`redis-server on port ${port} did not start`);
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  t.after(stop);
  return { url, stop, start };
}
