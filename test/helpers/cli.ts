// Runs the real `tributary` command as a child process, as an operator would.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
export const CLI = path.join(REPO_ROOT, 'bin/tributary.js');

/**
 * The environment and Node flags the server runs with in production: the first line of
 * bin/tributary.js (`#!/usr/bin/env -S NAME=VALUE ... node --flag ...`). `serve` and `worker`
 * started without them run themselves again in a child process that has them, and a test's
 * SIGKILL would then reach the launching process instead of the server.
 */
export const SERVER_NODE = ((): { env: Record<string, string>; flags: string[] } => {
  const words = (fs.readFileSync(CLI, 'utf8').split('\n')[0] ?? '').split(/\s+/);
  const node = words.indexOf('node');
  return {
    env: Object.fromEntries(
      words.slice(words.indexOf('-S') + 1, node).map((word) => word.split('=', 2) as [string, string]),
    ),
    flags: words.slice(node + 1).filter((word) => word.startsWith('--')),
  };
})();

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunCliOptions {
  /** The working folder (the repository unless given): relative paths in `args` resolve here. */
  cwd?: string;
  /** A command still running after this long is killed (and its result says so by its code). */
  killAfterMs?: number;
  /** Written to the command's standard input, which is then closed (at once when not given). */
  input?: string;
}

export function runCli(
  args: string[],
  env: Record<string, string>,
  options: RunCliOptions = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.end(options.input ?? '');
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer =
      options.killAfterMs === undefined
        ? undefined
        : setTimeout(() => child.kill('SIGKILL'), options.killAfterMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface RunningCli {
  child: ChildProcess;
  /** Everything the process has written to stdout and stderr so far. */
  output: () => string;
}

/** Starts a long-running command (`serve`, `worker`) as production does and collects what it prints. */
export function startCli(args: string[], env: Record<string, string>): RunningCli {
  const child = spawn(process.execPath, [...SERVER_NODE.flags, CLI, ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', ...SERVER_NODE.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}
