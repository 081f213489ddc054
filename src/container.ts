// The composition root's wiring: one instance of each service over one database. The server,
// the worker and the CLI all build their parts here, so they share the same rules.
import { AccountService } from './accounts/account.service.ts';
import { LoginService } from './accounts/login.service.ts';
import { SessionService } from './accounts/session.service.ts';
import type { ScryptCost } from './accounts/password.ts';
import { ChannelKeyService } from './channels/channel-key.service.ts';
import { NextStream } from './channels/next-stream.ts';
import { createChatService } from './chat/chat-realtime.ts';
import type { ChatService } from './chat/chat.service.ts';
import {
  type ChatConfig,
  DEFAULT_WEBHOOK_HISTORY_DAYS,
  loadConfig,
  type Config,
  type IngestConfig,
  type SimulcastConfig,
  type UploadConfig,
  type WebhookConfig,
} from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { CursorCodec } from './http/pagination.ts';
import { IdempotencyService } from './idempotency/idempotency.service.ts';
import { IngestHealthBoard } from './ingest/health/health-board.ts';
import { StreamHealth } from './ingest/health/stream-health.ts';
import { WhipIngest } from './whip/whip-ingest.ts';
import { MediaPaths } from './media/media-paths.ts';
import { MediaRemoval } from './media/media-removal.ts';
import { WatchService } from './media/watch.service.ts';
import { ProfileService } from './profiles/profile.service.ts';
import type { Clock } from './shared/clock.ts';
import { PublicUrls } from './shared/public-urls.ts';
import { deriveKey } from './shared/secret-key.ts';
import { StreamKeyVault } from './streams/stream-key-vault.ts';
import { StreamService } from './streams/stream.service.ts';
import { SubscriptionService } from './subscriptions/subscription.service.ts';
import { VideoService } from './videos/video.service.ts';
import { VideosOfStreams } from './videos/stream-recordings.ts';
import { SecretBox } from './shared/secret-box.ts';
import { WebhookService } from './webhooks/webhook.service.ts';
import { WebhookManagementService } from './webhooks/webhook-management.service.ts';
import { UploadFiles } from './uploads/upload-files.ts';
import { UploadService } from './uploads/upload.service.ts';
import { UploadUrls } from './uploads/upload-url.ts';
import { SimulcastDefaults } from './simulcast/simulcast-defaults.ts';
import { SimulcastKeys } from './simulcast/simulcast-keys.ts';
import { SimulcastService } from './simulcast/simulcast.service.ts';
import { SimulcastOutput } from './simulcast/simulcast.output.ts';
import { RealtimeHub, type RealtimeOptions } from './realtime/realtime-hub.ts';
import { RealtimeOutput } from './realtime/realtime.output.ts';
import type { PublishOutput } from './live/publish-output.ts';
import type { MediaStorage } from './storage/media-storage.ts';
import { MailOutbox } from './mail/mail-outbox.ts';
import { ModerationService } from './moderation/moderation.service.ts';

