// The composition root's entry point: `tributary <command>`. It reads configuration once,
// dispatches, and turns every failure into a clear message and a non-zero exit.
import { parse, UsageError } from './cli/args.ts';
import * as ops from './cli/operator-commands.ts';
import { videosImport } from './cli/media-commands.ts';
import { usersSetQuota } from './cli/upload-commands.ts';
import { storageMigrate } from './cli/storage-commands.ts';
import { ingestResetKey, ingestShow } from './cli/ingest-commands.ts';
import * as webhookOps from './cli/webhook-commands.ts';
import * as moderationOps from './cli/moderation-commands.ts';
import { MEDIA_WORKER_USAGE, runMediaWorker } from './cli/media-worker-command.ts';
import type { Command } from './cli/operator-commands.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openRuntime } from './runtime.ts';
import { AppError } from './shared/errors.ts';
import { StorageError } from './storage/storage-errors.ts';

const COMMANDS: Record<string, Command> = {
  'users create': ops.usersCreate,
  'users set-password': ops.usersSetPassword,
  'users set-quota': usersSetQuota,
  'users set-role': moderationOps.usersSetRole,
  'users suspend': moderationOps.usersSuspend,
  'users reinstate': moderationOps.usersReinstate,
  'audit-log': moderationOps.auditLog,
  'keys create': ops.keysCreate,
  'keys list': ops.keysList,
  'keys revoke': ops.keysRevoke,
  'streams go-live': ops.streamsGoLive,
  'streams end': ops.streamsEnd,
  'streams viewers': ops.streamsViewers,
  'videos publish': ops.videosPublish,
  'videos import': videosImport,
  'ingest show': ingestShow,
  'ingest reset-key': ingestResetKey,
  'subscriptions create': ops.subscriptionsCreate,
  'subscriptions cancel': ops.subscriptionsCancel,
  migrate: ops.migrate,
  'storage migrate': storageMigrate,
  'webhooks deliveries': webhookOps.webhooksDeliveries,
  'webhooks retry': webhookOps.webhooksRetry,
};

const SERVE_USAGE = [
  'tributary serve [--no-worker] [--no-ingest] [--no-media-jobs] [--ingest-only]',
  '  Starts the API with the RTMP ingest (unless --no-ingest), the webhook delivery and mail workers (unless --no-worker)',
  '  and the media jobs that turn uploads into videos (unless --no-media-jobs).',
  '  --ingest-only: one of many ingest machines (behind a TCP balancer): the RTMP ingest and the media of the streams',
  '  it holds (for the origin), no workers, no media jobs; SIGTERM drains it (its encoders reconnect elsewhere).',
].join('\n');

function overview(): string {
  return [
    'Usage: tributary <command> [options]    (configuration comes from environment variables; see README)',
    '',
    SERVE_USAGE,
    webhookOps.WORKER_USAGE,
    MEDIA_WORKER_USAGE,
    ...Object.values(COMMANDS).map((command) => command.usage),
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  // Everything this process creates (the database and its -wal/-shm, the secret, media
  // folders, and what ffmpeg children write, as they inherit it) is owner-only, whatever the
  // umask of the shell that started it.
  process.umask(0o077);
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
    process.stdout.write(`${overview()}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  const config = loadConfig();

  if (argv[0] === 'serve') {
    const { values } = parse(
      argv.slice(1),
      {
        'no-worker': { type: 'boolean' },
        'no-ingest': { type: 'boolean' },
        'no-media-jobs': { type: 'boolean' },
        'ingest-only': { type: 'boolean' },
      },
      SERVE_USAGE,
    );
    if (values.help === true) {
      process.stdout.write(`${SERVE_USAGE}\n`);
      return 0;
    }
    // Loaded only here: the HTTP stack is not needed by the other commands.
    const { serve } = await import('./server.ts');
    if (values['ingest-only'] === true) {
      if (values['no-ingest'] === true)
        throw new UsageError(`--ingest-only and --no-ingest contradict each other.\n\n${SERVE_USAGE}`);
      await serve(config, { worker: false, ingest: true, mediaJobs: false, ingestOnly: true });
      return -1;
    }
    await serve(config, {
      worker: values['no-worker'] !== true,
      ingest: values['no-ingest'] !== true,
      mediaJobs: values['no-media-jobs'] !== true,
    });
    return -1; // keeps running until a signal
  }

  if (argv[0] === 'media-worker') {
    const { values } = parse(argv.slice(1), {}, MEDIA_WORKER_USAGE);
    if (values.help === true) {
      process.stdout.write(`${MEDIA_WORKER_USAGE}\n`);
      return 0;
    }
    const runtime = await openRuntime(config, undefined, { longRunning: true });
    try {
      await runMediaWorker(runtime);
    } finally {
      await runtime.close();
    }
    return 0;
  }

  if (argv[0] === 'worker') {
    const { values } = parse(argv.slice(1), {}, webhookOps.WORKER_USAGE);
    if (values.help === true) {
      process.stdout.write(`${webhookOps.WORKER_USAGE}\n`);
      return 0;
    }
    const runtime = await openRuntime(config, undefined, { longRunning: true });
    // A worker has no public port; with METRICS_PORT it answers scrapes like `serve` does.
    const { startMetricsServer } = await import('./observability/metrics-server.ts');
    const metrics = config.metrics
      ? await startMetricsServer({
          ...config.metrics,
          database: runtime.services.database,
          clock: runtime.services.clock,
          ingestHealth: runtime.services.ingestHealth,
        })
      : undefined;
    try {
      await webhookOps.runWorker(runtime);
    } finally {
      await metrics?.close();
      await runtime.close();
    }
    return 0;
  }

  const twoWords = `${argv[0] ?? ''} ${argv[1] ?? ''}`;
  const name = COMMANDS[twoWords] ? twoWords : (argv[0] ?? '');
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`Unknown command "${argv.slice(0, 2).join(' ')}".\n\n${overview()}`);
  const rest = argv.slice(name.split(' ').length);
  if (rest.includes('--help')) {
    process.stdout.write(`${command.usage}\n`);
    return 0;
  }
  const runtime = await openRuntime(config);
  try {
    await command.run(runtime, rest, (line) => process.stdout.write(`${line}\n`));
  } finally {
    await runtime.close();
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 2;
    } else if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 2;
    } else if (error instanceof StorageError) {
      // The media store failed where the process cannot go on (serve's start check): the
      // message names what failed and the variables to look at; the stack would only hide it.
      process.stderr.write(`error: ${error.message}\n`);
      process.exitCode = 1;
    } else if (error instanceof AppError) {
      process.stderr.write(`error (${error.code}): ${error.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(
        `error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exitCode = 1;
    }
  },
);
