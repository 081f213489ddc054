// Test databases: a fresh SQLite file, or a fresh PostgreSQL database on the server named by
// TEST_POSTGRES_URL. CI sets that variable, so the suite runs on both; locally the
// PostgreSQL half is skipped with a notice when it is unset.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { test as nodeTest, type TestContext } from 'node:test';
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

function postgresUrl(name: string): string {
  if (!POSTGRES_ADMIN_URL) throw new Error('TEST_POSTGRES_URL is not set');
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/** The migrations' source, hashed: a template made from other migrations is never used. */
function migrationsHash(): string {
  const folder = path.join(import.meta.dirname, '../../src/db/migrations');
  const hash = createHash('sha256');
  for (const name of fs.readdirSync(folder).toSorted()) {
    hash
      .update(name)
      .update('\0')
      .update(fs.readFileSync(path.join(folder, name)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

const TEMPLATE_LOCK_KEY = 0x7472_6962; // any fixed number: the test processes' shared lock

/**
 * The migrated template on the PostgreSQL server, made the first time any test process of any
 * run asks for it. Test processes run side by side, so it is made under an advisory lock, built
 * under a scratch name and renamed when complete: a process killed half-way leaves no template
 * that looks finished.
 */
async function ensurePostgresTemplate(): Promise<string> {
  const name = `tributary_template_${migrationsHash()}`;
  return withAdmin(async (admin) => {
    const exists = async () =>
      (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
    if (await exists()) return name;
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
    try {
      if (await exists()) return name;
      const building = `${name}_building`;
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${building}`);
      const handle = openDatabase(postgresUrl(building));
      try {
        await migrateToLatest(handle.db);
      } finally {
        await handle.close();
      }
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      return name;
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
    }
  });
}

/** A migrated SQLite file made once per test process; each test database is a copy of it. */
async function makeSqliteTemplate(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-template-'));
  process.once('exit', () => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const file = path.join(dir, 'template.db');
  const handle = openDatabase(file);
  try {
    await migrateToLatest(handle.db);
  } finally {
    await handle.close();
  }
  return file;
}

const templates = new Map<Dialect, Promise<string>>();

function template(dialect: Dialect): Promise<string> {
  let made = templates.get(dialect);
  if (!made) {
    made = dialect === 'sqlite' ? makeSqliteTemplate() : ensurePostgresTemplate();
    // A failure is reported to every caller, and the next one tries again.
    made.catch(() => templates.delete(dialect));
    templates.set(dialect, made);
  }
  return made;
}

export interface CreateTestDatabaseOptions {
  /**
   * Already at the latest migration: a copy of a template migrated once (per server and set of
   * migrations on PostgreSQL, per test process on SQLite), which is much cheaper than migrating
   * each test database. Left empty unless asked, for tests that migrate it themselves.
   */
  migrated?: boolean;
}

export async function createTestDatabase(
  dialect: Dialect,
  options: CreateTestDatabaseOptions = {},
): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-test-'));
  if (dialect === 'sqlite') {
    const url = path.join(dataDir, 'test.db');
    if (options.migrated) fs.copyFileSync(await template('sqlite'), url);
    return {
      url,
      dataDir,
      drop: () => {
        fs.rmSync(dataDir, { recursive: true, force: true });
        return Promise.resolve();
      },
    };
  }
  const name = `tributary_test_${randomBytes(6).toString('hex')}`;
  const from = options.migrated ? ` TEMPLATE ${await template('postgres')}` : '';
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${name}${from}`));
  return {
    url: postgresUrl(name),
    dataDir,
    drop: async () => {
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      // A test's processes may still be writing in the folder (node:test runs after-hooks in the
      // order they were added, so a drop added first runs before their stop): a failed removal
      // (ENOTEMPTY) would skip the hooks that stop them and leave the file's process hanging.
      fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 10 });
    },
  };
}

/** A fresh test database, migrated and opened; closed and dropped when the test ends. */
export async function openMigratedTestDatabase(t: TestContext, dialect: Dialect): Promise<DatabaseHandle> {
  const database = await createTestDatabase(dialect, { migrated: true });
  const handle = openDatabase(database.url);
  t.after(async () => {
    await handle.close();
    await database.drop();
  });
  return handle;
}

/** A test file's `test` inside a mediaDialects loop (name and body, as node:test's). */
export type MediaTest = (name: string, fn: (t: TestContext) => Promise<void>) => void;

const MEDIA_ON_POSTGRES = process.env.TEST_MEDIA_POSTGRES === 'all';

/**
 * The dialect loop of a test file that waits on real-time media (ffmpeg pushing in real time,
 * Chromium playing it): `for (const { dialect, test } of mediaDialects('one test's name'))`.
 * Such a test costs seconds of wall clock whatever the database, and what it checks (RTMP, HLS,
 * ffmpeg, the player) is the same on both, so it runs on SQLite only, except `postgresSmoke`:
 * the one test of the file, named exactly, that also runs on PostgreSQL because it runs the
 * feature's SQL there. `null` is for a file whose feature has its smoke test in another file.
 * The rest are reported as skipped on PostgreSQL, with the reason; TEST_MEDIA_POSTGRES=all runs
 * them all on both. The body keeps calling `test(name, fn)`: the loop hands each pass its own.
 * A smoke name that no test of the file has fails the file (when PostgreSQL is tested, as in CI),
 * so a renamed test is not silently lost.
 */
export function* mediaDialects(
  postgresSmoke: string | null,
): Generator<{ dialect: Dialect; test: MediaTest }> {
  // On SQLite node:test's own test(), so that a failure names the test file's line.
  // node:test runs the promise test() returns by itself.
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  if (DIALECTS.includes('sqlite')) yield { dialect: 'sqlite', test: nodeTest };
  if (!DIALECTS.includes('postgres')) return;
  const names = new Set<string>();
  const test: MediaTest = (name, fn) => {
    names.add(name);
    if (MEDIA_ON_POSTGRES || name === postgresSmoke) void nodeTest(name, fn);
    else void nodeTest(name, { skip: 'real-time media: SQLite only, see mediaDialects' }, fn);
  };
  yield { dialect: 'postgres', test };
  if (postgresSmoke !== null && !names.has(postgresSmoke)) {
    throw new Error(`mediaDialects: no test here is named ${JSON.stringify(postgresSmoke)}`);
  }
}
