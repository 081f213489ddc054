// Configuration is read from the environment once, at start, and validated as a whole:
// every bad variable is reported in one message, and nothing else in the program reads
// process.env.
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_LADDER, parseLadder, X264_PRESETS, type TranscodeConfig } from './transcode/ladder.ts';
import { isPostgresUrl } from './db/database.ts';
import { DEFAULT_MAX_VIEWERS, type RealtimeOptions } from './realtime/realtime-hub.ts';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** Connections per process in the PostgreSQL pool. */
  databasePoolSize: number;
  /** SQLite: checkpoint the write-ahead log from a thread (SQLITE_CHECKPOINT_THREAD). */
  sqliteCheckpointThread: boolean;
  /** Directory for files the service owns (the generated secret key, media). */
  dataDir: string;
  /** Base URL of public pages and media, without a trailing slash. */
  publicUrl: string;
  logLevel: LogLevel;
  rateLimitPerKey: number;
  rateLimitPerIp: number;
  /** 32-byte master secret from SECRET_KEY; when absent it is generated into dataDir. */
  secretKey: Buffer | undefined;
  /** Shared rate-limit store for several processes; in-process counters when absent. */
  redisUrl: string | undefined;
  /**
   * Which proxies may set X-Forwarded-For (the client IP counts for per-IP limits): false,
   * true (any), or a comma-separated list of addresses or CIDR ranges.
   */
  trustProxy: boolean | string;
  http: HttpLimitsConfig;
  webhooks: WebhookConfig;
  ingest: IngestConfig;
  media: MediaConfig;
  /** MEDIA_STORAGE and the S3_ variables: where media objects are kept (src/storage/). */
  storage: StorageConfig;
  uploads: UploadConfig;
  simulcast: SimulcastConfig;
  /** SIGNUPS: whether anyone may create an account on the sign-up page (else only the CLI). */
  signups: 'open' | 'closed';
  /** SIGNUPS_PER_ADDRESS_PER_HOUR: accounts one client address (an IPv6 /64) may create in an hour. */
  signupsPerHour: number;
  /** SMTP_URL and MAIL_FROM: outgoing mail (src/mail/). */
  mail: MailConfig;
  /** The Prometheus endpoint (src/observability/); undefined when METRICS_PORT is unset. */
  metrics: MetricsConfig | undefined;
  chat: ChatConfig;
  /** REALTIME_MAX_VIEWERS and REALTIME_UDP_PORTS: WebRTC playback of realtime streams (src/realtime/). */
  realtime: RealtimeOptions;
}

export interface MetricsConfig {
  /** METRICS_PORT: its own listener, never the public port (0 picks a free one). */
  port: number;
  /** METRICS_HOST: loopback unless set; any other address needs METRICS_TOKEN. */
  host: string;
  /** METRICS_TOKEN: when set, scrapes must send `Authorization: Bearer <token>`. */
  token: string | undefined;
}

export interface ChatConfig {
  /** CHAT_PLATFORM_FILTER: refuse messages with slurs (the `obscenity` English list); on unless off. */
  platformFilter: boolean;
  /** CHAT_CONNECTIONS_PER_ADDRESS: chat sockets one client address may hold open per process. */
  connectionsPerAddress: number;
  /** CHAT_MUTE_SECONDS: how long a user or address that floods the chat is muted. */
  muteSeconds: number;
}

export interface MailConfig {
  /**
   * SMTP_URL (`smtp://user:pass@host:587`, `smtps://host:465`): where mail is sent. Unset, each
   * mail is printed to the terminal and the log instead, and email verification is off.
   */
  smtpUrl: string | undefined;
  /** MAIL_FROM: the sender, `Name <address>` or an address. */
  from: string;
}

