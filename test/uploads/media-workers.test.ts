// Media work on its own processes: `serve --no-media-jobs` takes an upload, and two
// `tributary media-worker` processes share the database queue. The worker that takes the
// processing job is SIGKILLed in the middle of it; the other takes the job once its lease runs
// out, and the video is published, playable, with every rendition. Real processes, a real
// SQLite file shared by all three, real ffmpeg. Run twice: with media on local disk, and with
// MEDIA_STORAGE=s3 on a real Ceph RADOS Gateway, where the workers then move the video to the
// bucket (its video.store job) and the API serves it from there: Chromium plays it through the
// origin and through the nginx edge of deploy/nginx-edge.conf.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { promisify } from 'node:util';
import { openDatabase } from '../../src/db/database.ts';
import { freePort } from '../helpers/app.ts';
import { edgeCacheStatuses, playsOnEveryHost, startEdgeFor } from '../helpers/edge-playback.ts';
import { SKIP_WITHOUT_OBJECT_STORE, useObjectStore } from '../helpers/object-store.ts';
import { waitFor } from '../helpers/wait.ts';
import { startService, tributaryCli, waitUntilReady, type ServiceProcess } from '../scale/processes.ts';

const run = promisify(execFile);
const objectStore = useObjectStore();

/** 12 s of 720p30 with sound: its ladder takes the workers a few seconds. */
async function makeSource(file: string): Promise<void> {
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=330'],
    ...['-t', '12', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '60', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-shortest', file],
  ]);
}

interface LogLine {
  msg: string;
  jobId?: string;
  [key: string]: unknown;
}