export interface Services {
  database: DatabaseHandle;
  clock: Clock;
  urls: PublicUrls;
  cursors: CursorCodec;
  accounts: AccountService;
  streams: StreamService;
  /** Creators' channel stream keys. */
  channels: ChannelKeyService;
  /** Which stream a channel-key publish goes to (the dashboard previews it; the ingest makes its own). */
  nextStream: NextStream;
  videos: VideoService;
  /** What a watch page shows (the web app renders it; the media plugin's /watch/{id}/info polls it). */
  watch: WatchService;
  subscriptions: SubscriptionService;
  webhooks: WebhookService;
  webhookManagement: WebhookManagementService;
  /** Opens webhook secrets for the delivery worker. */
  webhookSecrets: SecretBox;
  /** Idempotency-Key claims and stored responses (sealed under their own derived key). */
  idempotency: IdempotencyService;
  /** What this process's ingest measures of each encoder (empty without the ingest). */
  ingestHealth: IngestHealthBoard;
  /** A stream's `ingest.health` from this process's board or, held elsewhere, from its lease. */
  streamHealth: StreamHealth;
  /** Web app sign-up and sign-in (emails, passwords, sign-in links). */
  logins: LoginService;
  /** Web app sessions and their CSRF tokens. */
  sessions: SessionService;
  /** Seals a secret shown once after a form, for the page it redirects to (src/web/session/flash.ts). */
  webFlash: SecretBox;
  /** Uploads: their limits, tus resources and progress (bytes under DATA_DIR/uploads). */
  uploads: UploadService;
  /** Creators' profiles: name, bio, links, avatar and banner (src/profiles/). */
  profiles: ProfileService;
  /** Simulcast destinations (streams' and channel defaults) and their states. */
  simulcast: SimulcastService;
  /** Opens simulcast destinations' sealed stream keys (for SimulcastOutput only). */
  simulcastKeys: SimulcastKeys;
  /** MEDIA_STORAGE=s3: the object store videos' media moves to; undefined with local storage. */
  objectStore: MediaStorage | undefined;
  /** Queues outgoing mail (src/mail/): `mail.enqueue(template, to, data)`. */
  mail: MailOutbox;
  /** Live chat: its rules, and the bus its events reach every API process by (src/chat/). */
  chat: ChatService;
  /** Operators' powers: roles, suspensions, takedowns, reports and the audit log. */
  moderation: ModerationService;
  /** Realtime streams' WebRTC viewers (WHEP) and feeds in this process (src/realtime/). */
  realtime: RealtimeHub;
  /** WHIP publishers (src/whip/): admitted by the ingest once it runs (src/ingest/ingest.ts's doorways). */
  whip: WhipIngest;
}

/** CHANNEL_KEY_WINDOW_HOURS's default, for callers whose ingest configuration gives none. */
const DEFAULT_CHANNEL_KEY_WINDOW_HOURS = loadConfig({}).ingest.channelKeyWindowHours;

/** The upload limits when the configuration gives none (tests, the SDK's type generation). */
export const UPLOAD_DEFAULTS: UploadConfig = loadConfig({}).uploads;

