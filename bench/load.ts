// The load generator's side of a measurement. autocannon runs in a process of its own
// (bench/load-runner.ts) pinned to its own core, so what it costs is not taken from the server
// it measures, which runs pinned to the other core (bench/processes.ts).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { RunnerOptions, RunnerResult } from './load-runner.ts';
import { GENERATOR_CORE, pinned } from './processes.ts';

export interface LoadOptions {
  url: string;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Each request asks for one of these, at random (one path: always that one). */
  paths: string[];
  /** Each request sends one of these Cookie headers, at random (pages: one per session). */
  cookies?: string[];
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Responses other than 2xx, and connection errors: any of them spoils the run. */
  failures: number;
  statusCounts: Record<string, number>;
  /** Every 2xx response time, sorted, so runs can be pooled (see poolRuns). */
  latenciesMs: number[];
  durationSeconds: number;
}

export interface MeasuredLoad extends LoadResult {
  /** The load generator's CPU time over the measured part, in milliseconds. */
  generatorCpuMs: number;
}

const RUNNER = path.join(import.meta.dirname, 'load-runner.ts');

/**
 * Warms up, then measures. `onMeasuring` is called when the warm-up is over and the measured
 * part begins (the caller reads the server's CPU time then, and again when this resolves).
 */
export async function measure(
  options: LoadOptions,
  onMeasuring: () => void = () => {},
): Promise<MeasuredLoad> {
  const runnerOptions: RunnerOptions = {
    url: options.url,
    connections: options.connections,
    warmupSeconds: options.warmupSeconds,
    durationSeconds: options.durationSeconds,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    body: options.body,
    paths: options.paths,
    cookies: options.cookies,
  };
  const [command, ...args] = pinned(GENERATOR_CORE, [process.execPath, RUNNER]);
  const child = spawn(command!, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  child.stdin.end(JSON.stringify(runnerOptions));
  let result: RunnerResult | undefined;
  for await (const line of createInterface({ input: child.stdout })) {
    if (line === 'measuring') onMeasuring();
    else if (line.startsWith('{')) result = JSON.parse(line) as RunnerResult;
  }
  const code = await exited;
  if (code !== 0 || !result) throw new Error(`the load generator exited with ${code} and no result`);
  const latencies = result.latenciesMs.sort((a, b) => a - b);
  return {
    requestsPerSecond: latencies.length / result.durationSeconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    requests: latencies.length,
    failures: result.failures,
    statusCounts: result.statusCounts,
    latenciesMs: latencies,
    durationSeconds: result.durationSeconds,
    generatorCpuMs: result.cpuMs,
  };
}

/** Several runs of the same request as one: every response time pooled, counts summed. */
export function poolRuns(runs: readonly LoadResult[]): LoadResult {
  const latencies = runs.flatMap((run) => run.latenciesMs).sort((a, b) => a - b);
  const durationSeconds = runs.reduce((sum, run) => sum + run.durationSeconds, 0);
  const statusCounts: Record<string, number> = {};
  for (const run of runs) {
    for (const [status, count] of Object.entries(run.statusCounts)) {
      statusCounts[status] = (statusCounts[status] ?? 0) + count;
    }
  }
  return {
    requestsPerSecond: latencies.length / durationSeconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    requests: latencies.length,
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
    statusCounts,
    latenciesMs: latencies,
    durationSeconds,
  };
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}
