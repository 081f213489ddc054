// `tributary serve` (and `npm start`): the API over HTTP, plus the delivery worker unless
// told otherwise. Owns the logger, the listening socket and graceful shutdown.
import { flushCompileCache } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { createLogger } from './shared/logger.ts';
import { dialectOf } from './db/dialect.ts';
import { createRateLimitStore } from './http/rate-limit-factory.ts';
import { publishOutputs } from './container.ts';
import { startIngest, type IngestHandle } from './ingest/ingest.ts';
import { mediaPlugin } from './media/media.plugin.ts';
import { openRuntime, type Runtime } from './runtime.ts';
import { createLiveViewers } from './viewers/live-viewers-factory.ts';
import { viewersPlugin } from './viewers/viewers.plugin.ts';
import type { DeliveryWorker } from './webhooks/delivery/worker.ts';
import { startDeliveryWorker } from './webhooks/delivery/worker-runner.ts';
import { detectFfmpeg } from './ffmpeg/ffmpeg.ts';
import { startUploadWorker, type UploadWorker } from './uploads/upload-worker.ts';
import { checkStorageAtStart } from './storage/open-storage.ts';
import { MailWorker } from './mail/mail-worker.ts';
import { consoleTransport, smtpTransport } from './mail/mail-transport.ts';
import { startSearchIndexUpkeep } from './search/search-index-upkeep.ts';
import { startAccountUpkeep } from './accounts/account-upkeep.ts';
import { startMetricsServer, type MetricsServer } from './observability/metrics-server.ts';

/** --ingest-only's SIGTERM: how long it waits for its streams to move (under the 20 s exit). */
const INGEST_DRAIN_MS = 12_000;

export interface ServeOptions {
  worker: boolean;
  ingest: boolean;
  /** Runs media jobs (uploads becoming videos); needs ffmpeg. */
  mediaJobs?: boolean;
  /**
   * One of many ingest machines (issue 25): no demo account, ingest must start (it is this
   * process's only job), and SIGTERM drains its publishers to the other ingest processes.
   */
  ingestOnly?: boolean;
}

