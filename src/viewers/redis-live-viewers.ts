// Live viewers shared by every API process: one sorted set per stream in Redis, members
// `address \n viewer` scored by when they were last seen, and beside it a hash of how many
// members each address has (for the per-address cap). Recording a presence and counting are
// each one script, so two processes never race past a cap. Both keys expire a little after the
// window, so a stream nobody watches leaves nothing behind; a stream's set never holds more
// than `perStream` members.
//
// When Redis cannot be reached, presence is counted in this process's memory (as without
// REDIS_URL) and a warning is logged once per outage: counts shrink to this process's share
// for a while, which is better than failing the players' requests.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { VIEWER_LIMITS, type ViewerLimits } from '../media/viewer-tracker.ts';
import type { Clock } from '../shared/clock.ts';
import { connectFailFast } from '../shared/fail-fast-redis.ts';
import { MemoryLiveViewers, PRESENCE_WINDOW_MS, type LiveViewers } from './live-viewers.ts';

export const LIVE_VIEWERS_KEY_PREFIX = 'tributary:viewers:';

// Expired members go first, their addresses' shares with them. At most EXPIRE_BATCH per call,
// so one call stays short; the count itself uses ZCOUNT, exact whatever is left to expire.
const EXPIRE = `
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1], 'LIMIT', 0, 500)
for _, member in ipairs(expired) do
  redis.call('ZREM', KEYS[1], member)
  local address = string.sub(member, 1, string.find(member, '\\n', 1, true) - 1)
  if redis.call('HINCRBY', KEYS[2], address, -1) <= 0 then redis.call('HDEL', KEYS[2], address) end
end
`;

// ARGV: cutoff, now, member, address, perAddress, perStream, ttlMs. Returns 1 when counted.
const SEEN_SCRIPT = `${EXPIRE}
if redis.call('ZSCORE', KEYS[1], ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
else
  local fromAddress = tonumber(redis.call('HGET', KEYS[2], ARGV[4]) or '0')
  if fromAddress >= tonumber(ARGV[5]) or redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[6]) then
    return 0
  end
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
  redis.call('HINCRBY', KEYS[2], ARGV[4], 1)
end
redis.call('PEXPIRE', KEYS[1], ARGV[7])
redis.call('PEXPIRE', KEYS[2], ARGV[7])
return 1
`;

// ARGV: cutoff. Returns the viewers seen since the cutoff.
const COUNT_SCRIPT = `${EXPIRE}
return redis.call('ZCOUNT', KEYS[1], ARGV[1], '+inf')
`;

interface Script {
  source: string;
  sha: string;
}

function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

const SEEN = script(SEEN_SCRIPT);
const COUNT = script(COUNT_SCRIPT);

export interface RedisLiveViewersOptions {
  url: string;
  clock: Clock;
  logger: Pick<Logger, 'warn' | 'info'>;
  windowMs?: number;
  limits?: ViewerLimits;
  /** Namespace of the keys; tests give their own. */
  keyPrefix?: string;
  commandTimeoutMs?: number;
}

export class RedisLiveViewers implements LiveViewers {
  private readonly redis: Redis;
  private readonly clock: Clock;
  private readonly logger: Pick<Logger, 'warn' | 'info'>;
  private readonly windowMs: number;
  private readonly limits: ViewerLimits;
  private readonly keyPrefix: string;
  private readonly fallback: MemoryLiveViewers;
  private failingOpen = false;
  private readonly firstConnection: Promise<void>;

  constructor(options: RedisLiveViewersOptions) {
    this.clock = options.clock;
    this.logger = options.logger;
    this.windowMs = options.windowMs ?? PRESENCE_WINDOW_MS;
    this.limits = options.limits ?? VIEWER_LIMITS;
    this.keyPrefix = options.keyPrefix ?? LIVE_VIEWERS_KEY_PREFIX;
    this.fallback = new MemoryLiveViewers(options.clock, this.windowMs, this.limits);
    const connection = connectFailFast(options.url, {
      connectionName: 'tributary-live-viewers',
      commandTimeoutMs: options.commandTimeoutMs,
    });
    this.redis = connection.redis;
    this.firstConnection = connection.firstConnection;
  }

  /** The stream's keys; the hash tag keeps both in one slot of a Redis Cluster. */
  keysOf(streamId: string): [members: string, addresses: string] {
    const members = `${this.keyPrefix}{${streamId}}`;
    return [members, `${members}:addresses`];
  }

  async seen(streamId: string, address: string, viewer: string): Promise<void> {
    const now = this.clock.now();
    try {
      await this.run(SEEN, this.keysOf(streamId), [
        now - this.windowMs,
        now,
        `${address}\n${viewer}`,
        address,
        this.limits.perAddress,
        this.limits.perStream,
        // The grace keeps the keys through small clock differences between processes.
        this.windowMs * 2,
      ]);
      this.recovered();
    } catch (error) {
      this.failed(error);
      await this.fallback.seen(streamId, address, viewer);
    }
  }

  async count(streamId: string): Promise<number> {
    try {
      const count = Number(await this.run(COUNT, this.keysOf(streamId), [this.clock.now() - this.windowMs]));
      this.recovered();
      return count;
    } catch (error) {
      this.failed(error);
      return this.fallback.count(streamId);
    }
  }

  streamIds(): string[] {
    return this.fallback.streamIds();
  }

  async close(): Promise<void> {
    if (this.redis.status === 'end') return;
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }

  private async run(which: Script, keys: string[], args: (string | number)[]): Promise<unknown> {
    await this.firstConnection;
    try {
      return await this.redis.evalsha(which.sha, keys.length, ...keys, ...args);
    } catch (error) {
      // The first call on a fresh (or flushed) Redis: load the script by sending it whole.
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return this.redis.eval(which.source, keys.length, ...keys, ...args);
    }
  }

  private failed(error: unknown): void {
    if (this.failingOpen) return;
    this.failingOpen = true;
    this.logger.warn(
      { err: error },
      'Redis is unreachable; counting live viewers in this process until it is back',
    );
  }

  private recovered(): void {
    if (!this.failingOpen) return;
    this.failingOpen = false;
    this.logger.info('Redis is reachable again; live viewers are counted across processes again');
  }
}
