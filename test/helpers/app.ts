// The real application as a test needs it, built once here: a fresh database, the services,
// the app on a real listening socket, and, when asked, the in-process webhook delivery worker
// and the media routes with live RTMP ingest and real ffmpeg, wired as `tributary serve` wires
// them. Clients talk to it with fetch, as an API client would. startTestServer,
// startWebhookServer and startMediaServer are this with their own defaults.
import fs from 'node:fs';
import { Writable } from 'node:stream';
import type { TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { LogConfig } from 'kysely';
import type { Logger } from 'pino';
import { buildApp } from '../../src/app.ts';
import type { ScryptCost } from '../../src/accounts/password.ts';
import type { HttpLimitsConfig, IngestConfig, WebhookConfig } from '../../src/config.ts';
import type { RealtimeOptions } from '../../src/realtime/realtime-hub.ts';
import { createServices, publishOutputs, type Services } from '../../src/container.ts';
import type { ChatConfig, UploadConfig } from '../../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import type { Dialect } from '../../src/db/dialect.ts';
import { MemoryRateLimitStore, type RateLimitStore } from '../../src/http/rate-limit-store.ts';
import { startIngest, type IngestHandle } from '../../src/ingest/ingest.ts';
import type { WhipIngest } from '../../src/whip/whip-ingest.ts';
import type { TranscodeConfig } from '../../src/transcode/ladder.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { mediaPlugin } from '../../src/media/media.plugin.ts';
import type { MediaStorage } from '../../src/storage/media-storage.ts';
import { MemoryLiveViewers, type LiveViewers } from '../../src/viewers/live-viewers.ts';
import { viewersPlugin } from '../../src/viewers/viewers.plugin.ts';
import { systemClock, type Clock } from '../../src/shared/clock.ts';
import { DeliveryWorker, type DeliveryWorkerOptions } from '../../src/webhooks/delivery/worker.ts';
import { startUploadWorker, type UploadWorker } from '../../src/uploads/upload-worker.ts';
import { MailWorker, type MailWorkerOptions } from '../../src/mail/mail-worker.ts';
import {
  consoleTransport,
  smtpTransport,
  type MailTransport,
  type SmtpTimeouts,
} from '../../src/mail/mail-transport.ts';
import { TestClock } from './clock.ts';
import { createTestDatabase, type TestDatabase } from './databases.ts';
import { testCa } from './test-ca.ts';
import { freePort } from './ports.ts';

/** Webhook settings that make retries and timeouts short enough for a test to wait them out. */
export const FAST_WEBHOOKS: WebhookConfig = {
  retryDelaysMs: [200, 400],
  timeoutMs: 2000,
  disableAfterFailedEvents: 3,
  allowPrivateTargets: true,
  historyDays: 30,
};

export interface MediaOptions {
  reconnectWindowSeconds?: number;
  /** CLEAN_STOP_GRACE_SECONDS (5 unless given; at most the reconnect window is used). */
  cleanStopGraceSeconds?: number;
  thumbnailIntervalMs?: number;
  /** MEDIA_CACHE_MB, in bytes (64 MiB unless given). */
  mediaCacheBytes?: number;
  /** How long a player counts as watching after its last presence signal. */
  viewerWindowMs?: number;
  ffmpegPath?: string;
  /** RTMP_MAX_CONNECTIONS (64 unless given). */
  maxRtmpConnections?: number;
  /** RTMP_PROXY_PROTOCOL (off unless given). */
  rtmpProxyProtocol?: boolean;
  /** CHANNEL_KEY_WINDOW_HOURS (12 unless given). */
  channelKeyWindowHours?: number;
  /** How long an RTMP connection may take to ask to publish. */
  publishDeadlineMs?: number;
  /** INGEST_BITRATE_LIMIT_KBPS (12000 unless given). */
  bitrateLimitKbps?: number;
  /** The ladder (TRANSCODE and its settings); copy-only packaging, as TRANSCODE=off, unless given. */
  transcode?: TranscodeConfig;
}

export interface TestAppOptions {
  dialect: Dialect;
  /** Upload limits (src/config.ts's UploadConfig); the defaults for any not given. */
  uploads?: Partial<UploadConfig>;
  /** The services' clock: a TestClock the test moves by hand unless given. */
  clock?: Clock;
  rateLimitPerKey?: number;
  rateLimitPerIp?: number;
  rateLimits?: RateLimitStore;
  /** Slow-client limits; the configuration's defaults unless given. */
  http?: Partial<HttpLimitsConfig>;
  /**
   * The app's logger: none unless given; 'capture' logs everything at debug level into
   * `TestApp.logs` (TEST_MEDIA_LOGS=1 also prints them when the test ends).
   */
  logger?: Logger | 'capture';
  /** Webhook settings over FAST_WEBHOOKS. */
  webhooks?: Partial<WebhookConfig>;
  /** Runs the delivery worker in-process over the same database, trusting the test CA. */
  worker?: Partial<DeliveryWorkerOptions> | boolean;
  /** Mounts the media routes and starts RTMP ingest; PUBLIC_URL is then the app's own origin. */
  media?: MediaOptions;
  /** The master secret (32 bytes of 7 unless given). */
  secretKey?: Buffer;
  /** Where presence is counted (this app's memory, in real time, unless given). */
  liveViewers?: LiveViewers;
  /** Presence signals per address per minute (120 unless given). */
  presencePerMinute?: number;
  /** Hears every database query (a test counts them). */
  databaseLog?: LogConfig;
  /** SIGNUPS (open unless given). */
  signups?: 'open' | 'closed';
  /** SIGNUPS_PER_ADDRESS_PER_HOUR: 10,000 unless given (tests sign many people up from loopback). */
  signupsPerHour?: number;
  /** PUBLIC_URL when there is no media (`http://media.test` unless given). */
  publicUrl?: string;
  /** scrypt's cost for passwords: TEST_PASSWORD_COST (cheap) unless given. */
  passwordCost?: ScryptCost;
  /** TRUST_PROXY (false unless given): a test behind its own proxy names the proxy. */
  trustProxy?: boolean | string;
  /**
   * Runs the media job runner that turns finished uploads into videos (as `serve` does), with
   * real ffmpeg and the media options' ladder (copy-only unless given).
   */
  uploadWorker?: boolean;
  /** SIMULCAST_ALLOW_PRIVATE_TARGETS (true unless given). */
  simulcastPrivateTargets?: boolean;
  /** Counts requests for the metrics endpoint, as `serve` does with METRICS_PORT set. */
  recordMetrics?: boolean;
  /**
   * MEDIA_STORAGE=s3: the object store published videos move to (the upload worker runs the
   * video.store jobs, and the media routes read moved videos from it).
   */
  objectStore?: MediaStorage;
  /** Delays before a video.store job's retries (with `objectStore`). */
  storeRetryDelaysMs?: number[];
  /**
   * Outgoing mail: SMTP_URL (verification is then on) and the in-process mail worker sending
   * through it (short timeouts and retries unless told), or a transport of the test's own.
   */
  mail?: {
    smtpUrl?: string;
    transport?: MailTransport;
    worker?: Partial<Omit<MailWorkerOptions, 'db' | 'clock' | 'logger' | 'outbox' | 'transport' | 'from'>>;
    timeouts?: SmtpTimeouts;
    /** Runs no worker: the test sends nothing, or runs one itself. */
    noWorker?: boolean;
  };
  /** The realtime side's settings (REALTIME_MAX_VIEWERS, WebRTC ports): src/realtime/realtime-hub.ts's defaults unless given. */
  realtime?: RealtimeOptions;
  /** The chat's settings (src/config.ts's ChatConfig) and its slow-reader bound in bytes. */
  chat?: Partial<ChatConfig> & { sendBufferLimit?: number };
}

/** Cheap scrypt for tests that sign many people up; the real cost is src/accounts/password.ts's. */
export const TEST_PASSWORD_COST: ScryptCost = { N: 2 ** 10, r: 8, p: 1 };

export interface Account {
  userId: string;
  writeKey: string;
  readKey: string;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  key?: string | undefined;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface OutboxEvent {
  type: string;
  account_id: string;
  data: any;
}

export interface TestAppParts {
  app: FastifyInstance;
  services: Services;
  handle: DatabaseHandle;
  database: TestDatabase;
  clock: Clock;
  origin: string;
  config: WebhookConfig;
  secretKey: Buffer;
  worker: DeliveryWorker | undefined;
  ingest: IngestHandle | undefined;
  uploadWorker: UploadWorker | undefined;
  rtmpPort: number;
  logs: string[];
  mailWorker?: MailWorker | undefined;
  whip: WhipIngest;
}

export class TestApp {
  readonly app: FastifyInstance;
  readonly services: Services;
  readonly handle: DatabaseHandle;
  readonly database: TestDatabase;
  readonly clock: Clock;
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  /** The webhook settings the services and the worker were given. */
  readonly config: WebhookConfig;
  readonly secretKey: Buffer;
  /** The in-process delivery worker, when asked for. */
  readonly worker: DeliveryWorker | undefined;
  /** The media job runner for uploads, when asked for. */
  readonly uploadWorker: UploadWorker | undefined;
  /** The in-process mail worker, with `mail`. */
  readonly mailWorker: MailWorker | undefined;
  private readonly ingestHandle: IngestHandle | undefined;
  /** The port stream URLs name (the RTMP listener's with media, else a placeholder). */
  readonly rtmpPort: number;
  /** Every log line written so far, as JSON text (with `logger: 'capture'`). */
  readonly logs: string[];
  /** WHIP sessions (POST /v1/whip), admitted by the ingest with media. */
  readonly whip: WhipIngest;

  constructor(parts: TestAppParts) {
    this.app = parts.app;
    this.services = parts.services;
    this.handle = parts.handle;
    this.database = parts.database;
    this.clock = parts.clock;
    this.origin = parts.origin;
    this.config = parts.config;
    this.secretKey = parts.secretKey;
    this.worker = parts.worker;
    this.uploadWorker = parts.uploadWorker;
    this.mailWorker = parts.mailWorker;
    this.ingestHandle = parts.ingest;
    this.rtmpPort = parts.rtmpPort;
    this.logs = parts.logs;
    this.whip = parts.whip;
  }

  /** `http://127.0.0.1:PORT/v1`. */
  get baseUrl(): string {
    return `${this.origin}/v1`;
  }

  get port(): number {
    return Number(new URL(this.origin).port);
  }

  get dataDir(): string {
    return this.database.dataDir;
  }

  /** Live ingest (only with `media`). */
  get ingest(): IngestHandle {
    if (!this.ingestHandle) throw new Error('this test app was started without media');
    return this.ingestHandle;
  }

  rtmpUrl(streamKey: string, app = 'live'): string {
    return `rtmp://127.0.0.1:${this.rtmpPort}/${app}/${streamKey}`;
  }

  async createAccount(name = 'Test creator'): Promise<Account> {
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

  /** A request to a path on the server, such as `/v1/streams`, or to an absolute URL. */
  async request<T = any>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
    const init: RequestInit = { method, headers };
    if (options.rawBody !== undefined) init.body = options.rawBody;
    else if (options.body !== undefined) {
      init.body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const url = path.startsWith('http') ? path : `${this.origin}${path}`;
    const response = await fetch(url, init);
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // left as text: the test will say what it expected
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

/** A port that was free a moment ago, for a listener whose address must be known in advance. */
export { freePort };

function capturingLogger(logs: string[]): Logger {
  return createLogger(
    'debug',
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        callback();
      },
    }),
  );
}

/**
 * TEST_SQL_LOG=FILE appends, when each test app stops, one line per distinct statement it ran:
 * dialect, test name and the SQL with placeholders as `?`. It shows which queries run on which
 * dialect (the PostgreSQL coverage of SQLite-only media tests, test/helpers/databases.ts).
 */
function withSqlRecorder(
  t: TestContext,
  dialect: Dialect,
  log: LogConfig | undefined,
): LogConfig | undefined {
  const file = process.env.TEST_SQL_LOG;
  if (!file || (log !== undefined && typeof log !== 'function')) return log;
  const statements = new Set<string>();
  t.after(() => {
    const lines = [...statements].map((sql) => `${dialect}\t${t.fullName}\t${sql}\n`);
    fs.appendFileSync(file, lines.join(''));
  });
  return (event) => {
    statements.add(event.query.sql.replace(/\$\d+/g, '?').replace(/\s+/g, ' '));
    if (typeof log === 'function') void log(event);
  };
}

/** Starts the application as `options` ask; everything started is stopped when `t` ends. */
export async function startTestApp(t: TestContext, options: TestAppOptions): Promise<TestApp> {
  const database = await createTestDatabase(options.dialect, { migrated: true });
  const stops: (() => Promise<void> | void)[] = [() => database.drop()];
  // Stopped in reverse order, also when starting fails half-way.
  const stopAll = async () => {
    for (const stop of stops.toReversed()) await stop();
  };
  t.after(stopAll);

  const databaseLog = withSqlRecorder(t, options.dialect, options.databaseLog);
  const handle = openDatabase(database.url, databaseLog ? { log: databaseLog } : {});
  stops.push(() => handle.close());
  const clock = options.clock ?? new TestClock();
  const secretKey = options.secretKey ?? Buffer.alloc(32, 7);
  const config: WebhookConfig = { ...FAST_WEBHOOKS, ...options.webhooks };
  const logs: string[] = [];
  const logger = options.logger === 'capture' ? capturingLogger(logs) : options.logger;
  if (options.logger === 'capture') {
    // TEST_MEDIA_LOGS=1 shows the service's log of each test, for diagnosis.
    stops.push(() => {
      if (process.env.TEST_MEDIA_LOGS === '1') process.stderr.write(`${logs.join('\n')}\n`);
    });
  }

  // With media, stream and playback URLs must name this very server, so its ports are
  // chosen before the services are built; otherwise the OS picks one when it listens.
  const media = options.media;
  const httpPort = media ? await freePort() : 0;
  const rtmpPort = media ? await freePort() : 1935;
  const ingestConfig: IngestConfig = {
    rtmpPort,
    reconnectWindowSeconds: media?.reconnectWindowSeconds ?? 3,
    cleanStopGraceSeconds: media?.cleanStopGraceSeconds ?? 5,
    ffmpegPath: media?.ffmpegPath ?? 'ffmpeg',
    maxConnections: media?.maxRtmpConnections ?? 64,
    ...(media?.rtmpProxyProtocol ? { proxyProtocol: true } : {}),
    bitrateLimitKbps: media?.bitrateLimitKbps ?? 12_000,
    channelKeyWindowHours: media?.channelKeyWindowHours ?? 12,
    ...(media?.transcode ? { transcode: media.transcode } : {}),
  };
  const services = createServices(
    {
      publicUrl: media ? `http://127.0.0.1:${httpPort}` : (options.publicUrl ?? 'http://media.test'),
      dataDir: database.dataDir,
      ingest: ingestConfig,
      webhooks: config,
      signups: options.signups ?? 'open',
      signupsPerHour: options.signupsPerHour ?? 10_000,
      passwordCost: options.passwordCost ?? TEST_PASSWORD_COST,
      ...(options.uploads ? { uploads: options.uploads } : {}),
      // Destinations on loopback (the tests' own receivers) are allowed, as webhooks' are.
      simulcast: { allowPrivateTargets: options.simulcastPrivateTargets ?? true },
      objectStore: options.objectStore,
      mail: { smtpUrl: options.mail?.smtpUrl },
      ...(options.chat ? { chat: options.chat } : {}),
      ...(options.realtime ? { realtime: options.realtime } : {}),
    },
    handle,
    secretKey,
    clock,
  );
  stops.push(() => {
    services.realtime.close();
  });
  // Players are counted in real time, whatever clock the services have: a test that moves
  // the services' clock (the RTMP penalty box) must not make every viewer expire.
  const viewers = options.liveViewers ?? new MemoryLiveViewers(systemClock, media?.viewerWindowMs);
  const presence = viewersPlugin({
    services,
    secretKey,
    live: viewers,
    logger: logger ?? createLogger('silent'),
    ...(options.presencePerMinute === undefined ? {} : { presencePerMinute: options.presencePerMinute }),
  });
  if (logger) services.realtime.useLogger(logger);
  const whip = services.whip;
  const app = await buildApp({
    services,
    rateLimits: options.rateLimits ?? new MemoryRateLimitStore(),
    rateLimitPerKey: options.rateLimitPerKey ?? 1000,
    rateLimitPerIp: options.rateLimitPerIp ?? 60,
    ...(options.http ? { http: options.http } : {}),
    ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
    recordMetrics: options.recordMetrics === true,
    ...(options.chat ? { chat: options.chat } : {}),
    logger,
    plugins: media
      ? [
          mediaPlugin({
            services,
            dataDir: database.dataDir,
            ...(media.mediaCacheBytes === undefined ? {} : { cacheBytes: media.mediaCacheBytes }),
            objectStore: options.objectStore,
          }),
          presence,
        ]
      : [presence],
  });
  stops.push(() => app.close());
  await app.listen({ port: httpPort, host: '127.0.0.1' });
  const address = app.server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  let ingest: IngestHandle | undefined;
  if (media) {
    const started = await startIngest({
      // The RTMP listener binds the HTTP listener's interface (HOST), as under `serve`.
      config: { ingest: ingestConfig, dataDir: database.dataDir, host: '127.0.0.1' },
      services,
      logger: logger ?? createLogger('silent'),
      viewers,
      outputs: publishOutputs(services, ingestConfig.ffmpegPath),
      doorways: [whip],
      ...(media.thumbnailIntervalMs === undefined ? {} : { thumbnailIntervalMs: media.thumbnailIntervalMs }),
      ...(media.publishDeadlineMs === undefined ? {} : { publishDeadlineMs: media.publishDeadlineMs }),
    });
    ingest = started;
    stops.push(() => started.close());
  }
  if (!ingest?.enabled) whip.off(ingest?.enabled === false ? ingest.reason : 'started without media');

  let worker: DeliveryWorker | undefined;
  if (options.worker !== undefined && options.worker !== false) {
    const started = new DeliveryWorker({
      database: handle,
      clock,
      config,
      secrets: services.webhookSecrets,
      logger: logger ?? createLogger('silent'),
      listenUrl: options.dialect === 'postgres' ? database.url : undefined,
      ca: testCa().caPem,
      ...(options.worker === true ? {} : options.worker),
    });
    stops.push(() => started.stop());
    await started.start();
    worker = started;
  }

  let uploadWorker: UploadWorker | undefined;
  if (options.uploadWorker === true) {
    const started = startUploadWorker({
      services,
      dataDir: database.dataDir,
      ffmpegPath: media?.ffmpegPath ?? 'ffmpeg',
      transcode: media?.transcode,
      logger: logger ?? createLogger('silent'),
      pollMs: 200,
      storeRetryDelaysMs: options.storeRetryDelaysMs,
    });
    stops.push(() => started.stop());
    uploadWorker = started;
  }

  let mailWorker: MailWorker | undefined;
  if (options.mail && options.mail.noWorker !== true) {
    const transport =
      options.mail.transport ??
      (options.mail.smtpUrl === undefined
        ? consoleTransport(logger ?? createLogger('silent'), () => undefined)
        : smtpTransport(options.mail.smtpUrl, {
            timeouts: options.mail.timeouts ?? { connectMs: 2000, socketMs: 3000 },
          }));
    const started = new MailWorker({
      db: handle.db,
      clock,
      logger: logger ?? createLogger('silent'),
      outbox: services.mail,
      transport,
      from: 'Tributary <no-reply@tributary.test>',
      retryDelaysMs: [200, 400],
      pollMs: 100,
      ...options.mail.worker,
    });
    started.start();
    stops.push(() => started.stop());
    mailWorker = started;
  }

  return new TestApp({
    mailWorker,
    app,
    services,
    handle,
    database,
    clock,
    origin,
    config,
    secretKey,
    worker,
    ingest,
    uploadWorker,
    rtmpPort,
    logs,
    whip,
  });
}
