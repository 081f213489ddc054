// Chooses where chat events travel and floods are counted: Redis when REDIS_URL is set (every
// API process hears every message and shares each user's budget), else this process's memory.
import type { Logger } from 'pino';
import type { ChatConfig } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Clock } from '../shared/clock.ts';
import { LocalChatBus, RedisChatBus, type ChatBus } from './chat-bus.ts';
import { MemoryChatFlood, RedisChatFlood, type ChatFlood } from './chat-flood.ts';
import { ChatService } from './chat.service.ts';

export const CHAT_DEFAULTS: ChatConfig = { platformFilter: true, connectionsPerAddress: 20, muteSeconds: 10 };

export function createChatService(
  db: Db,
  clock: Clock,
  options: {
    redisUrl?: string | undefined;
    chat?: Partial<ChatConfig> | undefined;
    logger: Pick<Logger, 'warn' | 'info' | 'error'>;
  },
): ChatService {
  const config = { ...CHAT_DEFAULTS, ...options.chat };
  const muteMs = config.muteSeconds * 1000;
  const bus: ChatBus =
    options.redisUrl === undefined ? new LocalChatBus() : new RedisChatBus(options.redisUrl, options.logger);
  const flood: ChatFlood =
    options.redisUrl === undefined
      ? new MemoryChatFlood(clock, muteMs)
      : new RedisChatFlood(options.redisUrl, clock, muteMs, options.logger);
  return new ChatService(db, clock, bus, flood, { platformFilter: config.platformFilter });
}
