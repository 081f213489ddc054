// `npm run bench -- --media`: the media origin against Debian's nginx serving the same files
// from the same folder (issue 16). The origin as deployed is deploy/nginx.conf in front of the
// service, sending media from the service's DATA_DIR (its limits, headers and fallbacks
// included); the service alone (what answers in the embedded mode) is measured too. The
// service runs as production runs it (bench/run.ts passes the `npm start` environment and
// flags); each nginx is one process. All are pinned to the server core, the load generator on
// the other, taking turns.
//
// Scenarios: a hot 2 s 720p segment (encoded here by ffmpeg, about 680 KB) and a live stream's
// playlist (written by the project's own renderer: five minutes of 2 s segments, no ENDLIST),
// each fetched by 50 connections over and over. A bare node:http server answering the same
// paths from memory (bench/bare-media-server.ts) runs too, to show what Node itself reaches.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { renderPlaylist } from '../src/hls/hls-playlist.ts';
import { renderOriginConfig } from '../test/deploy/nginx.ts';
import {
  checkPinning,
  GENERATOR_CORE,
  pinned,
  SERVER_CORE,
  startCommand,
  startServer,
  type ServerProcess,
} from './processes.ts';
import { atLeastShareOfBare, failuresOf, targetsTable, type RunResult, type TargetCheck } from './report.ts';

const run = promisify(execFile);

const SERVICE_PORT = 18_081;
const NGINX_PORT = 18_091;
const BARE_PORT = 18_092;
const ORIGIN_PORT = 18_093;
const CONNECTIONS = 50;
const ROUNDS = 2;
const STREAM_ID = 'str_benchmedia';
const SEGMENT = 'p0/seg00000.ts';
/** Five minutes into a live stream. */
const PLAYLIST_SEGMENTS = 150;

export interface MediaBenchOptions {
  quick: boolean;
  workDir: string;
  /** The environment and Node flags of `npm start`. */
  productionEnv: Record<string, string>;
  nodeFlags: string[];
  log: (line: string) => void;
}

interface MediaScenario {
  name: string;
  bytes: number;
  /** deploy/nginx.conf in front of the service: the origin as deployed. */
  origin: RunResult;
  /** The service alone. */
  service: RunResult;
  /** Node's own ceiling: bench/bare-media-server.ts. */
  bare: RunResult;
  nginx: RunResult;
}

