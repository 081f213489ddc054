// Chooses where live viewers are counted: Redis when REDIS_URL is set (one count per stream
// over every API process), else this process's memory.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { VIEWER_LIMITS } from '../media/viewer-tracker.ts';
import type { Clock } from '../shared/clock.ts';
import { MemoryLiveViewers, PRESENCE_WINDOW_MS, type LiveViewers } from './live-viewers.ts';
import { RedisLiveViewers } from './redis-live-viewers.ts';

export function createLiveViewers(
  config: Pick<Config, 'redisUrl'> & { media: Pick<Config['media'], 'viewersPerAddress'> },
  clock: Clock,
  logger: Pick<Logger, 'warn' | 'info'>,
): LiveViewers {
  const limits = { ...VIEWER_LIMITS, perAddress: config.media.viewersPerAddress };
  if (config.redisUrl === undefined) return new MemoryLiveViewers(clock, PRESENCE_WINDOW_MS, limits);
  return new RedisLiveViewers({ url: config.redisUrl, clock, logger, limits });
}
