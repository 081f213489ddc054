// The real application with media routes and live ingest wired in, as `tributary serve` will
// wire them: a listening HTTP server whose PUBLIC_URL is its own address (so stream_url,
// thumbnail_url and playback_url really answer), an RTMP listener on a free port, real ffmpeg
// packagers, and a log captured line by line so tests can check what was logged.
import net from 'node:net';
import { Writable } from 'node:stream';
import type { TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { createServices, type Services } from '../../src/container.ts';
import { migrateToLatest, openDatabase, type Dialect } from '../../src/db/database.ts';
import { MemoryRateLimitStore } from '../../src/http/rate-limit-store.ts';
import { startIngest, type IngestHandle } from '../../src/ingest/ingest.ts';
import { createLogger } from '../../src/logger.ts';
import { mediaPlugin } from '../../src/media/media.plugin.ts';
import { ViewerTracker } from '../../src/media/viewer-tracker.ts';
import { systemClock, type Clock } from '../../src/shared/clock.ts';
import { DeliveryWorker } from '../../src/webhooks/delivery-worker.ts';
import { testCa } from './test-ca.ts';
import { createTestDatabase, type TestDatabase } from './databases.ts';
import type { Account, ApiResponse } from './server.ts';

export interface MediaServerOptions {
  dialect: Dialect;
  reconnectWindowSeconds?: number;
  thumbnailIntervalMs?: number;
  /** How long a player counts as watching after its last playlist fetch. */
  viewerWindowMs?: number;
  rateLimitPerIp?: number;
  ffmpegPath?: string;
  /** Also run the webhook delivery worker, trusting the test CA, as `serve` does. */
  deliverWebhooks?: boolean;
  /** RTMP_MAX_CONNECTIONS (64 unless given). */
  maxRtmpConnections?: number;
  /** How long an RTMP connection may take to ask to publish. */
  publishDeadlineMs?: number;
  /** The services' clock (the system clock unless given). */
  clock?: Clock;
}

export interface OutboxEvent {
  type: string;
  account_id: string;
  data: any;
}

export class MediaTestServer {
  readonly app: FastifyInstance;
  readonly services: Services;
  readonly origin: string;
  readonly rtmpPort: number;
  readonly ingest: IngestHandle;
  readonly database: TestDatabase;
  /** Every log line written so far, as JSON text. */
  readonly logs: string[];

  constructor(
    app: FastifyInstance,
    services: Services,
    origin: string,
    rtmpPort: number,
    ingest: IngestHandle,
    database: TestDatabase,
    logs: string[],
  ) {
    this.app = app;
    this.services = services;
    this.origin = origin;
    this.rtmpPort = rtmpPort;
    this.ingest = ingest;
    this.database = database;
    this.logs = logs;
  }

  get dataDir(): string {
    return this.database.dataDir;
  }

  rtmpUrl(streamKey: string, app = 'live'): string {
    return `rtmp://127.0.0.1:${this.rtmpPort}/${app}/${streamKey}`;
  }

  async createAccount(name = 'Media creator'): Promise<Account> {
    const user = await this.services.accounts.createUser(name);
    const write = await this.services.accounts.createKey(user.id, 'write');
    const read = await this.services.accounts.createKey(user.id, 'read');
    return { userId: user.id, writeKey: write.key, readKey: read.key };
  }

  /** Creates a stream through the API; returns its detail object (with `ingest`). */
  async createStream(account: Account, body: Record<string, unknown> = {}): Promise<any> {
    const res = await this.request('POST', '/v1/streams', {
      key: account.writeKey,
      body: { title: 'Test pattern', ...body },
    });
    if (res.status !== 201) throw new Error(`creating a stream failed: ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async request<T = any>(
    method: string,
    path: string,
    options: { key?: string; body?: unknown } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = {};
    if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const url = path.startsWith('http') ? path : `${this.origin}${path}`;
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: left as text
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  }

  /** The outbox: what webhook delivery sends, in the order the events were recorded. */
  async events(type?: string): Promise<OutboxEvent[]> {
    let query = this.services.database.db
      .selectFrom('events')
      .select(['type', 'account_id', 'data', 'created_at', 'id'])
      .orderBy('created_at')
      .orderBy('id');
    if (type !== undefined) query = query.where('type', '=', type as never);
    const rows = await query.execute();
    return rows.map((row) => ({ type: row.type, account_id: row.account_id, data: JSON.parse(row.data) }));
  }
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  return port;
}

export async function startMediaServer(
  t: TestContext,
  options: MediaServerOptions,
): Promise<MediaTestServer> {
  const database = await createTestDatabase(options.dialect);
  const handle = openDatabase(database.url);
  await migrateToLatest(handle.db);
  const httpPort = await freePort();
  const rtmpPort = await freePort();
  const origin = `http://127.0.0.1:${httpPort}`;
  const ingestConfig = {
    rtmpPort,
    reconnectWindowSeconds: options.reconnectWindowSeconds ?? 3,
    ffmpegPath: options.ffmpegPath ?? 'ffmpeg',
    maxConnections: options.maxRtmpConnections ?? 64,
  };
  const webhookConfig = {
    retryDelaysMs: [200, 400],
    timeoutMs: 2000,
    disableAfterFailedEvents: 3,
    allowPrivateTargets: true,
  };
  const services = createServices(
    { publicUrl: origin, ingest: ingestConfig, webhooks: webhookConfig },
    handle,
    Buffer.alloc(32, 9),
    options.clock ?? systemClock,
  );
  const logs: string[] = [];
  const logger = createLogger(
    'debug',
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        callback();
      },
    }),
  );
  const viewers = new ViewerTracker(systemClock, options.viewerWindowMs);
  const app = await buildApp({
    services,
    rateLimits: new MemoryRateLimitStore(),
    rateLimitPerKey: 1000,
    rateLimitPerIp: options.rateLimitPerIp ?? 1000,
    logger,
    plugins: [mediaPlugin({ services, dataDir: database.dataDir, viewers })],
  });
  await app.listen({ port: httpPort, host: '127.0.0.1' });
  const ingest = await startIngest({
    // The RTMP listener binds the HTTP listener's interface (HOST), as under `serve`.
    config: { ingest: ingestConfig, dataDir: database.dataDir, host: '127.0.0.1' },
    services,
    logger,
    viewers,
    thumbnailIntervalMs: options.thumbnailIntervalMs,
    publishDeadlineMs: options.publishDeadlineMs,
  });
  const worker = options.deliverWebhooks
    ? new DeliveryWorker({
        database: handle,
        clock: systemClock,
        config: webhookConfig,
        secrets: services.webhookSecrets,
        logger,
        listenUrl: handle.dialect === 'postgres' ? database.url : undefined,
        ca: testCa().caPem,
      })
    : undefined;
  await worker?.start();
  t.after(async () => {
    await worker?.stop();
    // TEST_MEDIA_LOGS=1 shows the service's log of each media test, for diagnosis.
    if (process.env.TEST_MEDIA_LOGS === '1') process.stderr.write(`${logs.join('\n')}\n`);
    await ingest.close();
    await app.close();
    await handle.close();
    await database.drop();
  });
  return new MediaTestServer(app, services, origin, rtmpPort, ingest, database, logs);
}
