// `tributary storage migrate` against a real Ceph RADOS Gateway, run as an operator runs it: a
// library of published videos (one with a 12 MiB file, so multipart; one with no media at all)
// moved to the object store and back, every file verified by SHA-256 where it lands, the source
// removed, the origin (`serve` with MEDIA_STORAGE=s3) playing each file before, between and
// after. A second run moves nothing (idempotent). A run SIGKILLed after its first video, in each
// direction, is finished by the next run without sending again what was there; on a terminal
// the command draws a progress bar.
import assert from 'node:assert/strict';
import { spawn, execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { promisify } from 'node:util';
import { openDatabase } from '../../src/db/database.ts';
import type { Dialect } from '../../src/db/dialect.ts';
import { videoPrefix } from '../../src/storage/media-keys.ts';
import { freePort } from '../helpers/app.ts';
import { CLI, REPO_ROOT, runCli } from '../helpers/cli.ts';
import { createTestDatabase, DIALECTS } from '../helpers/databases.ts';
import { SKIP_WITHOUT_OBJECT_STORE, useObjectStore } from '../helpers/object-store.ts';
import { waitFor } from '../helpers/wait.ts';
import { startService, tributaryCli, waitUntilReady } from '../scale/processes.ts';

const skip = SKIP_WITHOUT_OBJECT_STORE;
const objectStore = useObjectStore();
const execFileAsync = promisify(execFile);

type Library = Map<string, Map<string, string>>; // video id -> file -> SHA-256

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

interface Setup {
  env: Record<string, string>;
  dataDir: string;
  databaseUrl: string;
  dialect: Dialect;
}

async function setUp(t: TestContext, dialect: Dialect): Promise<Setup> {
  const database = await createTestDatabase(dialect, { migrated: true });
  t.after(() => database.drop());
  const bucket = await objectStore.freshBucket(t);
  const gateway = objectStore.gateway();
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    DATABASE_URL: database.url,
    DATA_DIR: database.dataDir,
    LOG_LEVEL: 'warn',
    MEDIA_STORAGE: 's3',
    S3_ENDPOINT: gateway.endpoint,
    S3_REGION: gateway.region,
    S3_BUCKET: bucket,
    S3_PREFIX: 'lib/',
    S3_ACCESS_KEY_ID: gateway.accessKeyId,
    S3_SECRET_ACCESS_KEY: gateway.secretAccessKey,
  };
  return { env, dataDir: database.dataDir, databaseUrl: database.url, dialect };
}

/** Published videos with media files on disk, as `serve` leaves them with MEDIA_STORAGE=local. */
async function makeLibrary(setup: Setup, count: number, segmentBytes: number, big = 0): Promise<Library> {
  const creator = await tributaryCli(setup.env, ['users', 'create', '--name', 'Library']);
  const library: Library = new Map();
  for (let index = 0; index < count; index++) {
    const videoId = await tributaryCli(setup.env, [
      ...['videos', 'publish', '--creator', creator, '--title', `Video ${index}`, '--duration', '12'],
    ]);
    const dir = path.join(setup.dataDir, 'media', 'videos', videoId);
    const files = new Map<string, string>();
    const write = (name: string, bytes: Uint8Array) => {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), bytes);
      files.set(name, sha256(bytes));
    };
    write('index.m3u8', Buffer.from('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\np0/index.m3u8\n'));
    write('p0/index.m3u8', Buffer.from('#EXTM3U\n#EXT-X-ENDLIST\n'));
    write('p0/seg_00000.ts', randomBytes(segmentBytes));
    write('p0/seg_00001.ts', randomBytes(segmentBytes));
    write('thumbnail.jpg', randomBytes(2048));
    if (index === 0 && big > 0) write('p0/seg_00002.ts', randomBytes(big));
    if (index === 1) {
      // An uploaded video's original: kept beside the folder on disk, under the video in the store.
      const original = randomBytes(100_000);
      fs.mkdirSync(path.join(setup.dataDir, 'media', 'originals'), { recursive: true });
      fs.writeFileSync(path.join(setup.dataDir, 'media', 'originals', videoId), original);
      files.set('original', sha256(original));
    }
    library.set(videoId, files);
  }
  return library;
}

