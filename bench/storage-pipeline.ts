// The two figures of `npm run bench -- --storage` that need the whole media pipeline on a real
// object store (a single-node Ceph RADOS Gateway):
//
// - **Stream end -> playing from the store.** `tributary serve` (ingest, media jobs) on
//   MEDIA_STORAGE=s3; ffmpeg pushes a 720p30 test pattern over RTMP; the stream is ended through
//   the API; then, timed from the end call's answer: the recording published (it plays from local
//   disk), moved to the store (verified, `media_location = object`), and its playlist and first
//   segment answered by the origin from the store.
// - **Encode throughput, one and two media workers.** `serve --no-media-jobs` takes the same
//   uploads twice (tus, one PATCH each); then one, and in a second round two, `tributary
//   media-worker` processes work the queue. Throughput is seconds of video made ready (the whole
//   ladder: source, 480p, 360p) per second of wall time; CPU is the workers' and their ffmpeg
//   children's. The workers are not pinned: each takes the machine's CPU budget as its own, as it
//   would on a machine of its own.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { openDatabase } from '../src/db/database.ts';
import { cli, startServer } from './processes.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');
const SERVICE_PORT = 18_110;

export interface PipelineOptions {
  quick: boolean;
  dir: string;
  /** The environment of a service on the bench's bucket (MEDIA_STORAGE=s3 and S3_*). */
  storeEnv: Record<string, string>;
  productionEnv: Record<string, string>;
  nodeFlags: string[];
  log: (line: string) => void;
}

export interface EndToStore {
  endToPublishedMs: number;
  endToStoredMs: number;
  endToPlayingFromStoreMs: number;
}

export interface EncodeRound {
  workers: number;
  videos: number;
  videoSeconds: number;
  wallSeconds: number;
  /** Seconds of video made ready per second of wall time. */
  throughput: number;
  /** CPU seconds (workers and their ffmpeg children) per second of video. */
  cpuSecondsPerVideoSecond: number;
  /** From the start until every video was also on the store. */
  storedWallSeconds: number;
  /**
   * The machine's 1-minute load average when the round began: a worker waits for room on its
   * machine before each ladder (src/transcode/machine-load.ts), so a busy machine slows it.
   */
  loadAverageAtStart: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

function serviceEnv(options: PipelineOptions, name: string): NodeJS.ProcessEnv {
  const dir = path.join(options.dir, name);
  fs.mkdirSync(dir, { recursive: true });
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...options.productionEnv,
    ...options.storeEnv,
    S3_PREFIX: `${name}/`,
    DATABASE_URL: path.join(dir, 'bench.db'),
    DATA_DIR: path.join(dir, 'data'),
    HOST: '127.0.0.1',
    PORT: String(SERVICE_PORT),
    PUBLIC_URL: `http://127.0.0.1:${SERVICE_PORT}`,
    LOG_LEVEL: 'warn',
    TRANSCODE_PRESET: 'veryfast',
  };
}