export async function benchMedia(options: MediaBenchOptions): Promise<boolean> {
  const { log } = options;
  checkPinning();
  const seconds = options.quick ? 2 : 6;
  const warmupSeconds = options.quick ? 1 : 3;
  const work = path.join(options.workDir, 'media');
  fs.rmSync(work, { recursive: true, force: true });
  const dataDir = path.join(work, 'data');
  const streamDir = path.join(dataDir, 'media', 'streams', STREAM_ID);
  fs.mkdirSync(path.join(streamDir, 'p0'), { recursive: true });

  log('Encoding a 2 s 720p30 segment (H.264 about 2.2 Mb/s, AAC) ...');
  const segmentFile = path.join(streamDir, SEGMENT);
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440'],
    ...['-t', '2', '-c:v', 'libx264', '-preset', 'veryfast', '-b:v', '2150k', '-maxrate', '2150k'],
    ...['-bufsize', '4300k', '-g', '60', '-c:a', 'aac', '-b:a', '128k', '-f', 'mpegts', segmentFile],
  ]);
  const playlist = renderPlaylist({
    publishes: [
      Array.from({ length: PLAYLIST_SEGMENTS }, (_, index) => ({
        duration: 2,
        uri: `p0/seg${String(index).padStart(5, '0')}.ts`,
      })),
    ],
    type: 'EVENT',
    ended: false,
  });
  fs.writeFileSync(path.join(streamDir, 'index.m3u8'), playlist);
  const segmentBytes = fs.statSync(segmentFile).size;
  const playlistBytes = Buffer.byteLength(playlist);
  log(`  segment ${(segmentBytes / 1024).toFixed(0)} KiB, live playlist ${playlistBytes} bytes`);

  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...options.productionEnv,
    DATABASE_URL: path.join(work, 'media-bench.db'),
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(SERVICE_PORT),
    LOG_LEVEL: 'info',
    // One address plays the part of every player: the limiter still counts each fetch (its
    // cost is measured) but never refuses one.
    PLAYLIST_FETCHES_PER_MINUTE: '10000000',
  };
  const service = await startServer({
    script: 'bin/tributary.js',
    args: ['serve', '--no-ingest', '--no-worker'],
    env,
    port: SERVICE_PORT,
    logFile: path.join(work, 'service.log'),
    readyPath: '/healthz',
    nodeFlags: options.nodeFlags,
  });
  let nginx: ServerProcess | undefined;
  let origin: ServerProcess | undefined;
  let bare: ServerProcess | undefined;
  try {
    bare = await startServer({
      script: 'bench/bare-media-server.ts',
      args: [],
      env: { ...env, BARE_MEDIA_PORT: String(BARE_PORT) },
      port: BARE_PORT,
      logFile: path.join(work, 'bare.log'),
      readyPath: `/media/streams/${STREAM_ID}/index.m3u8`,
      nodeFlags: options.nodeFlags,
    });
    const config = writeNginxConfig(work, dataDir);
    nginx = await startCommand({
      command: ['nginx', '-p', work, '-c', config],
      port: NGINX_PORT,
      logFile: path.join(work, 'nginx.out'),
      readyPath: `/media/streams/${STREAM_ID}/index.m3u8`,
    });
    origin = await startCommand({
      command: ['nginx', '-p', work, '-c', writeOriginConfig(work, dataDir)],
      port: ORIGIN_PORT,
      logFile: path.join(work, 'origin-nginx.out'),
      readyPath: `/media/streams/${STREAM_ID}/index.m3u8`,
    });
    log(
      `Machine: ${os.availableParallelism()} cores, Node ${process.version}, load average ${loadAverage()}; ` +
        `servers on core ${SERVER_CORE}, load generator on core ${GENERATOR_CORE}; ${CONNECTIONS} connections, ` +
        `${seconds} s per run after ${warmupSeconds} s of warm-up, the origin, the service, bare Node and nginx take turns, ${ROUNDS} runs each`,
    );
    const scenarios: MediaScenario[] = [];
    for (const [name, file, bytes] of [
      ['hot 2 s 720p segment', SEGMENT, segmentBytes],
      ['live playlist', 'index.m3u8', playlistBytes],
    ] as const) {
      const urlPath = `/media/streams/${STREAM_ID}/${file}`;
      const originRuns: RunResult[] = [];
      const serviceRuns: RunResult[] = [];
      const bareRuns: RunResult[] = [];
      const nginxRuns: RunResult[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        originRuns.push(await load(origin, urlPath, seconds, warmupSeconds));
        serviceRuns.push(await load(service, urlPath, seconds, warmupSeconds));
        bareRuns.push(await load(bare, urlPath, seconds, warmupSeconds));
        nginxRuns.push(await load(nginx, urlPath, seconds, warmupSeconds));
      }
      const scenario = {
        name,
        bytes,
        origin: pooled(originRuns),
        service: pooled(serviceRuns),
        bare: pooled(bareRuns),
        nginx: pooled(nginxRuns),
      };
      log(`  ${name}: origin  ${line(scenario.origin, bytes)}`);
      log(`  ${' '.repeat(name.length)}  service ${line(scenario.service, bytes)}`);
      log(`  ${' '.repeat(name.length)}  node    ${line(scenario.bare, bytes)}`);
      log(`  ${' '.repeat(name.length)}  nginx   ${line(scenario.nginx, bytes)}`);
      scenarios.push(scenario);
    }
    log(`Load average at the end: ${loadAverage()} (other work on the machine skews the figures)`);
    log('');
    log(mediaTable(scenarios));
    const checks: TargetCheck[] = [share(scenarios[0]!, 0.5), share(scenarios[1]!, 0.8)];
    log('');
    log(targetsTable(checks));
    const problems = failuresOf(
      scenarios.flatMap((s) => [
        { name: `${s.name}, the origin`, service: s.origin },
        { name: `${s.name}, the service`, service: s.service },
        { name: `${s.name}, bare Node`, service: s.bare },
        { name: `${s.name}, nginx`, service: s.nginx },
      ]),
    );
    for (const problem of problems) log(`INVALID RUN: ${problem}`);
    fs.writeFileSync(
      path.join(options.workDir, 'media-results.json'),
      JSON.stringify(
        { segmentBytes, playlistBytes, scenarios, checks },
        (key, value: unknown) => (key === 'latenciesMs' ? undefined : value),
        2,
      ),
    );
    return problems.length === 0 && checks.every((check) => check.pass);
  } finally {
    await nginx?.stop();
    await origin?.stop();
    await bare?.stop();
    await service.stop();
  }
}

