// `npm run bench`: seeds a fresh SQLite file, starts the real service on it as production
// does (one process, authentication, rate limits and request logging on), drives it over
// loopback HTTP with autocannon, runs the same requests against a bare node:http server on the
// same file as the practical ceiling, and checks the targets of issues 2 and 11. The server
// under test runs pinned to one core and autocannon in its own process pinned to the other
// (taskset), so the load generator takes nothing from what it measures.
//
//   npm run bench                      the API (about 5 minutes), then the delivery bench
//   npm run bench -- --quick           smoke run: small data, short durations
//   npm run bench -- --no-deliveries   the API only
//   npm run bench -- --deliveries      the webhook delivery bench only (bench/deliveries.ts)
//   npm run bench -- --media           the media origin against nginx only (bench/media.ts;
//                                      needs ffmpeg and nginx)
//   npm run bench -- --pages           the web app's pages only (bench/pages.ts): home (with a
//                                      following feed too), search and the
//                                      creator's streams page, signed in, 20 sessions
//   npm run bench -- --edge            deploy/nginx-edge.conf in front of a live stream with 2,000
//                                      simulated HLS viewers (bench/edge.ts; needs ffmpeg and nginx)
//   npm run bench -- --ingest          live ingest (bench/ingest.ts), the ABR ladder's efficiency,
//                                      capacity and priority (bench/ingest-abr.ts), and the latency
//                                      of both modes (bench/latency.ts), and two ingest processes
//                                      behind the nginx stream balancer (bench/ingest-machines.ts,
//                                      PostgreSQL); needs ffmpeg, Chromium and nginx's stream module
//   npm run bench -- --uploads         a 2 GiB tus upload to the service and to bare node:http,
//                                      taking turns: MB/s and the service's peak RSS
//   npm run bench -- --mail            go-live mails to 10,000 subscribers through a loopback SMTP
//                                      server (bench/mail.ts): time to live, mails/s
//   npm run bench -- --latency         glass-to-glass latency of the three latency modes only
//                                      (realtime played over WebRTC, WHEP; pushed over RTMP,
//                                      then published over WHIP)
//   npm run bench -- --realtime        WebRTC viewers per core (service pinned to one core,
//                                      node-datachannel viewers on the other) and the CPU of the
//                                      AAC-to-Opus step per stream (bench/realtime.ts)
//                                      (2 minutes each, 20 s with --quick)
//   npm run bench -- --scale           scale-out only: 1 and 2 API processes and workers on
//                                      PostgreSQL + Redis (bench/scale.ts; needs TEST_POSTGRES_URL
//                                      and TEST_REDIS_URL)
//   npm run bench -- --storage         VOD segments through the origin from the object store (a
//                                      real Ceph RADOS Gateway) against local disk, as a ratio;
//                                      a stream's end to its video playing from the store; encode
//                                      throughput with 1 and 2 media workers (bench/storage.ts,
//                                      bench/storage-pipeline.ts; needs radosgw ceph-mon ceph-osd)
//   npm run bench -- --chat            live chat only (bench/chat.ts): 1,000 WebSocket clients, 20
//                                      messages/s for 60 s, on 1 and then 2 API processes
//                                      (PostgreSQL + Redis; TEST_POSTGRES_URL, TEST_REDIS_URL)
//   npm run bench -- --profile         also writes CPU profiles of the service and the bare server to .bench/profiles
//   npm run bench -- --no-metrics      the service without its Prometheus endpoint (on otherwise)
//   npm run bench -- --only detail,creator
//                                      some of the API scenarios (detail, creator, platform, lists,
//                                      depth, create); platform: one account owning 20,000 and then
//                                      200,000 streams, each read by its owner (its key shown)
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { measure, poolRuns, type LoadOptions } from './load.ts';
import {
  checkPinning,
  cli,
  GENERATOR_CORE,
  SERVER_CORE,
  startServer,
  type ServerProcess,
} from './processes.ts';
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
import { benchMail } from './mail.ts';
import { benchEdge } from './edge.ts';
import { benchIngest } from './ingest.ts';
import { benchIngestAbr } from './ingest-abr.ts';
import { measureLatency } from './latency.ts';
import { benchRealtime } from './realtime.ts';
import { benchMedia } from './media.ts';
import { benchPages } from './pages.ts';
import { benchScale } from './scale.ts';
import { benchChat } from './chat.ts';
import { benchUploads } from './uploads.ts';
import { benchStorage } from './storage.ts';
import { benchIngestMachines } from './ingest-machines.ts';
import { benchSimulcast } from './simulcast.ts';
import { seedDatabase, seedOwnedStreams } from './seed.ts';

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
    latency: { type: 'boolean', default: false },
    realtime: { type: 'boolean', default: false },
    media: { type: 'boolean', default: false },
    pages: { type: 'boolean', default: false },
    edge: { type: 'boolean', default: false },
    scale: { type: 'boolean', default: false },
    chat: { type: 'boolean', default: false },
    uploads: { type: 'boolean', default: false },
    mail: { type: 'boolean', default: false },
    storage: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    // The service runs with its Prometheus endpoint on (METRICS_PORT), as an operator would;
    // --no-metrics measures it without, for the cost of the metrics.
    'no-metrics': { type: 'boolean', default: false },
    // A comma-separated subset of the API scenarios, for quick iterations.
    only: { type: 'string' },
  },
});

