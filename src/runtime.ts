// Opens what every role (server, worker, CLI) needs: the database, migrated to the latest
// schema, the master secret, and the services over them.
import type { Config } from './config.ts';
import { createServices, type Services } from './container.ts';
import { migrateToLatest, openDatabase } from './db/database.ts';
import { systemClock, type Clock } from './shared/clock.ts';
import { loadOrCreateSecretKey } from './shared/secret-key.ts';

export interface Runtime {
  config: Config;
  secretKey: Buffer;
  services: Services;
  close(): Promise<void>;
}

export async function openRuntime(config: Config, clock: Clock = systemClock): Promise<Runtime> {
  const database = openDatabase(config.databaseUrl, { poolSize: config.databasePoolSize });
  try {
    await migrateToLatest(database.db);
  } catch (error) {
    await database.close();
    throw error;
  }
  const secretKey = loadOrCreateSecretKey(config.secretKey, config.dataDir);
  const services = createServices(config, database, secretKey, clock);
  return { config, secretKey, services, close: () => database.close() };
}
