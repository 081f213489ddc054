// One Redis connection for state that has an in-memory fallback (rate limits, live viewers):
// without a connection a command fails at once, and its caller counts in memory, instead of
// queueing while the client reconnects in the background.
import type { Redis } from 'ioredis';
import { loadIoRedis } from './optional-drivers.ts';

export interface FailFastRedis {
  redis: Redis;
  /**
   * Settles after the first connection attempt, ready or failed (at most connectTimeout): what
   * arrives while the process is still connecting waits for it rather than going to memory.
   */
  firstConnection: Promise<void>;
}

export function connectFailFast(
  url: string,
  options: { connectionName: string; commandTimeoutMs?: number | undefined },
): FailFastRedis {
  const redis = new (loadIoRedis().Redis)(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 500,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
    connectionName: options.connectionName,
  });
  // ioredis emits connection errors as events; without a listener they would be thrown.
  redis.on('error', () => undefined);
  const firstConnection = new Promise<void>((resolve) => {
    const settle = () => {
      redis.off('ready', settle);
      redis.off('error', settle);
      resolve();
    };
    redis.on('ready', settle);
    redis.on('error', settle);
  });
  return { redis, firstConnection };
}
