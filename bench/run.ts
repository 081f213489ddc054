// `npm run bench`: seeds a fresh SQLite file, starts the real service on it as production
// does (one process, authentication, rate limits and request logging on), drives it over
// loopback HTTP with autocannon, runs the same requests against a bare node:http server on the
// same file as the practical ceiling, and checks the targets of issue 2.
//
//   npm run bench                      the API (about 4 minutes), then the delivery bench
//   npm run bench -- --quick           smoke run: small data, short durations
//   npm run bench -- --no-deliveries   the API only
//   npm run bench -- --deliveries      the webhook delivery bench only (bench/deliveries.ts)
//   npm run bench -- --ingest          live ingest only (bench/ingest.ts; needs ffmpeg)
//   npm run bench -- --scale           scale-out only: 1 and 2 API processes and workers on
//                                      PostgreSQL + Redis (bench/scale.ts; needs TEST_POSTGRES_URL
//                                      and TEST_REDIS_URL)
//   npm run bench -- --profile         also writes a CPU profile of the service to .bench/profiles
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { measure, poolRuns, type LoadOptions } from './load.ts';
import { cli, startServer, type ServerProcess } from './processes.ts';
import {
  atLeastShareOfBare,
  failuresOf,
  p99Below,
  resultsTable,
  rssBelow,
  sameLatency,
  targetsTable,
  type RunResult,
  type ScenarioResult,
  type TargetCheck,
} from './report.ts';
import { benchDeliveries } from './deliveries.ts';
import { benchIngest } from './ingest.ts';
import { benchScale } from './scale.ts';
import { seedDatabase } from './seed.ts';

// The environment and Node flags of `npm start` (package.json), read rather than copied so the
// bench runs what production runs; the bare server gets the same.
const { env: PRODUCTION_ENV, nodeFlags: PRODUCTION_NODE_FLAGS } = startCommandSettings();

/** `NAME=VALUE ... exec node --flag ... bin/tributary.js serve` -> its assignments and its Node flags. */
function startCommandSettings(): { env: Record<string, string>; nodeFlags: string[] } {
  const manifest = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const words = manifest.scripts.start.split(/\s+/);
  const node = words.indexOf('node');
  if (node < 0) throw new Error(`package.json's start script does not run node: ${manifest.scripts.start}`);
  const env = Object.fromEntries(
    words
      .slice(0, node)
      .filter((word) => word.includes('='))
      .map((assignment) => assignment.split('=', 2) as [string, string]),
  );
  return { env, nodeFlags: words.slice(node + 1).filter((word) => word.startsWith('--')) };
}

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    deliveries: { type: 'boolean', default: false },
    'no-deliveries': { type: 'boolean', default: false },
    ingest: { type: 'boolean', default: false },
    scale: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
  },
});

const WORK_DIR = path.resolve(import.meta.dirname, '..', '.bench');
const SERVICE_PORT = 18_080;
const BARE_PORT = 18_090;
const CONNECTIONS = 50;
const ROUNDS = 2;
const PAGE_SIZE = 100;
const DEEP_PAGE = 1000;

const settings = flags.quick
  ? { publicItems: 20_000, privateItems: 1_000, creators: 200, seconds: 2, warmupSeconds: 1 }
  : { publicItems: 100_000, privateItems: 5_000, creators: 2_000, seconds: 6, warmupSeconds: 3 };

const log = (line: string) => process.stdout.write(`${line}\n`);