export const DEFAULT_MAIL_FROM = 'Tributary <no-reply@localhost>';
const MAIL_FROM_PATTERN = /^(?:[^<>\r\n]{0,100}<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/;

export interface MediaConfig {
  /** MEDIA_CACHE_MB: media files kept in memory, in bytes (src/media/media-cache.ts). */
  cacheBytes: number;
  /** PLAYLIST_FETCHES_PER_MINUTE: per client address and stream (src/media/playlist-limiter.ts). */
  playlistFetchesPerMinute: number;
  /** VIEWERS_PER_ADDRESS: live viewers one client address adds to a stream (src/viewers/). */
  viewersPerAddress: number;
}

/** MEDIA_STORAGE=local (the default): files under DATA_DIR/media. */
export interface LocalStorageConfig {
  kind: 'local';
}

/** MEDIA_STORAGE=s3: a bucket of an S3-compatible object store. */
export interface S3StorageConfig {
  kind: 's3';
  /** S3_ENDPOINT: the store's base URL; AWS S3 for the region when unset. */
  endpoint: string | undefined;
  /** S3_REGION: `us-east-1` unless set (what most S3-compatible stores accept). */
  region: string;
  /** S3_BUCKET: the bucket, which must exist. */
  bucket: string;
  /** S3_PREFIX: put before every key; empty, or segments ending in `/`. */
  prefix: string;
  /** S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY. */
  accessKeyId: string;
  secretAccessKey: string;
  /** S3_FORCE_PATH_STYLE: true by default with S3_ENDPOINT (MinIO, Ceph, Garage), else false. */
  forcePathStyle: boolean;
  /** S3_PUBLIC_URL: base URL serving the bucket's root (a CDN), without a trailing slash. */
  publicUrl: string | undefined;
}

export type StorageConfig = LocalStorageConfig | S3StorageConfig;

export interface UploadConfig {
  /** UPLOAD_MAX_BYTES: the largest file one upload may declare. */
  maxBytes: number;
  /** UPLOAD_QUOTA_BYTES: what one account's uploads may hold, unless the operator set its own. */
  quotaBytes: number;
  /** UPLOADS_IN_FLIGHT: uploads one account may have waiting for or receiving bytes at once. */
  maxInFlight: number;
  /** UPLOAD_EXPIRY_HOURS: how long an upload URL accepts bytes; unfinished bytes are then removed. */
  expiryMs: number;
  /** MEDIA_JOB_LEASE_SECONDS: how long a media job's claim holds without renewal. */
  jobLeaseMs: number;
  /** MEDIA_JOB_ATTEMPTS: tries at processing one upload before it is errored. */
  jobAttempts: number;
}

/** What one HTTP client may make the server hold (slow clients, connection floods). */
export interface HttpLimitsConfig {
  /** The whole request, headers and body, must arrive within this time. */
  requestTimeoutMs: number;
  /** A connection with no bytes moving either way is closed after this time. */
  idleTimeoutMs: number;
  /** How long a kept-alive connection waits for its next request. */
  keepAliveTimeoutMs: number;
  /** Open connections at once; more are refused at accept. */
  maxConnections: number;
}

/** The HTTP limits when no variable sets them (also what buildApp uses for any not given). */
export const HTTP_LIMIT_DEFAULTS: HttpLimitsConfig = {
  requestTimeoutMs: 30_000,
  idleTimeoutMs: 60_000,
  keepAliveTimeoutMs: 72_000,
  maxConnections: 10_000,
};

export interface WebhookConfig {
  /** Delays before attempts 2..n, in milliseconds; attempts = delays + 1. */
  retryDelaysMs: number[];
  timeoutMs: number;
  disableAfterFailedEvents: number;
  allowPrivateTargets: boolean;
  /** Days of delivery history kept (and the furthest back a recovery may reach). */
  historyDays: number;
}

export const DEFAULT_WEBHOOK_HISTORY_DAYS = 30;

export interface SimulcastConfig {
  /** Lets simulcast destinations name loopback and private addresses (development and tests). */
  allowPrivateTargets: boolean;
}

export interface IngestConfig {
  rtmpPort: number;
  /** After a dropped publisher, how long its stream waits for it before ending. */
  reconnectWindowSeconds: number;
  /**
   * After a clean stop (the encoder unpublished: Stop Streaming), how long its stream waits
   * before ending; at most the reconnect window is used.
   */
  cleanStopGraceSeconds: number;
  ffmpegPath: string;
  /** RTMP connections open at once (publishers and would-be publishers); more are refused. */
  maxConnections: number;
  /**
   * Every RTMP connection begins with a PROXY protocol header (RTMP_PROXY_PROTOCOL): behind a
   * TCP balancer that sends one, so the penalty box and the logs see the encoder's address.
   */
  proxyProtocol?: boolean;
  /** The bitrate creators are told to stay under (kb/s); far above it is a health warning. */
  bitrateLimitKbps: number;
  /** A channel-key publish picks a scheduled stream whose scheduled_at is at most this far from now. */
  channelKeyWindowHours: number;
  /** The adaptive-bitrate ladder (src/transcode/); copy-only packaging when absent. */
  transcode?: TranscodeConfig;
  /**
   * Many ingest processes (issue 25): this process's id in the stream leases (INGEST_ID; kept
   * in DATA_DIR's `ingest-id` when unset), how long a lease lasts unrenewed (a dead holder's
   * streams move after it), and the URL the origin reaches this process's media at.
   */
  id?: string | undefined;
  leaseSeconds?: number | undefined;
  originUrl?: string | undefined;
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Env = Record<string, string | undefined>;

/** Reads variables one by one, collecting problems instead of stopping at the first. */
export class EnvReader {
  readonly problems: string[] = [];
  private readonly env: Env;
  constructor(env: Env) {
    this.env = env;
  }

  string(name: string, fallback: string): string {
    const raw = this.env[name];
    if (raw === undefined || raw.trim() === '') return fallback;
    return raw.trim();
  }

  optional(name: string): string | undefined {
    const raw = this.env[name];
    return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      this.problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return Number(raw);
  }

  boolean(name: string, fallback: boolean): boolean {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    this.problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  }

  httpUrl(name: string, fallback: string): string {
    const raw = this.string(name, fallback);
    try {
      const url = new URL(raw);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
      return raw.replace(/\/+$/, '');
    } catch {
      this.problems.push(`${name} must be an absolute http:// or https:// URL (got "${raw}")`);
      return fallback;
    }
  }

  /** A comma-separated list of durations such as `1m,15m,2h,22h` (units ms, s, m, h). */
  durations(name: string, fallback: string): number[] {
    const raw = this.string(name, fallback);
    const parsed = raw.split(',').map((part) => parseDuration(part.trim()));
    if (parsed.some((ms) => ms === undefined)) {
      this.problems.push(`${name} must be comma-separated durations like 1m,15m,2h,22h (got "${raw}")`);
      return fallback.split(',').map((part) => parseDuration(part) ?? 0);
    }
    return parsed as number[];
  }

  fail(problem: string): void {
    this.problems.push(problem);
  }
}

const GIB = 1024 * 1024 * 1024;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseDuration(text: string): number | undefined {
  const match = /^(\d+)(ms|s|m|h)$/.exec(text);
  if (!match) return undefined;
  const [, amount, unit] = match;
  return Number(amount) * (UNIT_MS[unit ?? ''] ?? 0);
}

function readTranscode(read: EnvReader): TranscodeConfig {
  const rawLadder = read.string('TRANSCODE_LADDER', DEFAULT_LADDER);
  const rungs = parseLadder(rawLadder);
  if (!rungs) {
    read.fail(
      `TRANSCODE_LADDER must be comma-separated height:kbps rungs with even heights from 90 to 4320, such as ${DEFAULT_LADDER} (got "${rawLadder}")`,
    );
  }
  const rawCores = read.optional('TRANSCODE_CPU_CORES');
  let cpuCores = os.availableParallelism();
  if (rawCores !== undefined) {
    if (/^\d+(\.\d+)?$/.test(rawCores) && Number(rawCores) > 0 && Number(rawCores) <= 4096)
      cpuCores = Number(rawCores);
    else
      read.fail(
        `TRANSCODE_CPU_CORES must be a number of cores above 0, such as 2 or 0.5 (got "${rawCores}")`,
      );
  }
  return {
    mode: read.oneOf('TRANSCODE', ['auto', 'off'] as const, 'auto'),
    rungs: rungs ?? parseLadder(DEFAULT_LADDER) ?? [],
    preset: read.oneOf('TRANSCODE_PRESET', X264_PRESETS, 'veryfast'),
    cpuCores,
    headroomPercent: read.integer('TRANSCODE_HEADROOM_PERCENT', 25, 0, 90),
  };
}

/** S3's bucket naming rules: 3 to 63 of a-z, 0-9, `.` and `-`, a letter or digit at each end. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** S3_PREFIX: segments of letters, digits, `.`, `_`, `-` (none starting with a dot) and `/`. */
const KEY_PREFIX = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}\/)*$/;
const S3_VARIABLES = [
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_BUCKET',
  'S3_PREFIX',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
  'S3_PUBLIC_URL',
] as const;

