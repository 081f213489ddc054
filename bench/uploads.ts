// `npm run bench -- --uploads`: a 2 GiB file (256 MiB with --quick) sent by tus-js-client over
// loopback to the real service (`serve` as production runs it, media jobs off so only the
// receiving is measured) and to bare node:http writing the same bytes to the same disk
// (bench/bare-upload-server.ts), taking turns on the server core; the client runs pinned to the
// other core. Reports throughput (MB/s, excluding retry back-off: there is none, nothing fails)
// and the service's peak resident memory, against the targets of issue 22: at least 100 MB/s,
// and under 250 MB of memory while a 2 GiB upload arrives.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { checkPinning, cli, GENERATOR_CORE, pinned, startServer, type ServerProcess } from './processes.ts';
import { targetsTable, type TargetCheck } from './report.ts';

const run = promisify(execFile);
const SERVICE_PORT = 18_082;
const BARE_PORT = 18_094;
const ROUNDS = 2;
const MB = 1_000_000;
const MIB = 1024 * 1024;

export interface UploadBenchOptions {
  quick: boolean;
  workDir: string;
  productionEnv: Record<string, string>;
  nodeFlags: string[];
  log: (line: string) => void;
}

interface Sent {
  bytes: number;
  seconds: number;
}

export async function benchUploads(options: UploadBenchOptions): Promise<boolean> {
  checkPinning();
  const { log } = options;
  const dir = path.join(options.workDir, 'uploads');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const size = (options.quick ? 256 : 2048) * MIB;
  const file = path.join(dir, 'source.bin');
  log(`Writing a ${size / MIB} MiB file of random bytes ...`);
  await writeRandomFile(file, size);

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
    LOG_LEVEL: 'info',
  };
  const userId = await cli(env, ['users', 'create', '--name', 'Upload bench']);
  const key = await cli(env, ['keys', 'create', '--user', userId, '--scope', 'write']);
  const service = await startServer({
    script: 'bin/tributary.js',
    args: ['serve', '--no-worker', '--no-ingest', '--no-media-jobs'],
    env,
    port: SERVICE_PORT,
    logFile: path.join(dir, 'service.log'),
    readyPath: '/readyz',
    nodeFlags: options.nodeFlags,
  });
  const idleRssMb = service.rssMb();
  const bareDir = path.join(dir, 'bare');
  fs.mkdirSync(bareDir);
  const bare = await startServer({
    script: 'bench/bare-upload-server.ts',
    args: [String(BARE_PORT), bareDir],
    env: { ...process.env, ...options.productionEnv },
    port: BARE_PORT,
    logFile: path.join(dir, 'bare.log'),
    readyPath: '/healthz',
    nodeFlags: options.nodeFlags,
  });

  const serviceRuns: Sent[] = [];
  const bareRuns: Sent[] = [];
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const uploadUrl = await createUpload(service, key, size);
      const sent = await send(uploadUrl, file);
      serviceRuns.push(sent);
      log(`  round ${round}: service ${rate(sent)} MB/s, peak RSS ${service.peakRssMb().toFixed(0)} MB`);
      await removeUploads(path.join(dir, 'data', 'uploads'));
      const bareSent = await send(`http://127.0.0.1:${BARE_PORT}/round-${round}?size=${size}`, file);
      bareRuns.push(bareSent);
      log(`  round ${round}: bare node:http ${rate(bareSent)} MB/s`);
      fs.rmSync(path.join(bareDir, `round-${round}`), { force: true });
    }
  } finally {
    const peak = service.peakRssMb();
    await Promise.all([service.stop(), bare.stop()]);
    log(`  service peak RSS ${peak.toFixed(0)} MB (idle ${idleRssMb.toFixed(0)} MB)`);
    fs.rmSync(dir, { recursive: true, force: true });
    report(options, serviceRuns, bareRuns, peak, idleRssMb, size);
  }
  return lastChecks.every((check) => check.pass);
}

let lastChecks: TargetCheck[] = [];

function report(
  options: UploadBenchOptions,
  serviceRuns: Sent[],
  bareRuns: Sent[],
  peakRssMb: number,
  idleRssMb: number,
  size: number,
): void {
  const best = (runs: Sent[]) => Math.max(...runs.map((sent) => sent.bytes / sent.seconds / MB));
  const mean = (runs: Sent[]) =>
    runs.reduce((sum, sent) => sum + sent.bytes, 0) / runs.reduce((sum, sent) => sum + sent.seconds, 0) / MB;
  const serviceRate = mean(serviceRuns);
  const bareRate = mean(bareRuns);
  lastChecks = [
    {
      target: 'upload throughput over loopback: at least 100 MB/s',
      measured: `${serviceRate.toFixed(0)} MB/s (best ${best(serviceRuns).toFixed(0)})`,
      pass: serviceRate >= 100,
    },
    {
      target: `peak RSS while a ${size / MIB} MiB upload arrives: under 250 MB`,
      measured: `${peakRssMb.toFixed(0)} MB (idle ${idleRssMb.toFixed(0)} MB)`,
      pass: peakRssMb < 250,
    },
  ];
  options.log(
    JSON.stringify(
      {
        fileMiB: size / MIB,
        chunkMiB: 64,
        serviceMBps: Math.round(serviceRate),
        bareMBps: Math.round(bareRate),
        shareOfBare: Math.round((serviceRate / bareRate) * 100) / 100,
        servicePeakRssMb: Math.round(peakRssMb),
        serviceIdleRssMb: Math.round(idleRssMb),
        rounds: { service: serviceRuns, bare: bareRuns },
      },
      null,
      2,
    ),
  );
  options.log(targetsTable(lastChecks));
}

function rate(sent: Sent): string {
  return (sent.bytes / sent.seconds / MB).toFixed(0);
}

async function createUpload(service: ServerProcess, key: string, size: number): Promise<string> {
  const response = await fetch(`${service.baseUrl}/v1/uploads`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ size, title: 'Bench upload' }),
  });
  const body = (await response.json()) as { upload_url?: string };
  if (response.status !== 201 || !body.upload_url) throw new Error(`creating the upload: ${response.status}`);
  return body.upload_url;
}

/** The client, pinned to the generator core. */
async function send(uploadUrl: string, file: string): Promise<Sent> {
  const [command, ...args] = pinned(GENERATOR_CORE, [
    process.execPath,
    path.join(import.meta.dirname, 'upload-client.ts'),
    uploadUrl,
    file,
  ]);
  const { stdout } = await run(command ?? 'taskset', args, { maxBuffer: 1024 * 1024 });
  return JSON.parse(stdout) as Sent;
}

async function removeUploads(folder: string): Promise<void> {
  for (const name of fs.existsSync(folder) ? fs.readdirSync(folder) : []) {
    await fs.promises.rm(path.join(folder, name), { force: true });
  }
}

async function writeRandomFile(file: string, size: number): Promise<void> {
  const out = fs.createWriteStream(file);
  const block = randomBytes(8 * MIB);
  for (let written = 0; written < size; written += block.length) {
    // One random block, varied per write: incompressible enough, and fast to make.
    block.writeUInt32LE(written / block.length, 0);
    if (!out.write(block)) {
      await new Promise<void>((resolve) => {
        out.once('drain', () => {
          resolve();
        });
      });
    }
  }
  await new Promise<void>((resolve, reject) => {
    out.end((error?: Error | null) => {
      if (error) reject(error);
      else resolve();
    });
  });
}
