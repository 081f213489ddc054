// A real S3 object store for the storage tests: Ceph's RADOS Gateway on a single-node cluster
// of its own (scripts/ceph-rgw-start.sh), started once per test file, or one already running
// named by TEST_S3_ENDPOINT (with TEST_S3_ACCESS_KEY_ID, TEST_S3_SECRET_ACCESS_KEY and
// optionally TEST_S3_REGION). Each test gets a bucket of its own, emptied and removed after it.
//
// Without the gateway's Debian packages (radosgw ceph-mon ceph-osd) and without
// TEST_S3_ENDPOINT, the tests are skipped with "no radosgw"; in CI (CI=true, set by .ci/run) the
// file fails instead, so CI cannot pass without a real object store.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import { freePort } from './ports.ts';
import os from 'node:os';
import path from 'node:path';
import { after, before, type TestContext } from 'node:test';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  S3Client,
  AbortMultipartUploadCommand,
  ListMultipartUploadsCommand,
} from '@aws-sdk/client-s3';
import { S3MediaStorage, type S3StorageOptions } from '../../src/storage/s3-storage.ts';
import { REPO_ROOT } from './cli.ts';

const START_SCRIPT = path.join(REPO_ROOT, 'scripts/ceph-rgw-start.sh');
const STOP_SCRIPT = path.join(REPO_ROOT, 'scripts/ceph-rgw-stop.sh');
const BINARIES = ['radosgw', 'ceph-mon', 'ceph-osd', 'radosgw-admin', 'ceph'];

function onPath(binary: string): boolean {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .some((dir) => dir !== '' && fs.existsSync(path.join(dir, binary)));
}

const HAVE_RADOSGW = BINARIES.every(onPath);
const SHARED_ENDPOINT = process.env.TEST_S3_ENDPOINT;
const IN_CI = process.env.CI === 'true';

if (IN_CI && !HAVE_RADOSGW) {
  throw new Error(
    'CI must install radosgw ceph-mon ceph-osd (see .ci/run): the storage tests need a real object store',
  );
}

const NO_RADOSGW = 'skipped: no radosgw (apt-get install -y radosgw ceph-mon ceph-osd)';

/** Why tests that need an object store cannot run here, or false when they can. */
export const SKIP_WITHOUT_OBJECT_STORE: string | false =
  SHARED_ENDPOINT !== undefined || HAVE_RADOSGW ? false : `${NO_RADOSGW}, or set TEST_S3_ENDPOINT`;

/** Why tests that kill and restart a gateway of their own cannot run here, or false. */
export const SKIP_WITHOUT_RADOSGW: string | false = HAVE_RADOSGW ? false : NO_RADOSGW;

export interface Gateway {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Started by this process (and so killed, restarted and stopped by it). */
  own: boolean;
  /** Milliseconds the start script took (0 for a shared endpoint). */
  startMs: number;
  /** SIGKILLs the gateway (radosgw alone; the cluster stays) and waits for its port to close. */
  kill(): Promise<void>;
  /** Starts the gateway again after kill(), on the same port with the same data. */
  restart(): Promise<void>;
  /** Stops everything and deletes the cluster's folder. */
  stop(): Promise<void>;
}

function run(file: string, args: string[], timeoutMs: number): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile('bash', [file, ...args], { timeout: timeoutMs }, (error, stdout, stderr) => {
      if (error)
        reject(new Error(`${path.basename(file)} failed (${error.message}):\n${stderr}`, { cause: error }));
      else resolve({ stdout, stderr });
    });
  });
}

function tail(file: string, lines: number): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      resolve(false);
    });
  });
}

/** Daemons still running when this process exits (a crash, a timeout) are killed by their ids. */
const running = new Set<string>();
process.once('exit', () => {
  for (const dir of running) {
    for (const name of ['client.rgw', 'osd.0', 'mon.a']) {
      try {
        process.kill(Number(fs.readFileSync(path.join(dir, 'run', `${name}.pid`), 'utf8')), 'SIGKILL');
      } catch {
        // not running
      }
    }
  }
});