export async function serve(config: Config, options: ServeOptions): Promise<void> {
  const logger = createLogger(config.logLevel);
  // MEDIA_STORAGE=s3: a real write, read back and delete in the bucket before anything starts.
  if (config.storage.kind === 's3') await checkStorageAtStart(config, logger);
  const runtime = await openRuntime(config, undefined, { longRunning: true });
  // Creator notices of operator actions are log lines until the mail outbox takes them.
  const moderationLog = logger.child({ component: 'moderation' });
  runtime.services.moderation.useLog((fields, message) => {
    moderationLog.info(fields, message);
  });
  const demo = options.ingestOnly === true ? undefined : await createDemoAccountIfEmpty(runtime);
  const rateLimits = createRateLimitStore(config, runtime.services.database.db, logger);
  // Players' presence, counted by the viewers plugin, written to the streams by the ingest.
  const viewers = createLiveViewers(config, runtime.services.clock, logger);
  // The HTTP listener opens first (the RTMP ingest and the worker start after it): until every
  // part runs, /readyz says so, and whoever waits for it can push to the RTMP port at once.
  let started = false;
  // WebRTC playback refusals (capacity, bad offers) are logged with the server's own lines.
  runtime.services.realtime.useLogger(logger.child({ component: 'realtime' }));
  const app = await buildApp({
    services: runtime.services,
    rateLimits: rateLimits.store,
    readinessChecks: {
      ...rateLimits.readinessChecks,
      startup: () => (started ? Promise.resolve() : Promise.reject(new Error('still starting'))),
    },
    rateLimitPerKey: config.rateLimitPerKey,
    rateLimitPerIp: config.rateLimitPerIp,
    trustProxy: config.trustProxy,
    recordMetrics: config.metrics !== undefined,
    http: config.http,
    chat: config.chat,
    logger,
    plugins: [
      mediaPlugin({
        services: runtime.services,
        dataDir: config.dataDir,
        cacheBytes: config.media.cacheBytes,
        playlistFetchesPerMinute: config.media.playlistFetchesPerMinute,
        objectStore: runtime.services.objectStore,
        // An origin (no ingest here) or one of many ingest machines: live streams held by another
        // machine are streamed through from it. One process (`npm start`) never looks.
        liveOrigin:
          !options.ingest || options.ingestOnly === true ? { selfUrl: config.ingest.originUrl } : undefined,
      }),
      viewersPlugin({
        services: runtime.services,
        secretKey: runtime.secretKey,
        live: viewers,
        logger,
        presencePerMinute: config.media.playlistFetchesPerMinute,
      }),
    ],
  });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const baseUrl = `http://localhost:${port}/v1`;
  let ingest: IngestHandle;
  let worker: DeliveryWorker | undefined;
  let mediaJobs: UploadWorker | undefined;
  let mediaJobsOff: string | undefined = 'started with --no-media-jobs';
  let mail: MailWorker | undefined;
  const upkeep = startAccountUpkeep(runtime.services.logins, logger);
  const searchUpkeep = startSearchIndexUpkeep(runtime.services.database.db, logger);
  try {
    ingest = options.ingest
      ? await startIngest({
          config,
          services: runtime.services,
          logger,
          viewers,
          outputs: publishOutputs(runtime.services, config.ingest.ffmpegPath),
          drainMs: options.ingestOnly === true ? INGEST_DRAIN_MS : undefined,
          mirror: options.ingestOnly === true,
          doorways: [runtime.services.whip],
        })
      : { enabled: false, reason: 'started with --no-ingest', close: async () => undefined };
    if (!ingest.enabled) runtime.services.whip.off(ingest.reason);
    if (options.ingestOnly === true && !ingest.enabled) throw new Error(`--ingest-only: ${ingest.reason}`);
    worker = options.worker ? await startDeliveryWorker(runtime, logger) : undefined;
    if (options.worker) {
      mail = new MailWorker({
        db: runtime.services.database.db,
        clock: runtime.services.clock,
        logger,
        outbox: runtime.services.mail,
        transport:
          config.mail.smtpUrl === undefined
            ? consoleTransport(logger, tellOperator)
            : smtpTransport(config.mail.smtpUrl),
        from: config.mail.from,
      });
      mail.start();
    }
    if (options.mediaJobs !== false) {
      const ffmpeg = await detectFfmpeg(config.ingest.ffmpegPath);
      mediaJobsOff = ffmpeg.available ? undefined : ffmpeg.reason;
      if (ffmpeg.available) {
        mediaJobs = startUploadWorker({
          services: runtime.services,
          dataDir: config.dataDir,
          ffmpegPath: config.ingest.ffmpegPath,
          transcode: config.ingest.transcode,
          logger,
          leaseMs: config.uploads.jobLeaseMs,
        });
      }
    }
  } catch (error) {
    // Nothing half-started is left listening: the process ends with the error.
    await app.close();
    await Promise.all([runtime.close(), rateLimits.store.close(), viewers.close()]);
    throw error;
  }
  // The Prometheus endpoint, on its own listener (METRICS_PORT), never the public port.
  let metrics: MetricsServer | undefined;
  if (config.metrics) {
    const runningIngest = ingest;
    metrics = await startMetricsServer({
      ...config.metrics,
      database: runtime.services.database,
      clock: runtime.services.clock,
      ingestHealth: runtime.services.ingestHealth,
      transcodeBudget: () => (runningIngest.enabled ? runningIngest.transcodeBudget : undefined),
    });
    logger.info({ host: config.metrics.host, port: metrics.port }, 'metrics listening');
  }
  installShutdown(
    app,
    runtime,
    logger,
    worker,
    ingest,
    mediaJobs,
    async () => {
      await Promise.all([rateLimits.store.close(), viewers.close(), metrics?.close()]);
    },
    async () => {
      upkeep.stop();
      await searchUpkeep.stop();
      await mail?.stop();
    },
  );
  // Every module the server needs is loaded now: write the compile cache (bin/tributary.js) at
  // once rather than at exit, which a SIGKILL or a crash would skip.
  flushCompileCache();
  started = true;
  // Announced once every part runs, so whoever waits for this line can rely on all of them.
  logger.info(
    { baseUrl, database: dialectOf(runtime.services.database.db), worker: options.worker },
    'listening',
  );
  // PUBLIC_URL unless it was left to its default, which names the configured port (0 in tests).
  const site =
    config.publicUrl === `http://localhost:${config.port}` ? `http://localhost:${port}` : config.publicUrl;
  tellOperator(`\nTributary API listening at ${baseUrl}\n`);
  tellOperator(`Web app at ${site.replace(/\/$/, '')}/ (home page, sign-in, dashboard, watch pages)\n`);
  tellOperator(
    ingest.enabled
      ? `RTMP ingest at rtmp://${new URL(config.publicUrl).hostname}:${ingest.rtmpPort}/live (publish with a stream's ingest.stream_key)\n`
      : `Live ingest and media are OFF: ${ingest.reason}\n`,
  );
  tellOperator(
    config.mail.smtpUrl === undefined
      ? 'Mail is printed here, not sent (SMTP_URL is not set), and email verification is OFF\n'
      : `Mail is sent through ${new URL(config.mail.smtpUrl).host} from ${config.mail.from}; new addresses must be verified\n`,
  );
  if (!options.worker) tellOperator('Mail is queued but not sent by this process (--no-worker)\n');
  if (mediaJobsOff !== undefined)
    tellOperator(`Uploads are accepted but not processed here: ${mediaJobsOff}\n`);
  if (demo) {
    printDemoAccount(
      demo,
      baseUrl,
      `${site}/sign-in/link/${await runtime.services.logins.createSignInLink(demo.userId)}`,
    );
  }
}