const SCENARIO_GROUPS = ['detail', 'lists', 'depth', 'creator', 'platform', 'create'] as const;
const onlyGroups = flags.only?.split(',').map((group) => group.trim());
for (const group of onlyGroups ?? []) {
  if (!(SCENARIO_GROUPS as readonly string[]).includes(group)) {
    throw new Error(`--only takes ${SCENARIO_GROUPS.join(', ')}; not ${group}`);
  }
}
const wanted = (group: (typeof SCENARIO_GROUPS)[number]) =>
  onlyGroups === undefined || onlyGroups.includes(group);

const WORK_DIR = path.resolve(import.meta.dirname, '..', '.bench');
const SERVICE_PORT = 18_080;
const BARE_PORT = 18_090;
const CONNECTIONS = 50;
// Four shorter turns each rather than two long ones: this machine's speed drifts by up to two
// times from one minute to the next, and with two turns two runs of the same code differed by
// up to 0.13 in a ratio (issue 29's seventh pass).
const ROUNDS = 4;
const PAGE_SIZE = 100;
const DEEP_PAGE = 1000;

const settings = flags.quick
  ? {
      publicItems: 20_000,
      privateItems: 1_000,
      creators: 200,
      ownStreams: 50,
      platformStreams: [2_000, 20_000],
      seconds: 2,
      warmupSeconds: 1,
    }
  : {
      publicItems: 100_000,
      privateItems: 5_000,
      creators: 2_000,
      ownStreams: 200,
      // One account owning this many streams (a platform creating them through the API).
      platformStreams: [20_000, 200_000],
      seconds: 3,
      warmupSeconds: 2,
    };

const log = (line: string) => process.stdout.write(`${line}\n`);

