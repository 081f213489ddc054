// How a chat event reaches every API process: this process hears its own events at once, and,
// with REDIS_URL, every other process hears them through one Redis pub/sub channel. Delivery
// over Redis is best effort: a process that missed a message (Redis restarting) notices the gap
// in the room's sequence numbers at the next one and reads the missing ones from the database
// (src/chat/chat-hub.ts), so a message is never lost, only late.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { loadIoRedis } from '../shared/optional-drivers.ts';
import type { ChatMessage, ChatSettings } from './chat.serializer.ts';

export type ChatEvent =
  | { kind: 'message'; streamId: string; message: ChatMessage }
  | { kind: 'deleted'; streamId: string; id: string; seq: number }
  | { kind: 'settings'; streamId: string; settings: ChatSettings }
  /** The channel's moderators or blocked words changed (processes forget what they kept). */
  | { kind: 'channel'; channelId: string }
  | {
      kind: 'restricted';
      channelId: string;
      userId: string;
      restriction: 'ban' | 'timeout' | 'lifted';
      until: number | null;
    };

export interface ChatBus {
  publish(event: ChatEvent): void;
  /** Hears every event, this process's and (with Redis) every other's; returns the unsubscribe. */
  subscribe(listener: (event: ChatEvent) => void): () => void;
  close(): Promise<void>;
}

export const CHAT_CHANNEL = 'tributary:chat';

export class LocalChatBus implements ChatBus {
  protected readonly listeners = new Set<(event: ChatEvent) => void>();

  publish(event: ChatEvent): void {
    this.deliver(event);
  }

  subscribe(listener: (event: ChatEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  protected deliver(event: ChatEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** Connects only when first used, so the CLI (which opens the same services) never does. */
export class RedisChatBus extends LocalChatBus {
  private readonly url: string;
  private readonly logger: Pick<Logger, 'warn' | 'error'>;
  private readonly channel: string;
  private readonly origin = randomUUID();
  private publisher: Redis | undefined;
  private subscriber: Redis | undefined;
  private warned = false;

  constructor(url: string, logger: Pick<Logger, 'warn' | 'error'>, channel = CHAT_CHANNEL) {
    super();
    this.url = url;
    this.logger = logger;
    this.channel = channel;
  }

  override publish(event: ChatEvent): void {
    this.deliver(event);
    this.publisher ??= this.connect('tributary-chat-publish');
    this.publisher
      .publish(this.channel, JSON.stringify({ origin: this.origin, event }))
      .catch((error: unknown) => {
        if (this.warned) return;
        this.warned = true;
        this.logger.warn({ err: error }, 'chat events cannot reach the other API processes (Redis)');
      });
  }

  override subscribe(listener: (event: ChatEvent) => void): () => void {
    if (this.subscriber === undefined) {
      const subscriber = this.connect('tributary-chat-subscribe');
      this.subscriber = subscriber;
      subscriber.on('message', (_channel: string, text: string) => {
        this.receive(text);
      });
      subscriber.subscribe(this.channel).catch((error: unknown) => {
        this.logger.error({ err: error }, 'cannot subscribe to chat events in Redis');
      });
    }
    return super.subscribe(listener);
  }

  /** Resolves once the subscription is in place (tests and the benchmark wait for it). */
  async ready(): Promise<void> {
    const subscriber = this.subscriber;
    if (subscriber === undefined) return;
    for (let i = 0; i < 100 && subscriber.status !== 'ready'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private receive(text: string): void {
    let parsed: { origin?: unknown; event?: ChatEvent };
    try {
      parsed = JSON.parse(text) as { origin?: unknown; event?: ChatEvent };
    } catch {
      return;
    }
    if (parsed.origin === this.origin || parsed.event === undefined) return;
    this.warned = false;
    this.deliver(parsed.event);
  }

  private connect(name: string): Redis {
    const redis = new (loadIoRedis().Redis)(this.url, {
      connectionName: name,
      maxRetriesPerRequest: 1,
      retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
    });
    redis.on('error', () => undefined);
    return redis;
  }

  override async close(): Promise<void> {
    await Promise.all(
      [this.publisher, this.subscriber].map(async (redis) => {
        if (redis === undefined || redis.status === 'end') return;
        try {
          await redis.quit();
        } catch {
          redis.disconnect();
        }
      }),
    );
  }
}
