// The media store the configuration names, and the check `serve` runs at start. The S3 store's
// module (and with it the AWS SDK, about 20 MB) is loaded only when MEDIA_STORAGE=s3.
import type { Config, StorageConfig } from '../config.ts';
import { LocalMediaStorage, localMediaRoot } from './local-storage.ts';
import type { CheckResult, MediaStorage } from './media-storage.ts';
import { withRetry, type RetryOptions } from './retry.ts';
import { StorageError } from './storage-errors.ts';

export async function openMediaStorage(config: StorageConfig, dataDir: string): Promise<MediaStorage> {
  if (config.kind === 'local') return new LocalMediaStorage(localMediaRoot(dataDir));
  const { S3MediaStorage } = await import('./s3-storage.ts');
  return new S3MediaStorage({
    ...(config.endpoint === undefined ? {} : { endpoint: config.endpoint }),
    region: config.region,
    bucket: config.bucket,
    prefix: config.prefix,
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    forcePathStyle: config.forcePathStyle,
    ...(config.publicUrl === undefined ? {} : { publicUrl: config.publicUrl }),
  });
}

/** What the start check logs through (a pino logger is one). */
export interface CheckLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/**
 * A real write, read and delete, tried a few times (about 4 s in all) when the store is
 * unreachable or busy, at once refused when it refuses. The error thrown names the variables
 * to look at.
 */
export async function checkMediaStorage(
  storage: MediaStorage,
  log: CheckLog,
  retry: RetryOptions = { attempts: 4, baseDelayMs: 500 },
): Promise<CheckResult> {
  try {
    const result = await withRetry(() => storage.check(), {
      ...retry,
      onRetry: (error, attempt, delayMs) => {
        log.warn({ err: error.message, attempt, delayMs }, 'media storage check failed; trying again');
      },
    });
    log.info({ storage: storage.description, ms: Math.round(result.elapsedMs) }, 'media storage checked');
    return result;
  } catch (error) {
    if (!(error instanceof StorageError)) throw error;
    // The failure's own message may already say what to look at (credentials, the bucket).
    const hint = / check S3_|; set /.test(error.message)
      ? ''
      : storage.kind === 'local'
        ? '\n  check DATA_DIR and the free space on its disk'
        : error.kind === 'unavailable' || error.kind === 'throttled'
          ? '\n  check S3_ENDPOINT and that the store is up'
          : '\n  check the S3_ variables';
    throw new StorageError(
      `MEDIA_STORAGE=${storage.kind}: the media storage check (write, read back, delete) failed, so the server did not start.\n  ${error.message}${hint}`,
      {
        kind: error.kind,
        operation: 'check',
        ...(error.key === undefined ? {} : { key: error.key }),
        ...(error.status === undefined ? {} : { status: error.status }),
        ...(error.code === undefined ? {} : { code: error.code }),
        cause: error,
      },
    );
  }
}

/**
 * `serve`'s start check with MEDIA_STORAGE=s3: opens the store, checks it, closes it. Throws
 * the check's StorageError, whose message says what failed and which variables to look at.
 */
export async function checkStorageAtStart(
  config: Pick<Config, 'storage' | 'dataDir'>,
  log: CheckLog,
): Promise<void> {
  const storage = await openMediaStorage(config.storage, config.dataDir);
  try {
    await checkMediaStorage(storage, log);
  } finally {
    await storage.close();
  }
}