async function benchApi(): Promise<boolean> {
  checkPinning();
  fs.mkdirSync(WORK_DIR, { recursive: true });
  const databaseFile = path.join(WORK_DIR, 'bench.db');
  log(`Seeding ${databaseFile} ...`);
  const seeded = await seedDatabase(databaseFile, settings);
  log(
    `  ${seeded.streams} streams (${seeded.liveStreams} live), ${seeded.videos} videos, ` +
      `${seeded.creators} creators in ${seeded.seconds.toFixed(1)} s`,
  );

  const secretKey = randomBytes(32);
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
    // Given, so the bare server can open the stream keys the service seals.
    SECRET_KEY: secretKey.toString('hex'),
    // The limiter stays on (every request is counted and gets its headers) without being
    // the bottleneck; 10,000,000 is the highest value config.ts accepts.
    RATE_LIMIT_PER_KEY: '10000000',
    ...(flags['no-metrics'] ? {} : { METRICS_PORT: '0' }),
  };
  const userId = await cli(env, ['users', 'create', '--name', 'Benchmark client']);
  const key = await cli(env, ['keys', 'create', '--user', userId, '--scope', 'write']);
  const auth = { authorization: `Bearer ${key}` };

  const profileDir = path.join(WORK_DIR, 'profiles');
  const service = await startServer({
    // Through the command, as `npm start` runs it: its compile cache is part of production.
    script: 'bin/tributary.js',
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
  const serviceIdleRssMb = service.rssMb();
  const bare = await startServer({
    script: 'bench/bare-server.ts',
    args: [],
    env: { ...env, BARE_DATABASE: databaseFile, BARE_PORT: String(BARE_PORT), BARE_VIEWER: userId },
    port: BARE_PORT,
    logFile: path.join(WORK_DIR, 'bare.log'),
    readyPath: '/healthz',
    // Profiled too, into its own folder: the two profiles side by side say where the service's
    // extra time per request goes.
    nodeFlags: [
      ...PRODUCTION_NODE_FLAGS,
      ...(flags.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profileDir, 'bare')}`] : []),
    ],
  }).catch(async (error: unknown) => {
    // A service left running would hold its port and answer the next run in place of its own.
    await service.stop();
    throw error;
  });

  try {
    const compare = async (name: string, request: Request) => {
      // The service and the bare server take turns, ROUNDS times each, so a slow spell of the
      // machine (a busy neighbour on a virtual machine) falls on both sides instead of on
      // whichever happened to run then; who goes first changes every round, so neither always
      // meets what the last seed left behind (pages still being written back).
      const serviceRuns: RunResult[] = [];
      const bareRuns: RunResult[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const serviceFirst = round % 2 === 0;
        if (serviceFirst) serviceRuns.push(await load(service, request, auth));
        bareRuns.push(await load(bare, request, {}));
        if (!serviceFirst) serviceRuns.push(await load(service, request, auth));
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
        `servers on core ${SERVER_CORE}, the load generator in its own process on core ${GENERATOR_CORE}; ` +
        `service and bare server alternate, ${ROUNDS} runs each`,
    );
    log(`Service RSS at idle: ${serviceIdleRssMb.toFixed(0)} MB`);
    log(
      `Metrics (METRICS_PORT): ${flags['no-metrics'] ? 'off (--no-metrics)' : 'on, every request counted'}`,
    );
    const scenarios: ScenarioResult[] = [];
    const checks: TargetCheck[] = [];

    if (wanted('detail')) {
      const detail = await compare('GET /v1/streams/{id}, another account', {
        paths: seeded.streamIds.map((id) => `/v1/streams/${id}`),
      });
      scenarios.push(detail);
      checks.push(atLeastShareOfBare(detail, 0.75), p99Below(detail, 20));
    }

    if (wanted('lists')) {
      const live = await compare(`GET /v1/streams?status=live&limit=${PAGE_SIZE}`, {
        paths: [`/v1/streams?status=live&limit=${PAGE_SIZE}`],
      });
      const videos = await compare(`GET /v1/videos?limit=${PAGE_SIZE}`, {
        paths: [`/v1/videos?limit=${PAGE_SIZE}`],
      });
      scenarios.push(live, videos);
      checks.push(
        atLeastShareOfBare(live, 0.8),
        atLeastShareOfBare(videos, 0.8),
        p99Below(live, 50),
        p99Below(videos, 50),
      );
    }

    if (wanted('depth')) {
      // Depth: the cursor of the deepest page is reached by walking, as a client would.
      const deepPage = Math.min(DEEP_PAGE, Math.floor(settings.publicItems / PAGE_SIZE));
      const firstPath = `/v1/streams?limit=${PAGE_SIZE}`;
      const deepPath = await walkToPage(service, firstPath, deepPage, auth);
      // Page 1 and the deep page take turns like the service and the bare server do, each with
      // all the connections, so a slow spell of the machine falls on both.
      const firstRuns: RunResult[] = [];
      const deepRuns: RunResult[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        firstRuns.push(await load(service, { paths: [firstPath] }, auth));
        deepRuns.push(await load(service, { paths: [deepPath] }, auth));
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
      scenarios.push(pageOne, pageDeep);
      checks.push(sameLatency(pageOne, pageDeep, 0.2), p99Below(pageOne, 50), p99Below(pageDeep, 50));
    }

    // From here on streams are added, which would shift the pages measured above.
    if (wanted('creator')) {
      // The client's own streams, created through the service so their keys are sealed as
      // production seals them: reading one shows its creator the stream key.
      const ownIds: string[] = [];
      for (let index = 0; index < settings.ownStreams; index++) {
        const response = await fetch(`${service.baseUrl}/v1/streams`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ title: `Own stream ${index}`, category: 'gaming' }),
        });
        const created = (await response.json()) as { id: string; ingest?: { stream_key: string } };
        if (response.status !== 201 || !created.ingest)
          throw new Error(`could not create a stream: ${response.status}`);
        ownIds.push(created.id);
      }
      const own = await compare('GET /v1/streams/{id}, its creator', {
        paths: ownIds.map((id) => `/v1/streams/${id}`),
      });
      scenarios.splice(wanted('detail') ? 1 : 0, 0, own);
      checks.push(atLeastShareOfBare(own, 0.75), p99Below(own, 20));
    }

    if (wanted('platform')) {
      // One account owning tens of thousands of streams, reading them as their owner (the
      // answer carries each stream's key): no cache of opened keys covers them all.
      const platformIds: string[] = [];
      for (const total of settings.platformStreams) {
        const added = await seedOwnedStreams(databaseFile, {
          ownerId: userId,
          secretKey,
          count: total - platformIds.length,
          from: platformIds.length,
        });
        for (const id of added) platformIds.push(id);
        const owned = await compare(`GET /v1/streams/{id}, owner of ${total.toLocaleString('en')} streams`, {
          paths: platformIds.map((id) => `/v1/streams/${id}`),
        });
        scenarios.push(owned);
        checks.push(atLeastShareOfBare(owned, 0.85), p99Below(owned, 20));
      }
    }

    if (wanted('create')) {
      const create = await compare('POST /v1/streams', {
        method: 'POST',
        paths: ['/v1/streams'],
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Benchmark stream', category: 'gaming' }),
      });
      scenarios.push(create);
    }

    const servicePeakMb = service.peakRssMb();
    const barePeakMb = bare.peakRssMb();
    checks.push(rssBelow(servicePeakMb, 200));

    log(`Load average at the end: ${loadAverage()} (other work on the machine skews the figures)`);
    log('');
    log(resultsTable(scenarios));
    log('');
    log(
      `RSS: service ${serviceIdleRssMb.toFixed(0)} MB at idle, peak (VmHWM) ${servicePeakMb.toFixed(0)} MB; ` +
        `bare server peak ${barePeakMb.toFixed(0)} MB`,
    );
    log('');
    log(targetsTable(checks));
    const problems = failuresOf(scenarios);
    for (const problem of problems) log(`INVALID RUN: ${problem}`);
    fs.writeFileSync(
      path.join(WORK_DIR, 'results.json'),
      JSON.stringify(
        { settings, scenarios, serviceIdleRssMb, servicePeakMb, barePeakMb, checks },
        withoutLatencies,
        2,
      ),
    );
    return problems.length === 0 && checks.every((check) => check.pass);
  } finally {
    await service.stop();
    await bare.stop();
    if (flags.profile)
      log(`CPU profiles of the service and the bare server written to ${profileDir} and ${profileDir}/bare`);
  }
}

/** What one scenario asks for; the url, connections, durations and key are added per run. */
type Request = Pick<LoadOptions, 'method' | 'headers' | 'body' | 'paths'>;

async function load(
  server: ServerProcess,
  request: Request,
  auth: Record<string, string>,
): Promise<RunResult> {
  let serverCpuBefore = 0;
  const result = await measure(
    {
      ...request,
      url: server.baseUrl,
      connections: CONNECTIONS,
      warmupSeconds: settings.warmupSeconds,
      durationSeconds: settings.seconds,
      headers: { ...request.headers, ...auth },
    },
    () => {
      serverCpuBefore = server.cpuMs();
    },
  );
  const { generatorCpuMs, ...measured } = result;
  return {
    ...measured,
    cpuUsPerRequest: ((server.cpuMs() - serverCpuBefore) * 1000) / result.requests,
    generatorBusy: generatorCpuMs / 1000 / result.durationSeconds,
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
/** Glass-to-glass latency of the three modes, then realtime published over WHIP (bench/latency.ts). */
async function benchLatency(): Promise<boolean> {
  let met = true;
  const runs = [
    { mode: 'normal', ingest: 'rtmp' },
    { mode: 'low', ingest: 'rtmp' },
    { mode: 'realtime', ingest: 'rtmp' },
    { mode: 'realtime', ingest: 'whip' },
  ] as const;
  for (const { mode, ingest } of runs) {
    const figures = await measureLatency({ mode, ingest, seconds: flags.quick ? 20 : 120, log });
    log(JSON.stringify(figures, null, 2));
    if (!figures.met) met = false;
  }
  return met;
}

if (flags.scale) {
  log(JSON.stringify(await benchScale({ quick: flags.quick }), null, 2));
} else if (flags.chat) {
  const figures = await benchChat({ quick: flags.quick });
  log(JSON.stringify(figures, null, 2));
  passed = figures.every((f) => f.met);
} else if (flags.media) {
  passed = await benchMedia({
    quick: flags.quick,
    workDir: WORK_DIR,
    productionEnv: PRODUCTION_ENV,
    nodeFlags: PRODUCTION_NODE_FLAGS,
    log,
  });
} else if (flags.pages) {
  passed = await benchPages({
    quick: flags.quick,
    workDir: WORK_DIR,
    productionEnv: PRODUCTION_ENV,
    nodeFlags: [
      ...PRODUCTION_NODE_FLAGS,
      ...(flags.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(WORK_DIR, 'profiles')}`] : []),
    ],
    log,
  });
} else if (flags.edge) {
  passed = await benchEdge({
    quick: flags.quick,
    workDir: WORK_DIR,
    productionEnv: PRODUCTION_ENV,
    nodeFlags: PRODUCTION_NODE_FLAGS,
    log,
  });
} else if (flags.ingest) {
  log(JSON.stringify(await benchIngest({ quick: flags.quick, log }), null, 2));
  log('\nAdaptive bitrate (bench/ingest-abr.ts):');
  const abr = await benchIngestAbr({ quick: flags.quick, log });
  log(JSON.stringify(abr, null, 2));
  if (abr.efficiency.ratio < abr.efficiency.target || !abr.importBesideLive.liveKeptUp) passed = false;
  log('\nSimulcast (bench/simulcast.ts):');
  log(JSON.stringify(await benchSimulcast({ quick: flags.quick, log }), null, 2));
  log('\nLatency (bench/latency.ts):');
  if (!(await benchLatency())) passed = false;
  log('\nMany ingest machines (bench/ingest-machines.ts):');
  log(JSON.stringify(await benchIngestMachines({ quick: flags.quick, log }), null, 2));
} else if (flags.uploads) {
  passed = await benchUploads({
    quick: flags.quick,
    workDir: WORK_DIR,
    productionEnv: PRODUCTION_ENV,
    nodeFlags: PRODUCTION_NODE_FLAGS,
    log,
  });
} else if (flags.storage) {
  passed = await benchStorage({
    quick: flags.quick,
    workDir: WORK_DIR,
    productionEnv: PRODUCTION_ENV,
    nodeFlags: PRODUCTION_NODE_FLAGS,
    log,
  });
} else if (flags.latency) {
  passed = await benchLatency();
} else if (flags.realtime) {
  log('Realtime over WebRTC (bench/realtime.ts):');
  log(JSON.stringify(await benchRealtime({ quick: flags.quick, log }), null, 2));
} else if (flags.mail) {
  log('Go-live mails (bench/mail.ts):');
  const figures = await benchMail();
  log(JSON.stringify(figures, null, 2));
  passed = figures.mails.all_accepted;
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
