// Chooses where rate-limit counters live: Redis when REDIS_URL is set (one budget per key
// across every API process), otherwise this process's memory.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { dialectOf } from '../db/dialect.ts';
import { RedisRateLimitStore } from './redis-rate-limit-store.ts';
import { MemoryRateLimitStore, type RateLimitStore } from './rate-limit-store.ts';

export interface RateLimitSetup {
  store: RateLimitStore;
  /** Readiness checks for GET /readyz: Redis when the counters live there. */
  readinessChecks: Record<string, () => Promise<void>>;
}

export function createRateLimitStore(
  config: Pick<Config, 'redisUrl'>,
  db: Db,
  logger: Pick<Logger, 'warn' | 'info'>,
): RateLimitSetup {
  if (config.redisUrl !== undefined) {
    const store = new RedisRateLimitStore({ url: config.redisUrl, logger });
    return { store, readinessChecks: { redis: () => store.ping() } };
  }
  // A SQLite file serves one process; PostgreSQL is how several processes share the work,
  // and then each would keep its own budget per key.
  if (dialectOf(db) === 'postgres') {
    logger.warn(
      'REDIS_URL is not set: rate limits are counted per process. If several API processes share ' +
        'this database, each allows the full budget; set REDIS_URL to share one budget per key.',
    );
  }
  return { store: new MemoryRateLimitStore(), readinessChecks: {} };
}
