// Server-sent events for the creator's stream page: its status and viewer count, pushed when
// they change, without a reload. One poll per watched stream (not per connection) every
// couple of seconds reads the row the ingest's upkeep writes; each connection gets what
// changed. Bounded: a few connections per user (the oldest is closed for a new one, so a
// reloaded tab never locks itself out), a heartbeat that keeps proxies from timing out and
// notices dead sockets, and each connection is closed as soon as its session ends. While the
// stream is live a snapshot also carries the encoder health panel's markup (health-pages.ts).
import type { ServerResponse } from 'node:http';
import { toIso } from '../../shared/clock.ts';
import type { StreamRow } from '../../streams/stream.table.ts';

export const SSE_POLL_MS = 2000;
export const SSE_HEARTBEAT_MS = 15_000;
export const SSE_CONNECTIONS_PER_USER = 4;

export interface StreamSnapshot {
  status: StreamRow['status'];
  viewer_count: number | null;
  peak_viewer_count: number | null;
  started_at: string | null;
  ended_at: string | null;
  /** The encoder health panel's content while live (escaped markup); null otherwise. */
  health_html: string | null;
  /** When this snapshot was read (epoch ms), the chart's x. */
  at: number;
}

export function toSnapshot(stream: StreamRow, at: number, healthHtml: string | null = null): StreamSnapshot {
  return {
    status: stream.status,
    viewer_count: stream.viewer_count,
    peak_viewer_count: stream.peak_viewer_count,
    started_at: toIso(stream.started_at),
    ended_at: toIso(stream.ended_at),
    health_html: stream.status === 'live' ? healthHtml : null,
    at,
  };
}

export interface StreamEventsOptions {
  /** The stream's current row, or undefined when it is gone. */
  readStream: (id: string) => Promise<StreamRow | undefined>;
  now: () => number;
  /** The encoder health panel's markup for a live stream (health-pages.ts). */
  healthHtml?: (stream: StreamRow) => Promise<string | null>;
  pollMs?: number;
  heartbeatMs?: number;
  perUser?: number;
  onError?: (error: unknown) => void;
}

interface Connection {
  userId: string;
  streamId: string;
  response: ServerResponse;
  /** Whether the session that opened it is still signed in. */
  signedIn: () => Promise<boolean>;
  lastSent: string | undefined;
}

export class StreamEvents {
  private readonly options: Required<Omit<StreamEventsOptions, 'onError' | 'healthHtml'>> &
    Pick<StreamEventsOptions, 'onError' | 'healthHtml'>;
  private readonly connections = new Set<Connection>();
  private poller: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private polling = false;

  constructor(options: StreamEventsOptions) {
    this.options = {
      pollMs: SSE_POLL_MS,
      heartbeatMs: SSE_HEARTBEAT_MS,
      perUser: SSE_CONNECTIONS_PER_USER,
      ...options,
    };
  }

  get size(): number {
    return this.connections.size;
  }

  /** Takes over the response: headers, the current snapshot at once, then changes. */
  open(
    userId: string,
    streamId: string,
    response: ServerResponse,
    signedIn: () => Promise<boolean>,
    first: StreamRow,
  ): void {
    const own = [...this.connections].filter((c) => c.userId === userId);
    // The oldest go first: a user who opened too many tabs keeps the newest ones.
    for (const old of own.slice(0, Math.max(0, own.length - this.options.perUser + 1))) this.end(old);
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
    });
    // The browser reconnects after this long if the connection drops.
    response.write(`retry: ${this.options.pollMs * 2}\n\n`);
    const connection: Connection = { userId, streamId, response, signedIn, lastSent: undefined };
    this.connections.add(connection);
    response.on('close', () => {
      this.forget(connection);
    });
    // The health may come from the database (a stream held by another ingest process).
    this.snapshot(first, this.options.now()).then(
      (snapshot) => {
        if (this.connections.has(connection)) this.send(connection, snapshot);
      },
      (error: unknown) => {
        this.options.onError?.(error);
      },
    );
    this.startTimers();
  }

  /** Closes every connection (the server is stopping). */
  closeAll(): void {
    for (const connection of [...this.connections]) this.end(connection);
    this.stopTimers();
  }

  /** One round: each watched stream read once, each connection told what changed. */
  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const byStream = new Map<string, Connection[]>();
      for (const connection of this.connections) {
        const list = byStream.get(connection.streamId) ?? [];
        list.push(connection);
        byStream.set(connection.streamId, list);
      }
      const at = this.options.now();
      for (const [streamId, list] of byStream) {
        const stream = await this.options.readStream(streamId).catch((error: unknown) => {
          this.options.onError?.(error);
          return null;
        });
        if (stream === null) continue;
        const snapshot = stream === undefined ? undefined : await this.snapshot(stream, at);
        for (const connection of list) {
          if (!(await this.stillSignedIn(connection))) continue;
          if (snapshot === undefined) this.end(connection);
          else this.send(connection, snapshot);
        }
      }
    } finally {
      this.polling = false;
    }
  }

  private async snapshot(stream: StreamRow, at: number): Promise<StreamSnapshot> {
    const health = stream.status === 'live' ? await this.options.healthHtml?.(stream) : undefined;
    return toSnapshot(stream, at, health ?? null);
  }

  private async stillSignedIn(connection: Connection): Promise<boolean> {
    const ok = await connection.signedIn().catch(() => true);
    if (!ok) this.end(connection);
    return ok;
  }

  private send(connection: Connection, snapshot: StreamSnapshot): void {
    // Only a change is sent; `at` alone changing is no change.
    const key = JSON.stringify({ ...snapshot, at: 0 });
    if (key === connection.lastSent) return;
    connection.lastSent = key;
    connection.response.write(`event: stream\ndata: ${JSON.stringify(snapshot)}\n\n`);
  }

  private end(connection: Connection): void {
    this.forget(connection);
    connection.response.end();
  }

  private forget(connection: Connection): void {
    this.connections.delete(connection);
    if (this.connections.size === 0) this.stopTimers();
  }

  private startTimers(): void {
    if (this.poller) return;
    this.poller = setInterval(() => {
      this.poll().catch((error: unknown) => this.options.onError?.(error));
    }, this.options.pollMs);
    this.heartbeat = setInterval(() => {
      for (const connection of this.connections) connection.response.write(': heartbeat\n\n');
    }, this.options.heartbeatMs);
    this.poller.unref();
    this.heartbeat.unref();
  }

  private stopTimers(): void {
    clearInterval(this.poller);
    clearInterval(this.heartbeat);
    this.poller = undefined;
    this.heartbeat = undefined;
  }
}
