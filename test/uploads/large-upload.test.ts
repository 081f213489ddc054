// The heaviest upload a creator brings: a 2 GiB file made by ffmpeg, sent by tus-js-client (the
// client browsers and the SDK use) to a real `tributary serve` process through a proxy that cuts
// every connection five times mid-transfer, with one SIGKILL and restart of the server on the
// way. It completes, the stored original has the source's SHA-256, and no more than five
// chunks' worth of bytes were sent twice.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import * as tus from 'tus-js-client';
import { freePort } from '../helpers/app.ts';
import { startService, tributaryCli, waitUntilReady, type ServiceProcess } from '../scale/processes.ts';
import { CuttingProxy } from './cutting-proxy.ts';

const run = promisify(execFile);
const SIZE = 2 * 1024 ** 3;
const CHUNK = 64 * 1024 ** 2;
const MIB = 1024 ** 2;
/** Where the proxy cuts every connection, and where the server is killed and started again. */
const CUTS_AT = [200, 550, 900, 1250, 1600].map((mib) => mib * MIB);
const RESTART_AT = 1800 * MIB;

/** A real video file of at least SIZE bytes (raw 720p frames), cut to exactly SIZE. */
async function makeLargeFile(file: string): Promise<void> {
  const frameBytes = 1280 * 720 * 1.5;
  const frames = Math.ceil(SIZE / frameBytes) + 2;
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc=size=1280x720:rate=30`, '-frames:v', String(frames)],
    ...['-c:v', 'rawvideo', '-pix_fmt', 'yuv420p', '-f', 'nut', file],
  ]);
  assert.ok(fs.statSync(file).size >= SIZE);
  fs.truncateSync(file, SIZE);
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 4 * MIB }))
    hash.update(chunk as Buffer);
  return hash.digest('hex');
}

test('a 2 GiB upload survives five cut connections and a server restart, byte for byte', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-large-upload-'));
  t.after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const source = path.join(dir, 'large.nut');
  await makeLargeFile(source);
  const sourceHash = sha256(source);

  const port = await freePort();
  const proxy = await CuttingProxy.start(t, port);
  const env = {
    ...process.env,
    DATABASE_URL: path.join(dir, 'data', 'tributary.db'),
    DATA_DIR: path.join(dir, 'data'),
    PORT: String(port),
    HOST: '127.0.0.1',
    RTMP_PORT: '0',
    // The client talks to the proxy, so the upload URL must name it.
    PUBLIC_URL: `http://127.0.0.1:${proxy.port}`,
    LOG_LEVEL: 'warn',
  };
  const userId = await tributaryCli(env, ['users', 'create', '--name', 'Large uploader']);
  const key = await tributaryCli(env, ['keys', 'create', '--user', userId, '--scope', 'write']);
  let generation = 0;
  const serve = async (): Promise<ServiceProcess> => {
    const service = startService(t, {
      name: `serve-${generation++}`,
      args: ['serve', '--no-worker', '--no-ingest', '--no-media-jobs'],
      env,
      logDir: dir,
    });
    await waitUntilReady(service, `http://127.0.0.1:${port}/readyz`);
    return service;
  };
  let server = await serve();

  const created = await fetch(`http://127.0.0.1:${port}/v1/uploads`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ size: SIZE, title: 'The long one' }),
  });
  assert.equal(created.status, 201);
  const upload = (await created.json()) as { id: string; upload_url: string };
  const upBefore = proxy.bytesUp;

  const cuts = [...CUTS_AT];
  let restarted = false;
  let restarting: Promise<void> | undefined;
  const errors: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const client = new tus.Upload(fs.createReadStream(source), {
      uploadUrl: upload.upload_url,
      uploadSize: SIZE,
      chunkSize: CHUNK,
      // Long enough for the server to start again after its SIGKILL.
      retryDelays: [0, 250, 500, 1000, 1000, 2000, 2000, 3000, 3000, 5000, 5000, 5000],
      onShouldRetry: (error) => {
        errors.push(error.message.split('\n')[0] ?? '');
        return true;
      },
      onProgress: () => {
        const sent = proxy.bytesUp - upBefore;
        if (cuts.length > 0 && sent >= (cuts[0] ?? Infinity)) {
          cuts.shift();
          proxy.cutAll();
        } else if (!restarted && sent >= RESTART_AT) {
          restarted = true;
          restarting = (async () => {
            await server.stop('SIGKILL');
            server = await serve();
          })();
        }
      },
      onSuccess: () => {
        resolve();
      },
      onError: (error) => {
        reject(error);
      },
    });
    client.start();
  });
  await restarting;

  assert.equal(proxy.cuts, 5, 'five cuts happened');
  assert.ok(restarted, 'the server was killed and started again');
  assert.ok(errors.length >= 6, `the client saw each cut and the restart: ${errors.join(' | ')}`);
  const head = await fetch(upload.upload_url, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } });
  // Every byte is in, so the URL no longer takes bytes but still says how many it has.
  assert.equal(head.headers.get('upload-offset'), String(SIZE));
  const stored = path.join(dir, 'data', 'uploads', upload.id);
  assert.equal(await sha256(stored), await sourceHash, 'the original is the source, byte for byte');
  const resent = proxy.bytesUp - upBefore - SIZE;
  assert.ok(
    resent <= 5 * CHUNK,
    `sent twice: ${(resent / MIB).toFixed(1)} MiB (at most ${(5 * CHUNK) / MIB} MiB)`,
  );
  t.diagnostic(`sent twice: ${(resent / MIB).toFixed(1)} MiB over ${errors.length} retries`);

  const shown = await fetch(`http://127.0.0.1:${port}/v1/uploads/${upload.id}`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  const body = (await shown.json()) as { status: string; bytes_received: number };
  assert.equal(body.status, 'processing');
  assert.equal(body.bytes_received, SIZE);
});