/**
 * A main configuration for one of the bench's nginx processes, named `name` in `work`: one
 * process (no master, so its CPU time is the whole cost), sendfile, keep-alive as long as
 * Node's, an access log line per request like the service's; `http` holds the rest.
 */
function writeNginxMain(work: string, name: string, http: string): string {
  const file = path.join(work, `${name}.conf`);
  const temp = path.join(work, `${name}-temp`);
  fs.mkdirSync(temp, { recursive: true });
  fs.writeFileSync(
    file,
    `daemon off;
master_process off;
worker_processes 1;
pid ${path.join(work, `${name}.pid`)};
error_log ${path.join(work, `${name}-error.log`)} warn;
events { worker_connections 1024; }
http {
  access_log ${path.join(work, `${name}-access.log`)};
  client_body_temp_path ${temp}/body;
  proxy_temp_path ${temp}/proxy;
  fastcgi_temp_path ${temp}/fastcgi;
  uwsgi_temp_path ${temp}/uwsgi;
  scgi_temp_path ${temp}/scgi;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  keepalive_timeout 75s;
${http}
}
`,
  );
  return file;
}

/** nginx as Debian ships it, reduced to what serving these files needs, and its default validators. */
function writeNginxConfig(work: string, dataDir: string): string {
  return writeNginxMain(
    work,
    'nginx',
    `  types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; image/jpeg jpg; }
  default_type application/octet-stream;
  server {
    listen 127.0.0.1:${NGINX_PORT};
    root ${dataDir};
    location /media/ { }
  }`,
  );
}

/**
 * deploy/nginx.conf as shipped, in front of the service and serving its DATA_DIR. One address
 * plays every player, so the playlist limit is raised out of reach: still counted, never
 * refusing. (Its burst too: nginx reads the clock once per turn of its event loop, and the 50
 * connections' requests within one turn count as one burst.)
 */
function writeOriginConfig(work: string, dataDir: string): string {
  const site = path.join(work, 'origin-site.conf');
  fs.writeFileSync(
    site,
    renderOriginConfig({
      listenPort: ORIGIN_PORT,
      apiPort: SERVICE_PORT,
      dataDir,
      playlistLimit: { rate: '1000000r/s', burst: 1_000_000 },
    }),
  );
  return writeNginxMain(work, 'origin-nginx', `  include ${site};`);
}

/**
 * One measured run with wrk (pinned to the generator core): autocannon, which the API bench
 * uses, parses bodies in JavaScript and tops out near 60 MB/s here, far below either server.
 */
async function load(
  server: ServerProcess,
  urlPath: string,
  durationSeconds: number,
  warmupSeconds: number,
): Promise<RunResult> {
  const url = `${server.baseUrl}${urlPath}`;
  if (warmupSeconds > 0) await wrk(url, warmupSeconds);
  const cpuBefore = server.cpuMs();
  const result = await wrk(url, durationSeconds);
  const cpuMs = server.cpuMs() - cpuBefore;
  return { ...result, cpuUsPerRequest: (cpuMs * 1000) / result.requests };
}

