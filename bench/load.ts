// A thin wrapper over autocannon. Latency percentiles are computed here from every response
// time autocannon reports (sub-millisecond resolution) rather than from its histogram, which
// rounds to whole milliseconds: a 1.4 ms p50 should not read as 1 ms or 2 ms.
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** The path of each request: a function, so it can differ every time (a random id, say). */
  nextPath: () => string;
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

export async function measure(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  const statusCounts: Record<string, number> = {};
  const nextPath = options.nextPath;
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(options.body === undefined ? {} : { body: options.body }),
    requests: [{ setupRequest: (request) => ({ ...request, path: nextPath() }) }],
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  const failures = result.non2xx + result.errors;
  return {
    requestsPerSecond: latencies.length / result.duration,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    requests: latencies.length,
    failures,
    statusCounts,
    latenciesMs: latencies,
    durationSeconds: result.duration,
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