function lines(service: ServiceProcess): LogLine[] {
  return service
    .log()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

for (const storage of ['local', 's3'] as const) {
  test(
    `two media workers share the queue; one SIGKILLed mid-job, the other finishes the job (media ${storage})`,
    {
      skip: storage === 's3' ? SKIP_WITHOUT_OBJECT_STORE : false,
    },
    async (t) => {
      await twoWorkers(t, storage);
    },
  );
}

async function twoWorkers(t: TestContext, storage: 'local' | 's3'): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-media-workers-'));
  t.after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const source = path.join(dir, 'source.mp4');
  await makeSource(source);
  const size = fs.statSync(source).size;

  const port = await freePort();
  const env = {
    ...process.env,
    DATABASE_URL: path.join(dir, 'data', 'tributary.db'),
    DATA_DIR: path.join(dir, 'data'),
    PORT: String(port),
    HOST: '127.0.0.1',
    RTMP_PORT: '0',
    LOG_LEVEL: 'info',
    // A lost claim is taken again after 3 s instead of a minute.
    MEDIA_JOB_LEASE_SECONDS: '3',
    TRANSCODE_PRESET: 'ultrafast',
    // Room for the ladder whatever else this machine is running (a budget test's business).
    TRANSCODE_CPU_CORES: '64',
    ...(storage === 's3' ? await objectStore.processEnv(t) : {}),
  };
  const userId = await tributaryCli(env, ['users', 'create', '--name', 'Uploader']);
  const key = await tributaryCli(env, ['keys', 'create', '--user', userId, '--scope', 'write']);
  const api = startService(t, {
    name: 'serve',
    args: ['serve', '--no-worker', '--no-ingest', '--no-media-jobs'],
    env,
    logDir: dir,
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitUntilReady(api, `${origin}/readyz`);
  const workers = ['media-worker-a', 'media-worker-b'].map((name) =>
    startService(t, { name, args: ['media-worker'], env, logDir: dir }),
  );
  await waitFor(
    () =>
      workers.every((worker) => lines(worker).some((line) => line.msg === 'media worker started'))
        ? true
        : undefined,
    { timeoutMs: 30_000, what: 'both media workers started' },
  );

  // The upload: created with the API, its bytes sent to its tus URL in one PATCH.
  const created = await fetch(`${origin}/v1/uploads`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ size, title: 'Worked elsewhere' }),
  });
  assert.equal(created.status, 201);
  const upload = (await created.json()) as { id: string; upload_url: string };
  const sent = await fetch(upload.upload_url, {
    method: 'PATCH',
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Offset': '0',
      'Content-Type': 'application/offset+octet-stream',
    },
    body: fs.readFileSync(source),
  });
  assert.equal(sent.status, 204);

  // Whichever worker takes the job is killed while it works on it.
  const taker = await waitFor(
    () => workers.find((worker) => lines(worker).some((line) => line.msg === 'media job started')),
    { timeoutMs: 30_000, what: 'a worker to take the job' },
  );
  const other = workers.find((worker) => worker !== taker) as ServiceProcess;
  const jobId = lines(taker).find((line) => line.msg === 'media job started')?.jobId;
  await taker.stop('SIGKILL');
  assert.equal(
    lines(taker).some((line) => line.msg === 'media job done'),
    false,
    'killed mid-job',
  );

  // The other worker takes it once the lease has run out, and finishes it.
  const done = await waitFor(
    () => lines(other).find((line) => line.msg === 'media job done' && line.jobId === jobId),
    { timeoutMs: 120_000, what: 'the other worker to finish the job' },
  ).catch((error: unknown) => {
    throw new Error(`${String(error)}\n${other.log().slice(-4000)}`);
  });
  assert.equal(done.attempt, 2, 'the killed attempt counted, and the job ran again');
  const uploaded = await waitFor(
    async () => {
      const response = await fetch(`${origin}/v1/uploads/${upload.id}`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      const body = (await response.json()) as { status: string; video_id: string };
      return body.status === 'ready' ? body : undefined;
    },
    { timeoutMs: 30_000, what: 'the upload ready' },
  );
  assert.equal(uploaded.status, 'ready');
  const video = (await (
    await fetch(`${origin}/v1/videos/${uploaded.video_id}`, { headers: { Authorization: `Bearer ${key}` } })
  ).json()) as { status: string; playback_url: string };
  const master = await (await fetch(video.playback_url)).text();
  assert.match(master, /#EXT-X-STREAM-INF/);
  for (const rendition of ['source.m3u8', '480p.m3u8', '360p.m3u8'])
    assert.ok(master.includes(rendition), rendition);

  if (storage === 's3') {
    // A worker moves it to the bucket; the API then serves it from there.
    const handle = openDatabase(env.DATABASE_URL);
    try {
      await waitFor(
        async () =>
          (
            await handle.db
              .selectFrom('videos')
              .select('media_location')
              .where('id', '=', uploaded.video_id)
              .executeTakeFirst()
          )?.media_location === 'object',
        { timeoutMs: 90_000, what: 'the video moved to the bucket' },
      );
    } finally {
      await handle.close();
    }
    await waitFor(() => !fs.existsSync(path.join(dir, 'data', 'media', 'videos', uploaded.video_id)), {
      what: 'the local folder removed',
    });
    const base = video.playback_url.slice(0, video.playback_url.lastIndexOf('/') + 1);
    const rendition = await fetch(`${base}360p.m3u8`);
    assert.equal(rendition.status, 200);
    const segment = (await rendition.text()).split('\n').find((line) => line.endsWith('.ts'));
    assert.ok(segment);
    const bytes = await fetch(new URL(segment, `${base}360p.m3u8`));
    assert.equal(bytes.status, 200);
    assert.ok((await bytes.arrayBuffer()).byteLength > 1000);

    // A viewer plays it from the store in Chromium, through the origin and through the nginx
    // edge, which caches what the origin proxied.
    const hosts = [origin];
    const edge = await startEdgeFor(t, origin);
    if (edge !== undefined) {
      const segmentPath = new URL(segment, `${base}360p.m3u8`).pathname;
      assert.deepEqual(await edgeCacheStatuses(`${edge}${segmentPath}`), ['MISS', 'HIT']);
      hosts.push(edge);
    }
    await playsOnEveryHost(t, hosts, uploaded.video_id);
  }

  // The surviving worker stops cleanly on SIGTERM.
  assert.equal(await other.stop('SIGTERM'), 0);
}