/** wrk's summary as a RunResult (latencies from its distribution: p50 and p99 only). */
async function wrk(url: string, seconds: number): Promise<Omit<RunResult, 'cpuUsPerRequest'>> {
  const [command, ...args] = pinned(GENERATOR_CORE, [
    'wrk',
    ...['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency', url],
  ]);
  const { stdout } = await run(command!, args);
  const number = (pattern: RegExp) => Number(pattern.exec(stdout)?.[1] ?? Number.NaN);
  const millis = (label: string) => {
    const match = new RegExp(`^\\s+${label}%\\s+([\\d.]+)(us|ms|s)$`, 'm').exec(stdout);
    if (!match) return Number.NaN;
    return Number(match[1]) * ({ us: 0.001, ms: 1, s: 1000 } as Record<string, number>)[match[2]!]!;
  };
  const requests = number(/^\s*(\d+) requests in/m);
  const duration = number(/requests in ([\d.]+)s/);
  const non2xx = number(/Non-2xx or 3xx responses: (\d+)/) || 0;
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  const errors = socketErrors ? socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  const p50 = millis('50');
  const p99 = millis('99');
  return {
    requestsPerSecond: (requests - non2xx) / duration,
    p50Ms: p50,
    p99Ms: p99,
    requests: requests - non2xx,
    failures: non2xx + errors,
    statusCounts: non2xx + errors > 0 ? { 'non-2xx': non2xx, 'socket errors': errors } : {},
    // wrk gives percentiles, not every response time: the two it gives stand for the run.
    latenciesMs: [p50, p99],
    durationSeconds: duration,
    generatorBusy: Number.NaN,
  };
}

function pooled(runs: readonly RunResult[]): RunResult {
  const requests = runs.reduce((sum, r) => sum + r.requests, 0);
  const seconds = runs.reduce((sum, r) => sum + r.durationSeconds, 0);
  const statusCounts: Record<string, number> = {};
  for (const r of runs) {
    for (const [status, count] of Object.entries(r.statusCounts)) {
      statusCounts[status] = (statusCounts[status] ?? 0) + count;
    }
  }
  return {
    requestsPerSecond: requests / seconds,
    // wrk's percentiles cannot be pooled: the median run's p50, the worst run's p99.
    p50Ms: Math.max(...runs.map((r) => r.p50Ms)),
    p99Ms: Math.max(...runs.map((r) => r.p99Ms)),
    requests,
    failures: runs.reduce((sum, r) => sum + r.failures, 0),
    statusCounts,
    latenciesMs: [],
    durationSeconds: seconds,
    cpuUsPerRequest: runs.reduce((sum, r) => sum + r.cpuUsPerRequest * r.requests, 0) / requests,
    generatorBusy: Number.NaN,
  };
}

function share(scenario: MediaScenario, minimum: number): TargetCheck {
  return atLeastShareOfBare(
    { name: `${scenario.name}, the origin (vs nginx)`, service: scenario.origin, bare: scenario.nginx },
    minimum,
  );
}

const megabytesPerSecond = (result: RunResult, bytes: number) => (result.requestsPerSecond * bytes) / 1e6;

function line(result: RunResult, bytes: number): string {
  return (
    `${result.requestsPerSecond.toFixed(0)} req/s, ${megabytesPerSecond(result, bytes).toFixed(0)} MB/s, ` +
    `p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, ` +
    `${result.cpuUsPerRequest.toFixed(0)} µs CPU/req`
  );
}

/** A Markdown table, ready for docs/benchmarks.md. */
function mediaTable(scenarios: readonly MediaScenario[]): string {
  const rows = [
    '| Scenario | origin req/s | origin / nginx | service req/s | service / nginx | bare Node / nginx | nginx req/s | nginx MB/s | p99 ms origin, service, nginx | CPU µs/req origin, service, bare Node, nginx |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const percent = (a: RunResult, b: RunResult) =>
    `${((a.requestsPerSecond / b.requestsPerSecond) * 100).toFixed(0)}%`;
  for (const { name, bytes, origin, service, bare, nginx } of scenarios) {
    const all = [origin, service, bare, nginx];
    rows.push(
      `| ${name} (${bytes.toLocaleString('en')} bytes) | ${origin.requestsPerSecond.toFixed(0)} | ` +
        `${percent(origin, nginx)} | ${service.requestsPerSecond.toFixed(0)} | ${percent(service, nginx)} | ` +
        `${percent(bare, nginx)} | ${nginx.requestsPerSecond.toFixed(0)} | ` +
        `${megabytesPerSecond(nginx, bytes).toFixed(0)} | ` +
        `${[origin, service, nginx].map((r) => r.p99Ms.toFixed(2)).join(', ')} | ` +
        `${all.map((r) => r.cpuUsPerRequest.toFixed(0)).join(', ')} |`,
    );
  }
  return rows.join('\n');
}

function loadAverage(): string {
  return os.loadavg()[0]?.toFixed(2) ?? 'n/a';
}
