// `tributary serve` with MEDIA_STORAGE=s3 writes, reads back and deletes an object before it
// starts, and stops with a clear message when it cannot; the real process over a real gateway.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { REPO_ROOT } from '../helpers/cli.ts';
import { SKIP_WITHOUT_OBJECT_STORE, useObjectStore } from '../helpers/object-store.ts';
import { waitFor } from '../helpers/wait.ts';

const skip = SKIP_WITHOUT_OBJECT_STORE;
const objectStore = useObjectStore();

interface Serve {
  output: () => string;
  exited: Promise<number | null>;
  stop: () => void;
}

function serve(t: TestContext, env: Record<string, string>): Serve {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-start-check-'));
  const child = spawn(
    process.execPath,
    ['src/main.ts', 'serve', '--no-ingest', '--no-worker', '--no-media-jobs'],
    {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: path.join(dir, 'tributary.db'),
        ...env,
      },
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  t.after(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { output: () => output, exited, stop: () => child.kill('SIGTERM') };
}

async function s3Env(t: TestContext): Promise<Record<string, string>> {
  const gateway = objectStore.gateway();
  return {
    MEDIA_STORAGE: 's3',
    S3_ENDPOINT: gateway.endpoint,
    S3_REGION: gateway.region,
    S3_BUCKET: await objectStore.freshBucket(t),
    S3_PREFIX: 'tributary/',
    S3_ACCESS_KEY_ID: gateway.accessKeyId,
    S3_SECRET_ACCESS_KEY: gateway.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
  };
}

test('serve checks the bucket at start, then starts, leaving nothing in it', { skip }, async (t) => {
  const env = await s3Env(t);
  const server = serve(t, env);
  // Two pipes: the log line (stdout) and the operator's text (stderr) may arrive in either order.
  await waitFor(
    () => server.output().includes('API listening at') && server.output().includes('"media storage checked"'),
    { what: 'the server to start', timeoutMs: 30_000 },
  );
  const checked = server
    .output()
    .split('\n')
    .find((line) => line.includes('"media storage checked"'));
  assert.ok(checked, server.output());
  assert.match(checked, new RegExp(`"storage":"S3 bucket \\\\"${env.S3_BUCKET}\\\\" at ${env.S3_ENDPOINT}"`));
  const objects = await objectStore.client().send(new ListObjectsV2Command({ Bucket: env.S3_BUCKET }));
  assert.deepEqual(objects.Contents ?? [], [], 'the check deleted its object');
  server.stop();
  assert.equal(await server.exited, 0);
});

test(
  'wrong credentials: serve stops at once with the check failure and the variables to look at',
  { skip },
  async (t) => {
    const server = serve(t, { ...(await s3Env(t)), S3_SECRET_ACCESS_KEY: 'wrong-secret-0123456789' });
    assert.equal(await server.exited, 1);
    const output = server.output();
    assert.match(
      output,
      /^error: MEDIA_STORAGE=s3: the media storage check \(write, read back, delete\) failed, so the server did not start\.$/m,
    );
    assert.match(
      output,
      /check failed at the write: S3 bucket "[^"]+" at http:\/\/127\.0\.0\.1:\d+: put "storage-check\/[^"]+" was refused: the credentials were not accepted \(403 SignatureDoesNotMatch\)/,
    );
    assert.match(output, /\(403 SignatureDoesNotMatch\); check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY\n/);
    assert.ok(!output.includes('API listening'), 'it never listened');
    assert.ok(!output.includes('wrong-secret-0123456789'), 'the secret is not printed');
    assert.ok(!/\n\s+at /.test(output), 'no stack trace');
  },
);

test('nothing at S3_ENDPOINT: serve tries a few times, then stops saying so', { skip }, async (t) => {
  // A port that was free a moment ago: nothing listens there.
  const { createServer } = await import('node:net');
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        resolve(typeof address === 'object' && address ? address.port : 0);
      });
    });
  });
  const started = performance.now();
  const server = serve(t, { ...(await s3Env(t)), S3_ENDPOINT: `http://127.0.0.1:${port}` });
  assert.equal(await server.exited, 1);
  const output = server.output();
  assert.match(output, /media storage check failed; trying again/);
  assert.match(output, /the store could not be reached \(ECONNREFUSED/);
  assert.match(output, /check S3_ENDPOINT and that the store is up/);
  assert.ok(performance.now() - started < 30_000);
});
