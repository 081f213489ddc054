// A dedicated PostgreSQL connection that LISTENs for new outbox events and removed webhooks,
// so a worker in any process reacts within milliseconds without polling hard. If the
// connection drops, it reconnects; meanwhile the worker's slow poll still finds the work.
import type pg from 'pg';
import type { Logger } from 'pino';
import { OUTBOX_CHANNEL } from '../../events/outbox-signal.ts';
import { loadPg } from '../../shared/optional-drivers.ts';
import { WEBHOOK_REMOVED_CHANNEL } from './removal-signal.ts';

export interface ListenerHandlers {
  onOutbox(): void;
  onWebhookRemoved(webhookId: string): void;
}

const RECONNECT_DELAY_MS = 1000;

export class PostgresListener {
  private readonly url: string;
  private readonly handlers: ListenerHandlers;
  private readonly logger: Logger;
  private client: pg.Client | undefined;
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | undefined;

  constructor(url: string, handlers: ListenerHandlers, logger: Logger) {
    this.url = url;
    this.handlers = handlers;
    this.logger = logger;
  }

  async start(): Promise<void> {
    const client = new (loadPg().Client)({ connectionString: this.url });
    client.on('notification', (message) => {
      if (message.channel === OUTBOX_CHANNEL) this.handlers.onOutbox();
      else if (message.channel === WEBHOOK_REMOVED_CHANNEL && message.payload) {
        this.handlers.onWebhookRemoved(message.payload);
      }
    });
    client.on('error', (error) => {
      this.logger.warn({ err: error }, 'webhook listener connection lost; reconnecting');
      this.reconnect(client);
    });
    client.on('end', () => {
      this.reconnect(client);
    });
    this.client = client;
    await client.connect();
    await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
    await client.query(`LISTEN ${WEBHOOK_REMOVED_CHANNEL}`);
  }

  private reconnect(failed: pg.Client): void {
    if (this.closed || this.client !== failed || this.reconnectTimer) return;
    this.client = undefined;
    failed.removeAllListeners('end');
    void failed.end().catch(() => undefined);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.closed) return;
      this.start().then(
        () => {
          // Something may have happened while it was away.
          this.handlers.onOutbox();
        },
        (error: unknown) => {
          this.logger.warn({ err: error }, 'webhook listener could not reconnect; retrying');
          if (this.client) this.reconnect(this.client);
        },
      );
    }, RECONNECT_DELAY_MS);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
  }
}