function readStorage(read: EnvReader): StorageConfig {
  const kind = read.oneOf('MEDIA_STORAGE', ['local', 's3'] as const, 'local');
  if (kind === 'local') {
    // An S3 setting without MEDIA_STORAGE=s3 would silently keep media on this disk.
    const set = S3_VARIABLES.filter((name) => read.optional(name) !== undefined);
    if (set.length > 0) {
      read.fail(
        `${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} set but MEDIA_STORAGE is not s3: set MEDIA_STORAGE=s3 to keep media in the bucket, or unset ${set.length === 1 ? 'it' : 'them'}`,
      );
    }
    return { kind };
  }
  const required = (name: string, what: string): string => {
    const value = read.optional(name);
    if (value === undefined) read.fail(`${name} is required with MEDIA_STORAGE=s3 (${what})`);
    return value ?? '';
  };
  const rawEndpoint = read.optional('S3_ENDPOINT');
  const endpoint = rawEndpoint === undefined ? undefined : read.httpUrl('S3_ENDPOINT', rawEndpoint);
  const region = read.string('S3_REGION', 'us-east-1');
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(region)) {
    read.fail(`S3_REGION must be a region name such as us-east-1 or auto (got "${region}")`);
  }
  const bucket = required('S3_BUCKET', 'the bucket media is kept in');
  if (bucket !== '' && (!BUCKET_NAME.test(bucket) || bucket.includes('..'))) {
    read.fail(
      `S3_BUCKET must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit (got "${bucket}")`,
    );
  }
  let prefix = read.string('S3_PREFIX', '');
  if (prefix !== '' && !prefix.endsWith('/')) prefix += '/';
  if (!KEY_PREFIX.test(prefix) || prefix.length > 256) {
    read.fail(
      `S3_PREFIX must be empty or path segments of letters, digits, ".", "_" and "-" separated by "/", such as tributary/ (got "${prefix}")`,
    );
  }
  const accessKeyId = required('S3_ACCESS_KEY_ID', "the access key's id");
  const secretAccessKey = required('S3_SECRET_ACCESS_KEY', "the access key's secret");
  const forcePathStyle = read.boolean('S3_FORCE_PATH_STYLE', endpoint !== undefined);
  const rawPublic = read.optional('S3_PUBLIC_URL');
  const publicUrl = rawPublic === undefined ? undefined : read.httpUrl('S3_PUBLIC_URL', rawPublic);
  return {
    kind,
    endpoint,
    region,
    bucket,
    prefix,
    accessKeyId,
    secretAccessKey,
    forcePathStyle,
    publicUrl,
  };
}

