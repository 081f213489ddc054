// Test databases: a fresh SQLite file, or a fresh PostgreSQL database on the server named by
// TEST_POSTGRES_URL. CI sets that variable, so the suite runs on both; locally the
// PostgreSQL half is skipped with a notice when it is unset.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestContext } from 'node:test';
import { migrateToLatest, openDatabase, type DatabaseHandle, type Dialect } from '../../src/db/database.ts';

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL;

if (process.env.CI === 'true' && !POSTGRES_ADMIN_URL) {
  throw new Error('CI must set TEST_POSTGRES_URL so the suite also runs on PostgreSQL');
}

export const DIALECTS: Dialect[] = POSTGRES_ADMIN_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestDatabase {
  url: string;
  dataDir: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-test-'));
  if (dialect === 'sqlite') {
    return {
      url: path.join(dataDir, 'test.db'),
      dataDir,
      drop: () => {
        fs.rmSync(dataDir, { recursive: true, force: true });
        return Promise.resolve();
      },
    };
  }
  if (!POSTGRES_ADMIN_URL) throw new Error('TEST_POSTGRES_URL is not set');
  const name = `tributary_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dataDir,
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fresh test database, migrated and opened; closed and dropped when the test ends. */
export async function openMigratedTestDatabase(t: TestContext, dialect: Dialect): Promise<DatabaseHandle> {
  const database = await createTestDatabase(dialect);
  const handle = openDatabase(database.url);
  t.after(async () => {
    await handle.close();
    await database.drop();
  });
  await migrateToLatest(handle.db);
  return handle;
}
