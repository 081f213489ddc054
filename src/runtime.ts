// Opens what every role (server, worker, CLI) needs: the database, migrated to the latest
// schema, the master secret, and the services over them.
import path from 'node:path';
import type { Config } from './config.ts';
import { createServices, type Services } from './container.ts';
import { migrateToLatest, openDatabase, type Db } from './db/database.ts';
import { dialectOf } from './db/dialect.ts';
import { MediaPaths } from './media/media-paths.ts';
import { systemClock, type Clock } from './shared/clock.ts';
import { describeModeChange, tightenToOwnerOnly } from './shared/owner-only.ts';
import { loadOrCreateSecretKey } from './shared/secret-key.ts';
import type { MediaStorage } from './storage/media-storage.ts';
import { openMediaStorage } from './storage/open-storage.ts';
import { sealPlaintextStreamKeys, StreamKeyVault } from './streams/stream-key-vault.ts';

export interface Runtime {
  config: Config;
  secretKey: Buffer;
  services: Services;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** Hears one line per permission change made at start; standard error unless given. */
  notice?: (line: string) => void;
  /**
   * A role that runs until stopped (serve, the workers): with SQLITE_CHECKPOINT_THREAD, SQLite
   * checkpoints off its thread.
   */
  longRunning?: boolean;
}

export async function openRuntime(
  config: Config,
  clock: Clock = systemClock,
  options: RuntimeOptions = {},
): Promise<Runtime> {
  const notice = options.notice ?? ((line: string) => process.stderr.write(`tributary: ${line}\n`));
  const database = openDatabase(config.databaseUrl, {
    poolSize: config.databasePoolSize,
    checkpointThread: options.longRunning === true && config.sqliteCheckpointThread,
  });
  let secretKey: Buffer;
  try {
    await migrateToLatest(database.db);
    secretKey = loadOrCreateSecretKey(config.secretKey, config.dataDir);
    for (const change of tightenToOwnerOnly(privatePaths(config, database.db)))
      notice(describeModeChange(change));
    // Keys an older version stored in plain text, sealed now that the secret is known.
    await sealPlaintextStreamKeys(database.db, new StreamKeyVault(secretKey));
  } catch (error) {
    await database.close();
    throw error;
  }
  // MEDIA_STORAGE=s3: the store is opened once, here, for every role (serve, media-worker, CLI).
  let objectStore: MediaStorage | undefined;
  try {
    objectStore =
      config.storage.kind === 's3' ? await openMediaStorage(config.storage, config.dataDir) : undefined;
  } catch (error) {
    await database.close();
    throw error;
  }
  const services = createServices({ ...config, objectStore }, database, secretKey, clock);
  return {
    config,
    secretKey,
    services,
    close: async () => {
      services.realtime.close();
      await services.chat.close();
      await objectStore?.close();
      await database.close();
    },
  };
}

/** What must be owner-only: the data folder, the SQLite files, the secret, the media folders. */
function privatePaths(config: Config, db: Db): string[] {
  const media = new MediaPaths(config.dataDir);
  const paths = [
    config.dataDir,
    path.join(config.dataDir, 'secret.key'),
    media.root,
    media.streamsRoot,
    media.videosRoot,
    media.stagingRoot,
    media.originalsRoot,
    path.join(config.dataDir, 'uploads'),
  ];
  if (dialectOf(db) === 'sqlite' && config.databaseUrl !== ':memory:') {
    const file = path.resolve(config.databaseUrl);
    paths.push(path.dirname(file), file, `${file}-wal`, `${file}-shm`, `${file}-journal`);
  }
  return paths;
}