export function loadConfig(env: Env = process.env): Config {
  const read = new EnvReader(env);
  const port = read.integer('PORT', 8080, 0, 65535);
  const host = read.string('HOST', '0.0.0.0');
  const databaseUrl = read.string('DATABASE_URL', './data/tributary.db');
  if (databaseUrl.includes('://') && !isPostgresUrl(databaseUrl)) {
    read.fail(
      `DATABASE_URL must be a SQLite file path, :memory:, or a postgres:// URL (got "${databaseUrl}")`,
    );
  }
  const databasePoolSize = read.integer('DATABASE_POOL_SIZE', 10, 1, 1000);
  const sqliteCheckpointThread = read.boolean('SQLITE_CHECKPOINT_THREAD', false);
  const defaultDataDir =
    isPostgresUrl(databaseUrl) || databaseUrl === ':memory:' ? './data' : path.dirname(databaseUrl);
  const dataDir = path.resolve(read.string('DATA_DIR', defaultDataDir));
  const publicUrl = read.httpUrl('PUBLIC_URL', `http://localhost:${port}`);
  const logLevel = read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info');
  const rateLimitPerKey = read.integer('RATE_LIMIT_PER_KEY', 1000, 1, 10_000_000);
  const rateLimitPerIp = read.integer('RATE_LIMIT_PER_IP', 60, 1, 10_000_000);

  let secretKey: Buffer | undefined;
  const rawSecret = read.optional('SECRET_KEY');
  if (rawSecret !== undefined) {
    secretKey = /^[0-9a-fA-F]{64}$/.test(rawSecret) ? Buffer.from(rawSecret, 'hex') : undefined;
    if (!secretKey) read.fail('SECRET_KEY must be 64 hexadecimal characters (32 bytes)');
  }

  const redisUrl = read.optional('REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    read.fail(`REDIS_URL must be a redis:// or rediss:// URL (got "${redisUrl}")`);
  }
  const rawTrustProxy = read.string('TRUST_PROXY', 'false');
  const trustProxy = rawTrustProxy === 'true' ? true : rawTrustProxy === 'false' ? false : rawTrustProxy;
  const webhooks: WebhookConfig = {
    retryDelaysMs: read.durations('WEBHOOK_RETRY_DELAYS', '1m,15m,2h,22h'),
    timeoutMs: read.integer('WEBHOOK_TIMEOUT_MS', 5000, 100, 60_000),
    disableAfterFailedEvents: read.integer('WEBHOOK_DISABLE_AFTER_FAILED_EVENTS', 3, 1, 1000),
    allowPrivateTargets: read.boolean('WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
    historyDays: read.integer('WEBHOOK_HISTORY_DAYS', DEFAULT_WEBHOOK_HISTORY_DAYS, 1, 3650),
  };
  const http: HttpLimitsConfig = {
    requestTimeoutMs: read.integer(
      'HTTP_REQUEST_TIMEOUT_MS',
      HTTP_LIMIT_DEFAULTS.requestTimeoutMs,
      100,
      3_600_000,
    ),
    idleTimeoutMs: read.integer('HTTP_IDLE_TIMEOUT_MS', HTTP_LIMIT_DEFAULTS.idleTimeoutMs, 100, 3_600_000),
    keepAliveTimeoutMs: read.integer(
      'HTTP_KEEP_ALIVE_TIMEOUT_MS',
      HTTP_LIMIT_DEFAULTS.keepAliveTimeoutMs,
      100,
      3_600_000,
    ),
    maxConnections: read.integer('HTTP_MAX_CONNECTIONS', HTTP_LIMIT_DEFAULTS.maxConnections, 1, 1_000_000),
  };
  const ingest: IngestConfig = {
    rtmpPort: read.integer('RTMP_PORT', 1935, 0, 65535),
    reconnectWindowSeconds: read.integer('RECONNECT_WINDOW_SECONDS', 60, 1, 3600),
    // Short: a creator who pressed Stop Streaming meant it, but may press Start again at once
    // (a changed setting, a wrong scene) and should continue the same stream.
    cleanStopGraceSeconds: read.integer('CLEAN_STOP_GRACE_SECONDS', 5, 0, 3600),
    ffmpegPath: read.string('FFMPEG_PATH', 'ffmpeg'),
    maxConnections: read.integer('RTMP_MAX_CONNECTIONS', 64, 1, 100_000),
    proxyProtocol: read.boolean('RTMP_PROXY_PROTOCOL', false),
    bitrateLimitKbps: read.integer('INGEST_BITRATE_LIMIT_KBPS', 12_000, 100, 1_000_000),
    channelKeyWindowHours: read.integer('CHANNEL_KEY_WINDOW_HOURS', 12, 0, 720),
    transcode: readTranscode(read),
    id: read.optional('INGEST_ID'),
    leaseSeconds: read.integer('INGEST_LEASE_SECONDS', 10, 2, 600),
    originUrl: read.optional('INGEST_ORIGIN_URL'),
  };
  if (ingest.id !== undefined && !/^[A-Za-z0-9_.-]{1,64}$/.test(ingest.id)) {
    read.problems.push(`INGEST_ID must be 1 to 64 letters, digits, '.', '_' or '-' (got "${ingest.id}")`);
  }
  if (ingest.originUrl !== undefined && !/^https?:\/\/[^/\s]+\/?$/.test(ingest.originUrl)) {
    read.problems.push(
      `INGEST_ORIGIN_URL must be an http(s) URL with no path, e.g. http://10.0.0.5:3000 (got "${ingest.originUrl}")`,
    );
  }

  const media: MediaConfig = {
    cacheBytes: read.integer('MEDIA_CACHE_MB', 64, 0, 65_536) * 1024 * 1024,
    playlistFetchesPerMinute: read.integer('PLAYLIST_FETCHES_PER_MINUTE', 120, 1, 10_000_000),
    viewersPerAddress: read.integer('VIEWERS_PER_ADDRESS', 3, 1, 1_000_000),
  };

  const storage = readStorage(read);

  const uploads: UploadConfig = {
    maxBytes: read.integer('UPLOAD_MAX_BYTES', 10 * GIB, 1, 1024 * GIB),
    quotaBytes: read.integer('UPLOAD_QUOTA_BYTES', 100 * GIB, 1, 1_048_576 * GIB),
    maxInFlight: read.integer('UPLOADS_IN_FLIGHT', 10, 1, 10_000),
    expiryMs: read.integer('UPLOAD_EXPIRY_HOURS', 24, 1, 24 * 30) * 3_600_000,
    jobLeaseMs: read.integer('MEDIA_JOB_LEASE_SECONDS', 60, 1, 3600) * 1000,
    jobAttempts: read.integer('MEDIA_JOB_ATTEMPTS', 3, 1, 100),
  };

  const simulcast: SimulcastConfig = {
    allowPrivateTargets: read.boolean('SIMULCAST_ALLOW_PRIVATE_TARGETS', false),
  };

  const signups = read.oneOf('SIGNUPS', ['open', 'closed'] as const, 'open');

  const signupsPerHour = read.integer('SIGNUPS_PER_ADDRESS_PER_HOUR', 5, 1, 1_000_000);
  const smtpUrl = read.optional('SMTP_URL');
  if (smtpUrl !== undefined) {
    let ok = false;
    try {
      const url = new URL(smtpUrl);
      ok = (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
    } catch {
      // reported below
    }
    if (!ok)
      read.fail(
        'SMTP_URL must be an smtp:// or smtps:// URL such as smtp://user:password@mail.example.com:587',
      );
  }
  const mailFrom = read.optional('MAIL_FROM');
  if (smtpUrl !== undefined && mailFrom === undefined)
    read.fail('MAIL_FROM must be set with SMTP_URL: the sender, such as "Tributary <no-reply@example.com>"');
  if (mailFrom !== undefined && !MAIL_FROM_PATTERN.test(mailFrom))
    read.fail(`MAIL_FROM must be an address or "Name <address>" (got "${mailFrom}")`);
  const mail: MailConfig = { smtpUrl, from: mailFrom ?? DEFAULT_MAIL_FROM };
  let metrics: MetricsConfig | undefined;
  if (read.optional('METRICS_PORT') !== undefined) {
    metrics = {
      port: read.integer('METRICS_PORT', 9464, 0, 65535),
      host: read.string('METRICS_HOST', '127.0.0.1'),
      token: read.optional('METRICS_TOKEN'),
    };
    if (metrics.port === port && port !== 0) read.problems.push('METRICS_PORT must differ from PORT');
    if (metrics.token !== undefined && metrics.token.length < 16)
      read.problems.push('METRICS_TOKEN must be at least 16 characters');
    if (!isLoopback(metrics.host) && metrics.token === undefined)
      read.problems.push(`METRICS_HOST ${metrics.host} is not loopback: set METRICS_TOKEN too`);
  }
  const chat: ChatConfig = {
    platformFilter: read.boolean('CHAT_PLATFORM_FILTER', true),
    connectionsPerAddress: read.integer('CHAT_CONNECTIONS_PER_ADDRESS', 20, 1, 1_000_000),
    muteSeconds: read.integer('CHAT_MUTE_SECONDS', 10, 1, 3600),
  };

  const realtime: RealtimeOptions = {
    maxViewers: read.integer('REALTIME_MAX_VIEWERS', DEFAULT_MAX_VIEWERS, 0, 100_000),
    network: {},
  };
  const udpPorts = read.optional('REALTIME_UDP_PORTS');
  if (udpPorts !== undefined) {
    const range = /^(\d{1,5})-(\d{1,5})$/.exec(udpPorts);
    const begin = Number(range?.[1]);
    const end = Number(range?.[2]);
    if (!range || begin < 1024 || end > 65535 || begin > end)
      read.fail(
        `REALTIME_UDP_PORTS must be a range such as 40000-40999 within 1024-65535 (got "${udpPorts}")`,
      );
    else realtime.network = { portRangeBegin: begin, portRangeEnd: end };
  }

  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return {
    port,
    host,
    databaseUrl,
    databasePoolSize,
    sqliteCheckpointThread,
    dataDir,
    publicUrl,
    logLevel,
    rateLimitPerKey,
    rateLimitPerIp,
    secretKey,
    redisUrl,
    trustProxy,
    http,
    webhooks,
    ingest,
    media,
    storage,
    uploads,
    simulcast,
    signups,
    signupsPerHour,
    mail,
    metrics,
    chat,
    realtime,
  };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
