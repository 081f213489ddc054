// Real `tributary` processes for the scale tests, started as production starts them
// (`node bin/tributary.js ...` with the memory settings of its first line) and stopped by their
// own pid with a chosen signal.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { promisify } from 'node:util';
import { SERVER_NODE } from '../helpers/cli.ts';
import { secondsPushed, type Push } from '../helpers/media-tools.ts';
import { freePort } from './redis.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/tributary.js');
const run = promisify(execFile);

/** Runs a one-shot CLI command and returns its output, trimmed. */
export async function tributaryCli(env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [BIN, ...args], { cwd: ROOT, env });
  return stdout.trim();
}

export class ServiceProcess {
  readonly name: string;
  readonly logFile: string;
  private readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  /** Whether this is `tributary` itself, which says on its log which port it bound. */
  readonly isTributary: boolean;

  constructor(name: string, child: ChildProcess, logFile: string, isTributary = true) {
    this.name = name;
    this.child = child;
    this.logFile = logFile;
    this.isTributary = isTributary;
    this.exited = new Promise((resolve) => {
      child.once('exit', (code) => {
        resolve(code);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  get exitCode(): number | null {
    return this.child.exitCode;
  }

  get signalCode(): NodeJS.Signals | null {
    return this.child.signalCode;
  }

  log(): string {
    return fs.readFileSync(this.logFile, 'utf8');
  }

  /** Sends a signal and waits for the process to exit; resolves to its exit code. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (this.running) this.child.kill(signal);
    return this.exited;
  }
}

/**
 * Starts `tributary <args>` (or another `command`) with its output in a log file. Given a test
 * context, the process is killed after the test if it is still up.
 */
export function startService(
  t: Pick<TestContext, 'after'> | null,
  options: { name: string; args: string[]; env: NodeJS.ProcessEnv; logDir: string; command?: string },
): ServiceProcess {
  const logFile = path.join(options.logDir, `${options.name}.log`);
  const log = fs.openSync(logFile, 'w');
  const [command, args] =
    options.command === undefined
      ? [process.execPath, [...SERVER_NODE.flags, BIN, ...options.args]]
      : [options.command, options.args];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: options.command === undefined ? { ...SERVER_NODE.env, ...options.env } : options.env,
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const service = new ServiceProcess(options.name, child, logFile, options.command === undefined);
  t?.after(async () => {
    await service.stop('SIGKILL');
  });
  return service;
}

/**
 * Waits until `url` answers 2xx; fails with the process's log if it exits first. A tributary
 * process must also have said on its log that it listens on `url`'s port: the port was only
 * free a moment ago, and a 2xx from another test's process that took it is not this one ready.
 */
export async function waitUntilReady(
  service: ServiceProcess,
  url: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const listening = `listening at http://localhost:${new URL(url).port}/`;
  while (Date.now() < deadline) {
    if (!service.running) throw new Error(`${service.name} exited early:\n${service.log().slice(-3000)}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok && (!service.isTributary || service.log().includes(listening))) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `${service.name} did not answer ${url} within ${timeoutMs} ms:\n${service.log().slice(-3000)}`,
  );
}

export interface ApiProcess {
  service: ServiceProcess;
  port: number;
  origin: string;
}

/** Starts `tributary serve --no-worker` once per name, each on a free port, ready to answer. */
export async function startApiProcesses(
  t: Pick<TestContext, 'after'> | null,
  names: string[],
  env: NodeJS.ProcessEnv,
  logDir: string,
): Promise<ApiProcess[]> {
  const started: ApiProcess[] = [];
  for (const name of names) {
    const port = await freePort();
    const service = startService(t, {
      name,
      args: ['serve', '--no-worker'],
      env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
      logDir,
    });
    const origin = `http://127.0.0.1:${port}`;
    await waitUntilReady(service, `${origin}/readyz`);
    started.push({ service, port, origin });
  }
  return started;
}

export interface IngestProcess {
  service: ServiceProcess;
  origin: string;
  rtmpPort: number;
  dataDir: string;
}

/** Starts `tributary serve --ingest-only` with its own data folder, HTTP and RTMP ports and INGEST_ID `name`. */
export async function startIngestProcess(
  t: Pick<TestContext, 'after'>,
  name: string,
  env: NodeJS.ProcessEnv,
  logDir: string,
): Promise<IngestProcess> {
  const port = await freePort();
  const rtmpPort = env.RTMP_PORT === undefined ? await freePort() : Number(env.RTMP_PORT);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `tributary-${name}-`));
  t.after(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const service = startService(t, {
    name,
    args: ['serve', '--ingest-only'],
    env: {
      ...env,
      DATA_DIR: dataDir,
      PORT: String(port),
      RTMP_PORT: String(rtmpPort),
      HOST: '127.0.0.1',
      INGEST_ID: name,
      INGEST_ORIGIN_URL: `http://127.0.0.1:${port}`,
    },
    logDir,
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitUntilReady(service, `${origin}/readyz`);
  return { service, origin, rtmpPort, dataDir };
}

/**
 * What the processes of a many-ingest-machines test share: one PostgreSQL database (its data
 * folder for the CLI and the logs; startIngestProcess gives each process its own), short leases
 * so a takeover is quick, a long reconnect window, no ladder; `extra` adds or overrides.
 */
export function ingestTestEnv(
  database: { url: string; dataDir: string },
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    DATABASE_URL: database.url,
    DATA_DIR: database.dataDir,
    SECRET_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'info',
    TRANSCODE: 'off',
    INGEST_LEASE_SECONDS: '3',
    RECONNECT_WINDOW_SECONDS: '60',
    ...extra,
  };
}

/** A push whose progress (seconds sent) can be read while it runs. */
export function progressOf(push: Push): () => number {
  let stderr = '';
  push.process.stderr?.on('data', (chunk: Buffer | string) => {
    stderr += chunk.toString();
  });
  return () => (/out_time_us=\d+/.test(stderr) ? secondsPushed(stderr) : 0);
}