async function locations(setup: Setup): Promise<Map<string, string>> {
  const handle = openDatabase(setup.databaseUrl);
  try {
    const rows = await handle.db.selectFrom('videos').select(['id', 'media_location']).execute();
    return new Map(rows.map((row) => [row.id, row.media_location]));
  } finally {
    await handle.close();
  }
}

async function storedObjects(setup: Setup, videoId: string): Promise<Map<string, string | undefined>> {
  const { S3MediaStorage } = await import('../../src/storage/s3-storage.ts');
  const storage = new S3MediaStorage({
    endpoint: setup.env.S3_ENDPOINT ?? '',
    region: setup.env.S3_REGION ?? 'us-east-1',
    bucket: setup.env.S3_BUCKET ?? '',
    prefix: 'lib/',
    accessKeyId: setup.env.S3_ACCESS_KEY_ID ?? '',
    secretAccessKey: setup.env.S3_SECRET_ACCESS_KEY ?? '',
    forcePathStyle: true,
  });
  try {
    const found = new Map<string, string | undefined>();
    const page = await storage.list(videoPrefix(videoId));
    for (const item of page.items) {
      const body = await storage.get(item.key);
      const chunks: Buffer[] = [];
      for await (const chunk of body?.body ?? []) chunks.push(chunk as Buffer);
      found.set(item.key.slice(videoPrefix(videoId).length), sha256(Buffer.concat(chunks)));
    }
    return found;
  } finally {
    await storage.close();
  }
}

function localFiles(setup: Setup, videoId: string): Map<string, string> {
  const dir = path.join(setup.dataDir, 'media', 'videos', videoId);
  const found = new Map<string, string>();
  const entries = fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, withFileTypes: true }) : [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    found.set(path.relative(dir, file), sha256(fs.readFileSync(file)));
  }
  const original = path.join(setup.dataDir, 'media', 'originals', videoId);
  if (fs.existsSync(original)) found.set('original', sha256(fs.readFileSync(original)));
  return found;
}

async function assertAllIn(setup: Setup, library: Library, where: 'object' | 'local'): Promise<void> {
  const located = await locations(setup);
  for (const [videoId, files] of library) {
    assert.equal(located.get(videoId), where, videoId);
    const stored = await storedObjects(setup, videoId);
    const local = localFiles(setup, videoId);
    assert.deepEqual(where === 'object' ? stored : local, files, `${videoId} in ${where}, verified`);
    assert.equal((where === 'object' ? local : stored).size, 0, `${videoId}: the source is removed`);
  }
}

async function assertOriginServes(origin: string, library: Library): Promise<void> {
  for (const [videoId, files] of library) {
    for (const [file, digest] of files) {
      if (file === 'original') {
        // Kept, never served.
        assert.equal((await fetch(`${origin}/media/videos/${videoId}/${file}`)).status, 404);
        continue;
      }
      const response = await fetch(`${origin}/media/videos/${videoId}/${file}`);
      assert.equal(response.status, 200, `${videoId}/${file}`);
      assert.equal(sha256(new Uint8Array(await response.arrayBuffer())), digest, `${videoId}/${file}`);
    }
  }
}