async function api<T>(base: string, key: string, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: {
      Authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** The stored video's playlist and first segment, answered through the origin. */
async function playsThroughOrigin(base: string, videoId: string): Promise<boolean> {
  const master = await fetch(`${base}/media/videos/${videoId}/index.m3u8`);
  if (master.status !== 200) return false;
  const rendition = (await master.text()).split('\n').find((line) => line.endsWith('.m3u8'));
  const playlistUrl = rendition ? `${base}/media/videos/${videoId}/${rendition}` : undefined;
  const playlist = playlistUrl ? await fetch(playlistUrl) : undefined;
  if (!playlist || playlist.status !== 200 || !playlistUrl) return false;
  const segment = (await playlist.text()).split('\n').find((line) => line.endsWith('.ts'));
  if (!segment) return false;
  const bytes = await fetch(new URL(segment, playlistUrl));
  return bytes.status === 200 && (await bytes.arrayBuffer()).byteLength > 1000;
}

export async function benchEndToStore(options: PipelineOptions): Promise<EndToStore> {
  const env: NodeJS.ProcessEnv = { ...serviceEnv(options, 'end-to-store'), RTMP_PORT: '19350' };
  const user = await cli(env, ['users', 'create', '--name', 'Storage pipeline']);
  const key = await cli(env, ['keys', 'create', '--user', user, '--scope', 'write']);
  const service = await startServer({
    script: 'bin/tributary.js',
    args: ['serve', '--no-worker'],
    env,
    port: SERVICE_PORT,
    logFile: path.join(options.dir, 'end-to-store.log'),
    readyPath: '/readyz',
    nodeFlags: options.nodeFlags,
  });
  const database = openDatabase(env.DATABASE_URL ?? '');
  let push: ChildProcess | undefined;
  try {
    const stream = await api<{ id: string; ingest: { rtmp_url: string; stream_key: string } }>(
      service.baseUrl,
      key,
      'POST',
      '/v1/streams',
      { title: 'Ends, then plays from the store' },
    );
    push = spawn(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-re'],
        ...['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440'],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '60', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
        ...['-f', 'flv', `${stream.ingest.rtmp_url}/${stream.ingest.stream_key}`],
      ],
      { stdio: 'ignore' },
    );
    await until(
      'the stream live',
      async () => {
        const row = await api<{ status: string }>(service.baseUrl, key, 'GET', `/v1/streams/${stream.id}`);
        return row.status === 'live' || undefined;
      },
      30_000,
    );
    options.log(`  live; recording ${options.quick ? 6 : 20} s ...`);
    await sleep(options.quick ? 6_000 : 20_000);
    push.kill('SIGINT');
    await api(service.baseUrl, key, 'POST', `/v1/streams/${stream.id}/end`);
    const ended = performance.now();
    const video = await until(
      'the recording published',
      async () =>
        database.db
          .selectFrom('videos')
          .select('id')
          .where('source_stream_id', '=', stream.id)
          .where('published_at', 'is not', null)
          .executeTakeFirst(),
      120_000,
    );
    const published = performance.now();
    await until(
      'the recording stored',
      async () =>
        (
          await database.db
            .selectFrom('videos')
            .select('media_location')
            .where('id', '=', video.id)
            .executeTakeFirstOrThrow()
        ).media_location === 'object' || undefined,
      120_000,
    );
    const stored = performance.now();
    await until(
      'playing from the store',
      async () => (await playsThroughOrigin(service.baseUrl, video.id)) || undefined,
      30_000,
    );
    const playing = performance.now();
    return {
      endToPublishedMs: Math.round(published - ended),
      endToStoredMs: Math.round(stored - ended),
      endToPlayingFromStoreMs: Math.round(playing - ended),
    };
  } finally {
    push?.kill('SIGKILL');
    await database.close();
    await service.stop();
  }
}

/** utime + stime + cutime + cstime: the process and the children it has reaped (its ffmpegs). */
function cpuMsWithChildren(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 1000) / 100;
}

async function makeClip(file: string, seconds: number): Promise<void> {
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=330'],
    ...['-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '60', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-shortest', file],
  ]);
}

