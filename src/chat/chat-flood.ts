// Flood control: about 3 messages per 2 s per user and per client address (as Owncast allows),
// then a mute for a while. Counted in Redis when REDIS_URL is set, so a second tab or another
// API process shares the budget; else in this process's memory. With Redis unreachable the
// count falls back to memory (a warning is logged once per outage), as the HTTP limits do.
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Clock } from '../shared/clock.ts';
import { connectFailFast } from '../shared/fail-fast-redis.ts';

export const FLOOD_WINDOW_MS = 2_000;
export const FLOOD_MESSAGES = 3;

export interface FloodVerdict {
  allowed: boolean;
  /** When refused: when the mute ends (epoch ms). */
  mutedUntil?: number;
}

export interface ChatFlood {
  /** Counts one message against every key; refused when any is muted or over its budget. */
  hit(keys: string[]): Promise<FloodVerdict>;
  close(): Promise<void>;
}

export class MemoryChatFlood implements ChatFlood {
  private readonly windows = new Map<string, { window: number; count: number }>();
  private readonly mutes = new Map<string, number>();
  private readonly clock: Clock;
  private readonly muteMs: number;

  constructor(clock: Clock, muteMs: number) {
    this.clock = clock;
    this.muteMs = muteMs;
  }

  hit(keys: string[]): Promise<FloodVerdict> {
    const now = this.clock.now();
    this.prune(now);
    const window = Math.floor(now / FLOOD_WINDOW_MS);
    let mutedUntil = 0;
    for (const key of keys) {
      const until = this.mutes.get(key) ?? 0;
      if (until > now) mutedUntil = Math.max(mutedUntil, until);
    }
    if (mutedUntil > 0) return Promise.resolve({ allowed: false, mutedUntil });
    for (const key of keys) {
      const entry = this.windows.get(key);
      const count = entry?.window === window ? entry.count + 1 : 1;
      this.windows.set(key, { window, count });
      if (count > FLOOD_MESSAGES) {
        this.mutes.set(key, now + this.muteMs);
        mutedUntil = now + this.muteMs;
      }
    }
    return Promise.resolve(mutedUntil > 0 ? { allowed: false, mutedUntil } : { allowed: true });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  // Bounded by the keys active in the last few seconds.
  private prune(now: number): void {
    if (this.windows.size < 10_000 && this.mutes.size < 10_000) return;
    const window = Math.floor(now / FLOOD_WINDOW_MS);
    for (const [key, entry] of this.windows) if (entry.window < window) this.windows.delete(key);
    for (const [key, until] of this.mutes) if (until <= now) this.mutes.delete(key);
  }
}

// KEYS: per key, its counter then its mute. ARGV: now, muteMs, limit, windowMs.
// Returns 0 when allowed, else when the mute ends.
const HIT = `
local now = tonumber(ARGV[1])
local muted = 0
for i = 2, #KEYS, 2 do
  local ends = tonumber(redis.call('GET', KEYS[i]) or '0')
  if ends > now and ends > muted then muted = ends end
end
if muted > 0 then return muted end
for i = 1, #KEYS, 2 do
  local count = redis.call('INCR', KEYS[i])
  if count == 1 then redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[4]) * 2) end
  if count > tonumber(ARGV[3]) then
    muted = now + tonumber(ARGV[2])
    redis.call('SET', KEYS[i + 1], muted, 'PX', ARGV[2])
  end
end
return muted
`;

export class RedisChatFlood implements ChatFlood {
  private readonly redis: Redis;
  private readonly firstConnection: Promise<void>;
  private readonly fallback: MemoryChatFlood;
  private readonly clock: Clock;
  private readonly muteMs: number;
  private readonly logger: Pick<Logger, 'warn' | 'info'>;
  private failing = false;

  constructor(url: string, clock: Clock, muteMs: number, logger: Pick<Logger, 'warn' | 'info'>) {
    // A longer command timeout than the HTTP limits': a timeout fails open to this process's count.
    const connection = connectFailFast(url, {
      connectionName: 'tributary-chat-flood',
      commandTimeoutMs: 2_000,
    });
    this.redis = connection.redis;
    this.firstConnection = connection.firstConnection;
    this.fallback = new MemoryChatFlood(clock, muteMs);
    this.clock = clock;
    this.muteMs = muteMs;
    this.logger = logger;
  }

  async hit(keys: string[]): Promise<FloodVerdict> {
    const now = this.clock.now();
    const window = Math.floor(now / FLOOD_WINDOW_MS);
    const redisKeys = keys.flatMap((key) => [
      `tributary:chat:flood:{${key}}:${window}`,
      `tributary:chat:mute:{${key}}`,
    ]);
    try {
      await this.firstConnection;
      const muted = Number(
        await this.redis.eval(
          HIT,
          redisKeys.length,
          ...redisKeys,
          now,
          this.muteMs,
          FLOOD_MESSAGES,
          FLOOD_WINDOW_MS,
        ),
      );
      if (this.failing) {
        this.failing = false;
        this.logger.info('Redis is reachable again; chat flood limits are shared again');
      }
      return muted > 0 ? { allowed: false, mutedUntil: muted } : { allowed: true };
    } catch (error) {
      if (!this.failing) {
        this.failing = true;
        this.logger.warn({ err: error }, 'Redis is unreachable; counting chat floods in this process');
      }
      return this.fallback.hit(keys);
    }
  }

  async close(): Promise<void> {
    if (this.redis.status === 'end') return;
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}