describe('tributary storage migrate', { skip }, () => {
  for (const dialect of DIALECTS) {
    test(`moves a library to the object store and back, verified, idempotent, playing all along (${dialect})`, async (t) => {
      const setup = await setUp(t, dialect);
      // A 12 MiB file goes up in parts (8 MiB parts).
      const library = await makeLibrary(setup, 3, 200_000, 12 * 1024 * 1024);
      const creator = await tributaryCli(setup.env, ['users', 'create', '--name', 'Empty']);
      const empty = await tributaryCli(setup.env, [
        ...['videos', 'publish', '--creator', creator, '--title', 'No media', '--duration', '5'],
      ]);

      const port = await freePort();
      const serve = startService(t, {
        name: 'serve',
        args: ['serve', '--no-worker', '--no-ingest', '--no-media-jobs'],
        env: { ...setup.env, PORT: String(port), HOST: '127.0.0.1', RTMP_PORT: '0' },
        logDir: setup.dataDir,
      });
      const origin = `http://127.0.0.1:${port}`;
      await waitUntilReady(serve, `${origin}/readyz`, 60_000);
      await assertOriginServes(origin, library);

      const toStore = await runCli(['storage', 'migrate', '--to', 's3'], setup.env);
      assert.equal(toStore.code, 0, toStore.stderr);
      assert.match(toStore.stdout, /^3 videos to move \(17 files, 13\.\d MB\) to /m);
      for (const videoId of library.keys()) {
        assert.match(
          toStore.stdout,
          new RegExp(`^${videoId}: [56] files \\(.*, [56] sent\\) verified; source removed$`, 'm'),
        );
      }
      assert.match(toStore.stdout, new RegExp(`^${empty}: no media files; left as it is$`, 'm'));
      assert.match(
        toStore.stdout,
        /^done: 3 videos moved .*\(17 files, 13\.\d MB, 17 sent\), 1 without media files$/m,
      );
      await assertAllIn(setup, library, 'object');
      assert.equal((await locations(setup)).get(empty), 'local');
      await assertOriginServes(origin, library);

      const again = await runCli(['storage', 'migrate', '--to', 's3'], setup.env);
      assert.equal(again.code, 0, again.stderr);
      assert.match(
        again.stdout,
        /^done: 0 videos moved .*\(0 files, 0\.0 MB, 0 sent\), 1 without media files$/m,
      );

      const back = await runCli(['storage', 'migrate', '--to', 'local'], setup.env);
      assert.equal(back.code, 0, back.stderr);
      assert.match(back.stdout, /^done: 3 videos moved .*\(17 files, 13\.\d MB, 17 sent\)$/m);
      await assertAllIn(setup, library, 'local');
      // The origin had seen these videos in the store: it finds them on disk again.
      await assertOriginServes(origin, library);

      const backAgain = await runCli(['storage', 'migrate', '--to', 'local'], setup.env);
      assert.equal(backAgain.code, 0, backAgain.stderr);
      assert.match(backAgain.stdout, /^done: 0 videos moved/m);
    });
  }

  test('a run SIGKILLed after its first video is finished by the next, in both directions (sqlite)', async (t) => {
    const setup = await setUp(t, 'sqlite');
    const library = await makeLibrary(setup, 6, 3 * 1024 * 1024);

    const killedRun = async (to: 's3' | 'local') => {
      const child = spawn(process.execPath, [CLI, 'storage', 'migrate', '--to', to], {
        cwd: REPO_ROOT,
        env: setup.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      await waitFor(() => /^vid_\w+: .*verified; source removed$/m.test(stdout), {
        timeoutMs: 60_000,
        what: 'the first video moved',
      });
      child.kill('SIGKILL');
      await exited;
      return stdout;
    };

    await killedRun('s3');
    const halfway = [...(await locations(setup)).values()];
    const moved = halfway.filter((where) => where === 'object').length;
    assert.ok(moved >= 1 && moved < 6, `stopped part way: ${halfway.join(', ')}`);
    // Every video still has its whole media somewhere.
    for (const [videoId, files] of library) {
      const there =
        (await locations(setup)).get(videoId) === 'object'
          ? await storedObjects(setup, videoId)
          : localFiles(setup, videoId);
      assert.deepEqual(there, files, videoId);
    }
    const resumed = await runCli(['storage', 'migrate', '--to', 's3'], setup.env);
    assert.equal(resumed.code, 0, resumed.stderr);
    const sent = Number(
      /(\d+) sent\)/.exec(resumed.stdout.split('\n').find((l) => l.startsWith('done:')) ?? '')?.[1],
    );
    assert.ok(sent <= (6 - moved) * 6, `${sent} files sent for ${6 - moved} videos left: nothing sent twice`);
    await assertAllIn(setup, library, 'object');

    await killedRun('local');
    const resumedBack = await runCli(['storage', 'migrate', '--to', 'local'], setup.env);
    assert.equal(resumedBack.code, 0, resumedBack.stderr);
    await assertAllIn(setup, library, 'local');

    // On a terminal: a bar redrawn in place instead of lines.
    const env = Object.entries(setup.env)
      .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
      .join(' ');
    const { stdout } = await execFileAsync(
      'script',
      ['-qec', `env ${env} ${process.execPath} ${CLI} storage migrate --to s3`, '/dev/null'],
      { cwd: REPO_ROOT, timeout: 120_000 },
    );
    assert.match(stdout, /\rTo the object store \[#+\] 100% 6\/6 videos 36\.\d MB\/36\.\d MB/);
    assert.doesNotMatch(stdout, /verified; source removed/);
    assert.match(stdout, /done: 6 videos moved/);
    await assertAllIn(setup, library, 'object');
  });
});