interface DemoAccount {
  userId: string;
  writeKey: string;
  readKey: string;
}

async function createDemoAccountIfEmpty(runtime: Runtime): Promise<DemoAccount | undefined> {
  const { accounts } = runtime.services;
  if ((await accounts.countUsers()) > 0) return undefined;
  const user = await accounts.createUser('Demo creator');
  const write = await accounts.createKey(user.id, 'write');
  const read = await accounts.createKey(user.id, 'read');
  return { userId: user.id, writeKey: write.key, readKey: read.key };
}

function printDemoAccount(demo: DemoAccount, baseUrl: string, signInLink: string): void {
  // Shown once, never logged (the keys are not stored anywhere readable): when standard output
  // is not a terminal it is the log stream, so they go to standard error, not into the logs.
  tellOperator(
    [
      '',
      'The database had no users, so a demo creator was made. Its keys are shown only this once:',
      `  user:      ${demo.userId}`,
      `  write key: ${demo.writeKey}`,
      `  read key:  ${demo.readKey}`,
      '',
      'Sign in to the web app as the demo creator with this one-time link (it works once, for a day;',
      'set an email and a password on the account page to sign in again):',
      `  ${signInLink}`,
      '',
      'Try it:',
      `  curl -s -X POST ${baseUrl}/streams -H 'Authorization: Bearer ${demo.writeKey}' \\`,
      `    -H 'Content-Type: application/json' -d '{"title":"My first stream"}'`,
      `  curl -s ${baseUrl}/streams -H 'Authorization: Bearer ${demo.readKey}'`,
      '',
    ].join('\n'),
  );
}

/**
 * Text for the person who started the server. On a terminal it goes to standard output among
 * the log lines; otherwise standard output is a JSON-lines stream (a file, a log collector)
 * that plain text would break, and it goes to standard error instead.
 */
function tellOperator(text: string): void {
  (process.stdout.isTTY ? process.stdout : process.stderr).write(text);
}

function installShutdown(
  app: FastifyInstance,
  runtime: Runtime,
  logger: FastifyInstance['log'],
  worker: DeliveryWorker | undefined,
  ingest: IngestHandle,
  mediaJobs: UploadWorker | undefined,
  closeRateLimits: () => Promise<void>,
  stopMail: () => Promise<void>,
): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      logger.error('shutdown took longer than 20 s; exiting');
      process.exit(1);
    }, 20_000);
    force.unref();
    // The worker finishes its attempts in flight and records them, leaving nothing claimed.
    // A media job in progress is handed back to the queue, to run again at the next start.
    Promise.all([app.close(), worker?.stop(), ingest.close(), mediaJobs?.stop(), stopMail()])
      .then(() => Promise.all([runtime.close(), closeRateLimits()]))
      .then(() => {
        logger.info('stopped');
        process.exitCode = 0;
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'error during shutdown');
        process.exitCode = 1;
      });
  };
  // `on`, not `once`: a terminal's Ctrl-C reaches the server twice under `npm start` (directly,
  // and passed on by npm), and without a listener the second would end the process at once.
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
