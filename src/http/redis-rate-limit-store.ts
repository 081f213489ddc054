// One rate-limit budget per key and per IP across every API process: the counters live in
// Redis, one key per bucket and window, counted and given its expiry in one atomic round trip.
//
// When Redis cannot be reached the store fails open onto per-process counters (the same
// fixed windows, kept in memory) and logs a warning once per outage. A rate limit protects
// the service from abuse; refusing every request, or holding each one until Redis answers,
// because the limiter's own store is down would turn a Redis outage into an API outage.
// Counting in memory meanwhile keeps a limit in force (at worst N times the budget across N
// processes) instead of none. Readiness still reports Redis as unavailable (see ping()).
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { connectFailFast } from '../shared/fail-fast-redis.ts';
import {
  MemoryRateLimitStore,
  RATE_LIMIT_WINDOW_MS,
  windowStart,
  type RateLimitHit,
  type RateLimitStore,
} from './rate-limit-store.ts';

export const RATE_LIMIT_KEY_PREFIX = 'tributary:rl:';

// The expiry is relative and computed from the API's clock, not an absolute PEXPIREAT on
// Redis's clock: processes whose clocks disagree slightly with Redis (or a test's fixed
// clock) must never see a window's counter vanish before that window ends. The grace keeps
// the key through small clock differences between API processes.
const EXPIRY_GRACE_MS = 5_000;

const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return count
`;
const HIT_SCRIPT_SHA = createHash('sha1').update(HIT_SCRIPT).digest('hex');

export interface RedisRateLimitStoreOptions {
  url: string;
  logger: Pick<Logger, 'warn' | 'info'>;
  /** Namespace of the counters' keys; tests give their own. */
  keyPrefix?: string;
  /** How long one hit may wait for Redis before the process counts it in memory instead. */
  commandTimeoutMs?: number;
}

export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;
  private readonly logger: Pick<Logger, 'warn' | 'info'>;
  private readonly keyPrefix: string;
  private readonly fallback = new MemoryRateLimitStore();
  private failingOpen = false;
  /** Settles when the first connection attempt succeeds or fails. */
  private readonly firstConnection: Promise<void>;

  constructor(options: RedisRateLimitStoreOptions) {
    this.logger = options.logger;
    this.keyPrefix = options.keyPrefix ?? RATE_LIMIT_KEY_PREFIX;
    const connection = connectFailFast(options.url, {
      connectionName: 'tributary-rate-limits',
      commandTimeoutMs: options.commandTimeoutMs,
    });
    this.redis = connection.redis;
    this.firstConnection = connection.firstConnection;
  }

  /** The counter's key for a bucket at a given time: `tributary:rl:<window start>:<bucket>`. */
  keyFor(bucket: string, now: number): string {
    return `${this.keyPrefix}${windowStart(now)}:${bucket}`;
  }

  async hit(bucket: string, now: number): Promise<RateLimitHit> {
    const resetAt = windowStart(now) + RATE_LIMIT_WINDOW_MS;
    const ttlMs = resetAt - now + EXPIRY_GRACE_MS;
    try {
      await this.firstConnection;
      const count = await this.increment(this.keyFor(bucket, now), ttlMs);
      if (this.failingOpen) {
        this.failingOpen = false;
        this.logger.info('Redis is reachable again; rate limits are shared across processes again');
      }
      return { count, resetAt };
    } catch (error) {
      if (!this.failingOpen) {
        this.failingOpen = true;
        this.logger.warn(
          { err: error },
          'Redis is unreachable; counting rate limits in this process until it is back',
        );
      }
      return this.fallback.hit(bucket, now);
    }
  }

  /** Resolves when Redis answers; rejects otherwise (for GET /readyz). */
  async ping(): Promise<void> {
    await this.firstConnection;
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await this.fallback.close();
    if (this.redis.status === 'end') return;
    try {
      await this.redis.quit();
    } catch {
      // Not connected: nothing to say goodbye to.
      this.redis.disconnect();
    }
  }

  private async increment(key: string, ttlMs: number): Promise<number> {
    try {
      return Number(await this.redis.evalsha(HIT_SCRIPT_SHA, 1, key, ttlMs));
    } catch (error) {
      // The first call on a fresh (or flushed) Redis: load the script by sending it whole.
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return Number(await this.redis.eval(HIT_SCRIPT, 1, key, ttlMs));
    }
  }
}