async function benchApi(): Promise<boolean> {
  fs.mkdirSync(WORK_DIR, { recursive: true });
  const databaseFile = path.join(WORK_DIR, 'bench.db');
  log(`Seeding ${databaseFile} ...`);
  const seeded = await seedDatabase(databaseFile, settings);
  log(
    `  ${seeded.streams} streams (${seeded.liveStreams} live), ${seeded.videos} videos, ` +
      `${seeded.creators} creators in ${seeded.seconds.toFixed(1)} s`,
  );

  // Only what production would set: no inherited REDIS_URL or the like changes the mode.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...PRODUCTION_ENV,
    DATABASE_URL: databaseFile,
    DATA_DIR: WORK_DIR,
    HOST: '127.0.0.1',
    PORT: String(SERVICE_PORT),
    LOG_LEVEL: 'info',
    // The limiter stays on (every request is counted and gets its headers) without being
    // the bottleneck; 10,000,000 is the highest value config.ts accepts.
    RATE_LIMIT_PER_KEY: '10000000',
  };
  const userId = await cli(env, ['users', 'create', '--name', 'Benchmark client']);
  const key = await cli(env, ['keys', 'create', '--user', userId, '--scope', 'write']);
  const auth = { authorization: `Bearer ${key}` };

  const profileDir = path.join(WORK_DIR, 'profiles');
  const service = await startServer({
    script: 'src/main.ts',
    args: ['serve'],
    env,
    port: SERVICE_PORT,
    logFile: path.join(WORK_DIR, 'service.log'),
    readyPath: '/healthz',
    // The flags `npm start` and `bin/tributary.js` run the service with.
    nodeFlags: [
      ...PRODUCTION_NODE_FLAGS,
      ...(flags.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    ],
  });
  const bare = await startServer({
    script: 'bench/bare-server.ts',
    args: [],
    env: { ...env, BARE_DATABASE: databaseFile, BARE_PORT: String(BARE_PORT), BARE_VIEWER: userId },
    port: BARE_PORT,
    logFile: path.join(WORK_DIR, 'bare.log'),
    readyPath: '/healthz',
    nodeFlags: PRODUCTION_NODE_FLAGS,
  }).catch(async (error: unknown) => {
    // A service left running would hold its port and answer the next run in place of its own.
    await service.stop();
    throw error;
  });

  try {
    const randomStreamPath = () =>
      `/v1/streams/${seeded.streamIds[Math.floor(Math.random() * seeded.streamIds.length)] ?? ''}`;
    const compare = async (
      name: string,
      request: Omit<LoadOptions, 'url' | 'connections' | 'durationSeconds'>,
    ) => {
      // The service and the bare server take turns, ROUNDS times each, so a slow spell of the
      // machine (a busy neighbour on a virtual machine) falls on both sides instead of on
      // whichever happened to run then.
      const serviceRuns: RunResult[] = [];
      const bareRuns: RunResult[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        serviceRuns.push(await load(service, request, auth));
        bareRuns.push(await load(bare, request, {}));
      }
      const scenario: ScenarioResult = { name, service: pooled(serviceRuns), bare: pooled(bareRuns) };
      log(`  ${name}: ${summary(scenario.service)}, peak RSS so far ${service.peakRssMb().toFixed(0)} MB`);
      log(`  ${' '.repeat(name.length)}  bare: ${summary(scenario.bare!)}`);
      return scenario;
    };

    log(
      `Machine: ${os.availableParallelism()} cores, Node ${process.version}, load average ${loadAverage()}`,
    );
    log(
      `Load: ${CONNECTIONS} connections, ${settings.seconds} s per run after ${settings.warmupSeconds} s of warm-up; ` +
        `service and bare server alternate, ${ROUNDS} runs each`,
    );
    const detail = await compare('GET /v1/streams/{id}', { nextPath: randomStreamPath });
    const live = await compare(`GET /v1/streams?status=live&limit=${PAGE_SIZE}`, {
      nextPath: () => `/v1/streams?status=live&limit=${PAGE_SIZE}`,
    });
    const videos = await compare(`GET /v1/videos?limit=${PAGE_SIZE}`, {
      nextPath: () => `/v1/videos?limit=${PAGE_SIZE}`,
    });

    // Depth: the cursor of the deepest page is reached by walking, as a client would.
    const deepPage = Math.min(DEEP_PAGE, Math.floor(settings.publicItems / PAGE_SIZE));
    const firstPath = `/v1/streams?limit=${PAGE_SIZE}`;
    const deepPath = await walkToPage(service, firstPath, deepPage, auth);
    // Page 1 and the deep page take turns like the service and the bare server do, each with
    // all the connections, so a slow spell of the machine falls on both.
    const firstRuns: RunResult[] = [];
    const deepRuns: RunResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      firstRuns.push(await load(service, { nextPath: () => firstPath }, auth));
      deepRuns.push(await load(service, { nextPath: () => deepPath }, auth));
    }
    const pageOne: ScenarioResult = {
      name: `GET /v1/streams?limit=${PAGE_SIZE}, page 1`,
      service: pooled(firstRuns),
    };
    const pageDeep: ScenarioResult = {
      name: `GET /v1/streams?limit=${PAGE_SIZE}, page ${deepPage}`,
      service: pooled(deepRuns),
    };
    log(`  ${pageOne.name}: ${summary(pageOne.service)}`);
    log(`  ${pageDeep.name}: ${summary(pageDeep.service)}`);

    // Writes last: they add streams, which would shift the pages measured above.
    const create = await compare('POST /v1/streams', {
      method: 'POST',
      nextPath: () => '/v1/streams',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Benchmark stream', category: 'gaming' }),
    });

    const servicePeakMb = service.peakRssMb();
    const barePeakMb = bare.peakRssMb();
    const scenarios = [detail, live, videos, pageOne, pageDeep, create];
    const checks: TargetCheck[] = [
      atLeastShareOfBare(detail, 0.6),
      atLeastShareOfBare(live, 0.7),
      atLeastShareOfBare(videos, 0.7),
      sameLatency(pageOne, pageDeep, 0.2),
      p99Below(detail, 20),
      ...[live, videos, pageOne, pageDeep].map((scenario) => p99Below(scenario, 50)),
      rssBelow(servicePeakMb, 250),
    ];

    log(`Load average at the end: ${loadAverage()} (other work on the machine skews the figures)`);
    log('');
    log(resultsTable(scenarios));
    log('');
    log(`Peak RSS (VmHWM): service ${servicePeakMb.toFixed(0)} MB, bare server ${barePeakMb.toFixed(0)} MB`);
    log('');
    log(targetsTable(checks));
    const problems = failuresOf(scenarios);
    for (const problem of problems) log(`INVALID RUN: ${problem}`);
    fs.writeFileSync(
      path.join(WORK_DIR, 'results.json'),
      JSON.stringify({ settings, scenarios, servicePeakMb, barePeakMb, checks }, withoutLatencies, 2),
    );
    return problems.length === 0 && checks.every((check) => check.pass);
  } finally {
    await service.stop();
    await bare.stop();
    if (flags.profile) log(`CPU profile of the service written to ${profileDir}`);
  }
}

