// The processes under test: the real service started as production starts it, the bare
// ceiling server, and the operator CLI. Each server runs in its own process so its CPU and
// memory are its own, and is stopped by its own pid.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');

export interface ServerProcess {
  baseUrl: string;
  pid: number;
  /** Peak resident memory so far (VmHWM), in megabytes. */
  peakRssMb(): number;
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
  const log = fs.openSync(options.logFile, 'w');
  const child = spawn(
    process.execPath,
    [...(options.nodeFlags ?? []), path.join(ROOT, options.script), ...options.args],
    { cwd: ROOT, env: options.env, stdio: ['ignore', log, log] },
  );
  fs.closeSync(log);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${options.script}`);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const baseUrl = `http://127.0.0.1:${options.port}`;
  await waitUntilReady(`${baseUrl}${options.readyPath}`, child, options.logFile);
  return {
    baseUrl,
    pid,
    peakRssMb: () => peakRssMb(pid),
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

/** VmHWM: the kernel's record of the process's highest resident set size. */
function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(status);
  if (!match) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

const CLOCK_TICKS_PER_SECOND = 100;

/** utime + stime from /proc/<pid>/stat (fields 14 and 15, after the parenthesised name). */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}