export function createServices(
  // dataDir: deleting a stream or a video removes its media from DATA_DIR/media too.
  config: Pick<Config, 'publicUrl' | 'dataDir'> &
    Partial<Pick<Config, 'signups' | 'signupsPerHour'>> & {
      /** scrypt's cost for new password hashes (src/accounts/password.ts's default unless given). */
      passwordCost?: ScryptCost;
      ingest: Pick<IngestConfig, 'rtmpPort'> &
        Partial<Pick<IngestConfig, 'bitrateLimitKbps' | 'reconnectWindowSeconds' | 'channelKeyWindowHours'>>;
      webhooks?: Pick<WebhookConfig, 'allowPrivateTargets'> & Partial<Pick<WebhookConfig, 'historyDays'>>;
      uploads?: Partial<UploadConfig>;
      simulcast?: SimulcastConfig;
      /**
       * MEDIA_STORAGE=s3: the object store published videos' media moves to (opened by the
       * runtime, src/runtime.ts); absent with local storage, where media stays on disk.
       */
      objectStore?: MediaStorage | undefined;
      /** SMTP_URL is set (mail really leaves): addresses must be verified. Off unless given. */
      mail?: { smtpUrl: string | undefined };
      /** REDIS_URL: chat events and flood limits are shared through it (src/chat/). */
      redisUrl?: string | undefined;
      chat?: Partial<ChatConfig>;
      /** REALTIME_MAX_VIEWERS and the WebRTC network settings (src/realtime/). */
      realtime?: RealtimeOptions;
    },
  database: DatabaseHandle,
  secretKey: Buffer,
  clock: Clock,
): Services {
  const { db } = database;
  const urls = new PublicUrls(config.publicUrl, config.ingest.rtmpPort);
  const webhookSecrets = new SecretBox(deriveKey(secretKey, 'webhook-secrets'));
  const streamKeys = new StreamKeyVault(secretKey);
  const uploadLimits = { ...UPLOAD_DEFAULTS, ...config.uploads };
  const mediaPaths = new MediaPaths(config.dataDir);
  const media = new MediaRemoval(mediaPaths, config.objectStore);
  const simulcastKeys = new SimulcastKeys(secretKey);
  const streams = new StreamService(
    db,
    clock,
    urls,
    streamKeys,
    media,
    new VideosOfStreams(urls),
    new SimulcastDefaults(simulcastKeys),
  );
  const mail = new MailOutbox(db, clock, urls, deriveKey(secretKey, 'mail-unsubscribe'), {
    verificationRequired: config.mail?.smtpUrl !== undefined,
  });
  const logins = new LoginService(db, clock, {
    signups: config.signups ?? 'open',
    passwordCost: config.passwordCost,
    verificationRequired: config.mail?.smtpUrl !== undefined,
    signupsPerHour: config.signupsPerHour,
  });
  const ingestHealth = new IngestHealthBoard({
    clock,
    ...(config.ingest.bitrateLimitKbps === undefined
      ? {}
      : { bitrateLimitKbps: config.ingest.bitrateLimitKbps }),
    ...(config.ingest.reconnectWindowSeconds === undefined
      ? {}
      : { reconnectWindowSeconds: config.ingest.reconnectWindowSeconds }),
  });
  return {
    database,
    clock,
    urls,
    cursors: new CursorCodec(deriveKey(secretKey, 'cursors')),
    accounts: new AccountService(db, clock),
    streams,
    channels: new ChannelKeyService(db, clock, streamKeys),
    nextStream: new NextStream({
      db,
      streams,
      clock,
      windowMs: (config.ingest.channelKeyWindowHours ?? DEFAULT_CHANNEL_KEY_WINDOW_HOURS) * 3_600_000,
    }),
    videos: new VideoService(db, clock, urls, media, {
      storeInObjectStore: config.objectStore !== undefined,
    }),
    watch: new WatchService(db, urls, mediaPaths),
    subscriptions: new SubscriptionService(db, clock),
    webhooks: new WebhookService(db, clock, webhookSecrets, {
      allowPrivateTargets: config.webhooks?.allowPrivateTargets ?? false,
    }),
    webhookManagement: new WebhookManagementService(db, clock, {
      allowPrivateTargets: config.webhooks?.allowPrivateTargets ?? false,
      historyDays: config.webhooks?.historyDays ?? DEFAULT_WEBHOOK_HISTORY_DAYS,
    }),
    webhookSecrets,
    idempotency: new IdempotencyService(
      db,
      clock,
      new SecretBox(deriveKey(secretKey, 'idempotency-responses')),
    ),
    ingestHealth,
    streamHealth: new StreamHealth(ingestHealth, db, clock),
    logins,
    sessions: new SessionService(db, clock, deriveKey(secretKey, 'web-csrf')),
    webFlash: new SecretBox(deriveKey(secretKey, 'web-flash')),
    profiles: new ProfileService(db, clock, urls, config.dataDir),
    uploads: new UploadService(
      db,
      clock,
      new UploadFiles(config.dataDir, uploadLimits.expiryMs),
      new UploadUrls(deriveKey(secretKey, 'upload-urls'), config.publicUrl),
      uploadLimits,
      (userId) => logins.requireVerified(userId),
    ),
    simulcast: new SimulcastService(db, clock, simulcastKeys, {
      allowPrivateTargets: config.simulcast?.allowPrivateTargets ?? false,
    }),
    simulcastKeys,
    objectStore: config.objectStore,

    chat: createChatService(db, clock, {
      redisUrl: config.redisUrl,
      chat: config.chat,
      logger: stderrLogger,
    }),
    mail,
    moderation: new ModerationService(db, clock, streams, { mail }),
    realtime: new RealtimeHub(config.realtime),
    whip: new WhipIngest({ clock }),
  };
}

/**
 * Every output a live publish is also sent to, besides the stream's own HLS
 * (src/live/publish-output.ts). This is the one place outputs are registered: adding one is
 * its file and a line here.
 */
export function publishOutputs(services: Services, ffmpegPath: string): PublishOutput[] {
  return [
    new SimulcastOutput({ simulcast: services.simulcast, keys: services.simulcastKeys, ffmpegPath }),
    new RealtimeOutput({ hub: services.realtime, health: services.ingestHealth, ffmpegPath }),
  ];
}

// The services have no logger of their own; what the chat's Redis connections warn about goes
// to standard error as one JSON line (the server's log lines are on standard output).
const stderrLogger = {
  warn: (fields: object, message?: string) => {
    process.stderr.write(`${JSON.stringify({ level: 'warn', msg: message, ...fields })}\n`);
  },
  info: () => undefined,
  error: (fields: object, message?: string) => {
    process.stderr.write(`${JSON.stringify({ level: 'error', msg: message, ...fields })}\n`);
  },
};
