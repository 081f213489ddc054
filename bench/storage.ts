// `npm run bench -- --storage`: VOD segment throughput through the origin (`tributary serve`)
// from the object store (a real single-node Ceph RADOS Gateway, scripts/ceph-rgw-start.sh)
// against the same from local disk, as a ratio in one run. One library of one video (1 MiB
// segments of random bytes) is served from DATA_DIR, measured, moved with `tributary storage
// migrate --to s3` and measured again, by the same in-process HTTP client (16 connections
// fetching segments in turn). On a 2-core machine the gateway, the service and the client share
// the cores: the ratio is what matters, not the absolute figures.
//
// Then the two figures that need the whole pipeline (bench/storage-pipeline.ts): the time from
// a stream's end to its video playing from the store, and encode throughput with one and two
// media workers.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { clientFor, startGateway } from '../test/helpers/object-store.ts';
import { cli, startServer } from './processes.ts';
import { benchEncodeThroughput, benchEndToStore } from './storage-pipeline.ts';

export interface StorageBenchOptions {
  quick: boolean;
  workDir: string;
  productionEnv: Record<string, string>;
  nodeFlags: string[];
  log: (line: string) => void;
}

const SERVICE_PORT = 18_100;
const MIB = 1024 * 1024;
const CONNECTIONS = 16;

interface Throughput {
  requests: number;
  failures: number;
  mbPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

async function fetchSegments(base: string, names: string[], durationMs: number): Promise<Throughput> {
  const latencies: number[] = [];
  let bytes = 0;
  let failures = 0;
  let next = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        const name = names[next++ % names.length] ?? '';
        const sent = performance.now();
        try {
          const response = await fetch(`${base}/${name}`);
          const body = await response.arrayBuffer();
          if (response.status !== 200) failures++;
          else bytes += body.byteLength;
        } catch {
          failures++;
        }
        latencies.push(performance.now() - sent);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return {
    requests: latencies.length,
    failures,
    mbPerSecond: Math.round((bytes / MIB / seconds) * 10) / 10,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
  };
}

export async function benchStorage(options: StorageBenchOptions): Promise<boolean> {
  const { log } = options;
  const dir = path.join(options.workDir, 'storage');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  log('Starting a single-node Ceph RADOS Gateway ...');
  const gateway = await startGateway();
  let service: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const client = clientFor(gateway);
    const bucket = 'bench-media';
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    client.destroy();
    const storeEnv = {
      MEDIA_STORAGE: 's3',
      S3_ENDPOINT: gateway.endpoint,
      S3_REGION: gateway.region,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: gateway.accessKeyId,
      S3_SECRET_ACCESS_KEY: gateway.secretAccessKey,
    };
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...options.productionEnv,
      DATABASE_URL: path.join(dir, 'bench.db'),
      DATA_DIR: path.join(dir, 'data'),
      HOST: '127.0.0.1',
      PORT: String(SERVICE_PORT),
      PUBLIC_URL: `http://127.0.0.1:${SERVICE_PORT}`,
      RTMP_PORT: '0',
      LOG_LEVEL: 'warn',
      ...storeEnv,
    };
    const creator = await cli(env, ['users', 'create', '--name', 'Storage bench']);
    const videoId = await cli(env, [
      ...['videos', 'publish', '--creator', creator, '--title', 'Bench', '--duration', '120'],
    ]);
    const folder = path.join(dir, 'data', 'media', 'videos', videoId);
    fs.mkdirSync(folder, { recursive: true });
    const names = Array.from({ length: 40 }, (_, i) => `seg_${String(i).padStart(5, '0')}.ts`);
    for (const name of names) fs.writeFileSync(path.join(folder, name), randomBytes(MIB));
    fs.writeFileSync(path.join(folder, 'index.m3u8'), '#EXTM3U\n#EXT-X-ENDLIST\n');

    service = await startServer({
      script: 'bin/tributary.js',
      args: ['serve', '--no-worker', '--no-ingest', '--no-media-jobs'],
      env,
      port: SERVICE_PORT,
      logFile: path.join(dir, 'service.log'),
      readyPath: '/readyz',
      nodeFlags: options.nodeFlags,
    });
    const base = `${service.baseUrl}/media/videos/${videoId}`;
    const durationMs = options.quick ? 4_000 : 15_000;
    await fetchSegments(base, names, 1_000); // warm-up
    log(`Segments from local disk, ${CONNECTIONS} connections, ${durationMs / 1000} s ...`);
    const local = await fetchSegments(base, names, durationMs);
    log('Moving the library to the object store (tributary storage migrate --to s3) ...');
    const moved = performance.now();
    await cli(env, ['storage', 'migrate', '--to', 's3']);
    const migrateSeconds = Math.round((performance.now() - moved) / 100) / 10;
    await fetchSegments(base, names, 1_000); // warm-up
    log(`Segments from the object store (proxied by the origin), ${durationMs / 1000} s ...`);
    const stored = await fetchSegments(base, names, durationMs);
    const ratio =
      local.mbPerSecond === 0 ? 0 : Math.round((stored.mbPerSecond / local.mbPerSecond) * 100) / 100;
    await service.stop();
    service = undefined;

    const pipeline = {
      quick: options.quick,
      dir,
      storeEnv,
      productionEnv: options.productionEnv,
      nodeFlags: options.nodeFlags,
      log,
    };
    log('A live stream recorded, ended, and played from the store ...');
    const endToStore = [await benchEndToStore(pipeline), await benchEndToStore(pipeline)];
    log('Encode throughput, one and two media workers ...');
    const encode = await benchEncodeThroughput(pipeline);
    const [one, two] = encode;
    log(
      JSON.stringify(
        {
          segmentBytes: MIB,
          connections: CONNECTIONS,
          fromLocalDisk: local,
          fromObjectStore: stored,
          storeOverLocalRatio: ratio,
          migrate40MiBSeconds: migrateSeconds,
          streamEndToPlayingFromStore: endToStore,
          encode,
          twoWorkersOverOne:
            one && two && one.throughput > 0
              ? Math.round((two.throughput / one.throughput) * 100) / 100
              : null,
        },
        null,
        2,
      ),
    );
    return local.failures === 0 && stored.failures === 0;
  } finally {
    await service?.stop();
    await gateway.stop();
  }
}
