// The processes under test: the real service started as production starts it, the bare
// ceiling server, and the operator CLI. Each server runs in its own process so its CPU and
// memory are its own, and is stopped by its own pid.
import { randomBytes } from 'node:crypto';
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');

// The server under test runs on one core and the load generator on the other, so neither
// takes CPU from the other (taskset, from util-linux). Both servers run on the same core and
// take turns; the one not being measured is idle.
export const SERVER_CORE = 0;
export const GENERATOR_CORE = 1;

/** `command` run by taskset on one core; the pid stays the command's (taskset execs it). */
export function pinned(core: number, command: string[]): string[] {
  return ['taskset', '--cpu-list', String(core), ...command];
}

/** Refuses to measure when the cores cannot be kept apart: the figures would flatter the server. */
export function checkPinning(): void {
  const cores = os.availableParallelism();
  if (cores < 2)
    throw new Error(
      `the bench needs 2 cores (one for the server, one for the load); this process has ${cores}`,
    );
  try {
    execFileSync('taskset', ['--cpu-list', String(GENERATOR_CORE), 'true']);
  } catch (error) {
    throw new Error(`taskset (util-linux) could not pin to core ${GENERATOR_CORE}`, { cause: error });
  }
}

export interface ServerProcess {
  baseUrl: string;
  pid: number;
  /** Peak resident memory so far (VmHWM), in megabytes. */
  peakRssMb(): number;
  /** Resident memory now (VmRSS), in megabytes. */
  rssMb(): number;
  /** CPU time used so far, user and system, in milliseconds. */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** Runs `node bin/tributary.js ...` and returns its one line of output. */
export async function cli(env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [path.join(ROOT, 'bin/tributary.js'), ...args], {
    cwd: ROOT,
    env,
  });
  return stdout.trim();
}

/**
 * Starts a server script and waits until it answers `readyPath`. Output goes to `logFile`:
 * the service logs one JSON line per request, as it would in production.
 */
export async function startServer(options: {
  script: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  port: number;
  logFile: string;
  readyPath: string;
  nodeFlags?: string[];
}): Promise<ServerProcess> {
  return startCommand({
    command: [
      process.execPath,
      ...(options.nodeFlags ?? []),
      path.join(ROOT, options.script),
      ...options.args,
    ],
    env: options.env,
    port: options.port,
    logFile: options.logFile,
    readyPath: options.readyPath,
  });
}

/**
 * Starts a server (a Node script through startServer, or nginx) pinned to the server core, and
 * waits until it answers `readyPath`.
 */
export async function startCommand(options: {
  command: string[];
  env?: NodeJS.ProcessEnv;
  port: number;
  logFile: string;
  readyPath: string;
}): Promise<ServerProcess> {
  const log = fs.openSync(options.logFile, 'w');
  const [command, ...args] = pinned(SERVER_CORE, options.command);
  const child = spawn(command!, args, {
    cwd: ROOT,
    env: options.env ?? process.env,
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${options.command.join(' ')}`);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const baseUrl = `http://127.0.0.1:${options.port}`;
  await waitUntilReady(`${baseUrl}${options.readyPath}`, child, options.logFile);
  return {
    baseUrl,
    pid,
    peakRssMb: () => statusMb(pid, 'VmHWM'),
    rssMb: () => statusMb(pid, 'VmRSS'),
    cpuMs: () => cpuMs(pid),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function waitUntilReady(url: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(
        `${url} exited with ${child.exitCode}:\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`,
      );
    }
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGTERM');
  throw new Error(`${url} did not answer within 30 s; see ${logFile}`);
}

/** A memory figure of /proc/<pid>/status: VmHWM is the kernel's record of the highest resident set size. */
function statusMb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

const CLOCK_TICKS_PER_SECOND = 100;

/** utime + stime from /proc/<pid>/stat (fields 14 and 15, after the parenthesised name). */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** What `startBenchService` started: the service's base URL, a creator's write key, the process. */
export interface BenchService {
  baseUrl: string;
  writeKey: string;
  service: ServerProcess;
  dataDir: string;
}

/**
 * `bin/tributary.js serve` as `npm start` runs it, on a fresh data folder (SQLite), with a
 * creator's write key (made with the operator CLI), for the media benches (bench/latency.ts,
 * bench/realtime.ts). `cleanups` (run in reverse) gets the folder's removal and the stop.
 */
export async function startBenchService(options: {
  /** Names the data folder and the creator. */
  name: string;
  port: number;
  rtmpPort: number;
  logLevel: string;
  /** More settings for the service. */
  env?: NodeJS.ProcessEnv;
  cleanups: (() => Promise<void> | void)[];
}): Promise<BenchService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `tributary-bench-${options.name}-`));
  options.cleanups.push(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const baseUrl = `http://127.0.0.1:${options.port}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: path.join(dataDir, 'bench.db'),
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(options.port),
    PUBLIC_URL: baseUrl,
    RTMP_PORT: String(options.rtmpPort),
    LOG_LEVEL: options.logLevel,
    SECRET_KEY: randomBytes(32).toString('hex'),
    ...options.env,
  };
  const userId = await cli(env, ['users', 'create', '--name', `${options.name} bench`]);
  const writeKey = await cli(env, ['keys', 'create', '--user', userId, '--scope', 'write']);
  const service = await startServer({
    script: 'bin/tributary.js',
    args: ['serve'],
    env,
    port: options.port,
    logFile: path.join(dataDir, 'service.log'),
    readyPath: '/healthz',
  });
  options.cleanups.push(() => service.stop());
  return { baseUrl, writeKey, service, dataDir };
}