/** A single-node cluster and gateway of this process's own, on free ports, in a fresh folder. */
export async function startGateway(): Promise<Gateway> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-rgw-'));
  const port = await freePort();
  let monPort = await freePort();
  while (monPort === port) monPort = await freePort();
  running.add(dir);
  const start = async () => {
    try {
      return await run(START_SCRIPT, [dir, String(port), String(monPort)], 120_000);
    } catch (error) {
      const logs = ['mon.a.out', 'osd.0.out', 'client.rgw.out', 'ceph-client.rgw.log']
        .map((name) => `--- ${name}\n${tail(path.join(dir, 'log', name), 15)}`)
        .join('\n');
      throw new Error(`${(error as Error).message}\n${logs}`, { cause: error });
    }
  };
  const started = performance.now();
  const { stdout } = await start();
  const startMs = performance.now() - started;
  const env = Object.fromEntries(
    stdout
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  let stopped = false;
  return {
    endpoint: env.S3_ENDPOINT ?? `http://127.0.0.1:${port}`,
    region: env.S3_REGION ?? 'us-east-1',
    accessKeyId: env.S3_ACCESS_KEY_ID ?? '',
    secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? '',
    own: true,
    startMs,
    async kill() {
      const pid = Number(fs.readFileSync(path.join(dir, 'run', 'client.rgw.pid'), 'utf8'));
      process.kill(pid, 'SIGKILL');
      const deadline = Date.now() + 10_000;
      while (await portOpen(port)) {
        if (Date.now() > deadline) throw new Error(`radosgw (pid ${pid}) still listens after SIGKILL`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async restart() {
      await start();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await run(STOP_SCRIPT, [dir, '--purge'], 60_000);
      running.delete(dir);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function sharedGateway(): Gateway {
  const refuse = () => Promise.reject(new Error('TEST_S3_ENDPOINT is not this process’s to stop or start'));
  return {
    endpoint: SHARED_ENDPOINT ?? '',
    region: process.env.TEST_S3_REGION ?? 'us-east-1',
    accessKeyId: process.env.TEST_S3_ACCESS_KEY_ID ?? '',
    secretAccessKey: process.env.TEST_S3_SECRET_ACCESS_KEY ?? '',
    own: false,
    startMs: 0,
    kill: refuse,
    restart: refuse,
    stop: () => Promise.resolve(),
  };
}

export interface ObjectStore {
  /** The gateway; only once the file's `before` hook has run. */
  gateway(): Gateway;
  /** A new, empty bucket for this test, emptied and removed after it. */
  freshBucket(t: TestContext): Promise<string>;
  /** The S3 store over a fresh bucket (closed after the test). */
  storage(t: TestContext, options?: Partial<S3StorageOptions>): Promise<S3MediaStorage>;
  /** A plain SDK client on the gateway, for looking at what the store wrote. */
  client(): S3Client;
  /** A `tributary` process's settings for MEDIA_STORAGE=s3 on a fresh bucket (under `prefix`). */
  processEnv(t: TestContext, prefix?: string): Promise<Record<string, string>>;
}

export function clientFor(gateway: Gateway): S3Client {
  return new S3Client({
    endpoint: gateway.endpoint,
    region: gateway.region,
    forcePathStyle: true,
    credentials: { accessKeyId: gateway.accessKeyId, secretAccessKey: gateway.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Removes every object and unfinished upload of a bucket, then the bucket. */
async function removeBucket(client: S3Client, bucket: string): Promise<void> {
  const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
  for (const upload of uploads.Uploads ?? []) {
    await client.send(
      new AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.Key, UploadId: upload.UploadId }),
    );
  }
  for (;;) {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
    const keys = (page.Contents ?? []).map((object) => ({ Key: object.Key }));
    if (keys.length === 0) break;
    await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }));
  }
  await client.send(new DeleteBucketCommand({ Bucket: bucket }));
}

/**
 * The object store of this test file: registers `before` (start a gateway, or use
 * TEST_S3_ENDPOINT) and `after` (stop it). Call at the top level of the file.
 */
export function useObjectStore(options: { own?: boolean } = {}): ObjectStore {
  const skip = options.own === true ? SKIP_WITHOUT_RADOSGW : SKIP_WITHOUT_OBJECT_STORE;
  let gateway: Gateway | undefined;
  let client: S3Client | undefined;
  before(async () => {
    if (skip !== false) return;
    gateway = SHARED_ENDPOINT !== undefined && options.own !== true ? sharedGateway() : await startGateway();
    client = clientFor(gateway);
  });
  after(async () => {
    client?.destroy();
    await gateway?.stop();
  });
  const store: ObjectStore = {
    gateway() {
      if (!gateway)
        throw new Error('the object store is not started (skipped, or used before its before hook)');
      return gateway;
    },
    client() {
      if (!client) throw new Error('the object store is not started');
      return client;
    },
    async freshBucket(t) {
      const bucket = `t-${randomBytes(8).toString('hex')}`;
      const c = store.client();
      await c.send(new CreateBucketCommand({ Bucket: bucket }));
      t.after(() => removeBucket(c, bucket));
      return bucket;
    },
    async processEnv(t, prefix) {
      const g = store.gateway();
      return {
        MEDIA_STORAGE: 's3',
        S3_ENDPOINT: g.endpoint,
        S3_REGION: g.region,
        S3_BUCKET: await store.freshBucket(t),
        ...(prefix === undefined ? {} : { S3_PREFIX: prefix }),
        S3_ACCESS_KEY_ID: g.accessKeyId,
        S3_SECRET_ACCESS_KEY: g.secretAccessKey,
      };
    },
    async storage(t, overrides = {}) {
      const g = store.gateway();
      const bucket = overrides.bucket ?? (await store.freshBucket(t));
      const storage = new S3MediaStorage({
        endpoint: g.endpoint,
        region: g.region,
        accessKeyId: g.accessKeyId,
        secretAccessKey: g.secretAccessKey,
        forcePathStyle: true,
        prefix: '',
        ...overrides,
        bucket,
      });
      t.after(() => storage.close());
      return storage;
    },
  };
  return store;
}