export async function benchEncodeRound(
  options: PipelineOptions,
  workers: number,
  clip: { file: string; seconds: number; count: number },
): Promise<EncodeRound> {
  const name = `encode-${workers}`;
  const env: NodeJS.ProcessEnv = { ...serviceEnv(options, name), RTMP_PORT: '0' };
  const user = await cli(env, ['users', 'create', '--name', 'Encode bench']);
  const key = await cli(env, ['keys', 'create', '--user', user, '--scope', 'write']);
  const service = await startServer({
    script: 'bin/tributary.js',
    args: ['serve', '--no-worker', '--no-ingest', '--no-media-jobs'],
    env,
    port: SERVICE_PORT,
    logFile: path.join(options.dir, `${name}.log`),
    readyPath: '/readyz',
    nodeFlags: options.nodeFlags,
  });
  const database = openDatabase(env.DATABASE_URL ?? '');
  const children: ChildProcess[] = [];
  try {
    const bytes = fs.readFileSync(clip.file);
    const uploads: string[] = [];
    for (let i = 0; i < clip.count; i++) {
      const upload = await api<{ id: string; upload_url: string }>(
        service.baseUrl,
        key,
        'POST',
        '/v1/uploads',
        {
          size: bytes.length,
          title: `Encode ${i + 1}`,
        },
      );
      const sent = await fetch(upload.upload_url, {
        method: 'PATCH',
        headers: {
          'Tus-Resumable': '1.0.0',
          'Upload-Offset': '0',
          'Content-Type': 'application/offset+octet-stream',
        },
        body: bytes,
      });
      if (sent.status !== 204) throw new Error(`upload ${i + 1}: ${sent.status}`);
      uploads.push(upload.id);
    }
    const loadAverageAtStart = Math.round((os.loadavg()[0] ?? 0) * 100) / 100;
    const started = performance.now();
    for (let i = 0; i < workers; i++) {
      const log = fs.openSync(path.join(options.dir, `${name}-worker-${i}.log`), 'w');
      children.push(
        spawn(process.execPath, [...options.nodeFlags, path.join(ROOT, 'bin/tributary.js'), 'media-worker'], {
          cwd: ROOT,
          env,
          stdio: ['ignore', log, log],
        }),
      );
      fs.closeSync(log);
    }
    const cpuAtExit = new Map<ChildProcess, number>();
    const sampleCpu = () => {
      for (const child of children) {
        if (child.exitCode === null && child.pid !== undefined) {
          try {
            cpuAtExit.set(child, cpuMsWithChildren(child.pid));
          } catch {
            // exited between the check and the read
          }
        }
      }
    };
    await until(
      'every upload ready',
      async () => {
        sampleCpu();
        for (const child of children) {
          if (child.exitCode !== null) throw new Error(`a media worker exited with ${child.exitCode}`);
        }
        const rows = await database.db
          .selectFrom('uploads')
          .select('status')
          .where('id', 'in', uploads)
          .execute();
        if (rows.some((row) => row.status === 'errored' || row.status === 'cancelled')) {
          throw new Error('an upload failed to process');
        }
        return rows.every((row) => row.status === 'ready') || undefined;
      },
      1_800_000,
    );
    const ready = performance.now();
    sampleCpu();
    const cpuMs = [...cpuAtExit.values()].reduce((sum, value) => sum + value, 0);
    await until(
      'every video on the store',
      async () => {
        const rows = await database.db
          .selectFrom('videos')
          .select('media_location')
          .where('creator_id', '=', user)
          .execute();
        return (
          (rows.length === clip.count && rows.every((row) => row.media_location === 'object')) || undefined
        );
      },
      300_000,
    );
    const stored = performance.now();
    const wallSeconds = (ready - started) / 1000;
    const videoSeconds = clip.seconds * clip.count;
    return {
      workers,
      videos: clip.count,
      videoSeconds,
      wallSeconds: Math.round(wallSeconds * 10) / 10,
      throughput: Math.round((videoSeconds / wallSeconds) * 100) / 100,
      cpuSecondsPerVideoSecond: Math.round((cpuMs / 1000 / videoSeconds) * 100) / 100,
      storedWallSeconds: Math.round((stored - started) / 100) / 10,
      loadAverageAtStart,
    };
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(
      children.map((child) =>
        child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : Promise.resolve(),
      ),
    );
    await database.close();
    await service.stop();
  }
}

/** Both encode rounds on the same uploads: one worker, then two. */
export async function benchEncodeThroughput(options: PipelineOptions): Promise<EncodeRound[]> {
  const seconds = options.quick ? 6 : 20;
  const count = options.quick ? 2 : 4;
  const file = path.join(options.dir, 'clip.mp4');
  await makeClip(file, seconds);
  const rounds: EncodeRound[] = [];
  for (const workers of [1, 2]) {
    options.log(`  ${count} uploads of ${seconds} s (720p30), ${workers} media worker(s) ...`);
    rounds.push(await benchEncodeRound(options, workers, { file, seconds, count }));
  }
  return rounds;
}