async function load(
  server: ServerProcess,
  request: Omit<LoadOptions, 'url' | 'connections' | 'durationSeconds'>,
  auth: Record<string, string>,
): Promise<RunResult> {
  const options: LoadOptions = {
    ...request,
    url: server.baseUrl,
    connections: CONNECTIONS,
    durationSeconds: settings.warmupSeconds,
    headers: { ...request.headers, ...auth },
  };
  await measure(options);
  const serverCpuBefore = server.cpuMs();
  const generatorCpuBefore = process.cpuUsage();
  const result = await measure({ ...options, durationSeconds: settings.seconds });
  const generatorCpu = process.cpuUsage(generatorCpuBefore);
  return {
    ...result,
    cpuUsPerRequest: ((server.cpuMs() - serverCpuBefore) * 1000) / result.requests,
    generatorBusy: (generatorCpu.user + generatorCpu.system) / 1e6 / settings.seconds,
  };
}

/** results.json keeps the figures, not every response time behind them. */
function withoutLatencies(key: string, value: unknown): unknown {
  return key === 'latenciesMs' ? undefined : value;
}

/** The runs of one server as one result: response times pooled, CPU per request averaged. */
function pooled(runs: readonly RunResult[]): RunResult {
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  const seconds = runs.reduce((sum, run) => sum + run.durationSeconds, 0);
  return {
    ...poolRuns(runs),
    cpuUsPerRequest: runs.reduce((sum, run) => sum + run.cpuUsPerRequest * run.requests, 0) / requests,
    generatorBusy: runs.reduce((sum, run) => sum + run.generatorBusy * run.durationSeconds, 0) / seconds,
  };
}

/** Follows next_cursor from `firstPath` until page `page`, and returns that page's path. */
async function walkToPage(
  server: ServerProcess,
  firstPath: string,
  page: number,
  auth: Record<string, string>,
): Promise<string> {
  let pagePath = firstPath;
  for (let current = 1; current < page; current++) {
    const response = await fetch(server.baseUrl + pagePath, { headers: auth });
    const body = (await response.json()) as { pagination?: { next_cursor: string | null } };
    const cursor = body.pagination?.next_cursor;
    if (!response.ok || !cursor)
      throw new Error(`page ${current} of ${firstPath} has no next page (${response.status})`);
    pagePath = `${firstPath}&cursor=${encodeURIComponent(cursor)}`;
  }
  return pagePath;
}

/** The 1-minute load average: anything well above 1 means other processes shared the CPUs. */
function loadAverage(): string {
  return os.loadavg()[0]?.toFixed(2) ?? 'n/a';
}

function summary(result: RunResult): string {
  return (
    `${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50Ms.toFixed(2)} ms, ` +
    `p99 ${result.p99Ms.toFixed(2)} ms, ${result.cpuUsPerRequest.toFixed(0)} µs CPU/req, ` +
    `generator ${(result.generatorBusy * 100).toFixed(0)}% busy`
  );
}

let passed = true;
if (flags.scale) {
  log(JSON.stringify(await benchScale({ quick: flags.quick }), null, 2));
} else if (flags.ingest) {
  log(JSON.stringify(await benchIngest({ quick: flags.quick, log }), null, 2));
} else {
  if (!flags.deliveries) passed = await benchApi();
  if (!flags['no-deliveries']) {
    log('\nWebhook deliveries:');
    log(JSON.stringify(await benchDeliveries(), null, 2));
  }
}
if (!passed) {
  log('\nOne or more targets were missed, or requests failed (see above).');
  process.exitCode = 1;
}
