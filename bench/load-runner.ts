// The load generator, in a process of its own: bench/load.ts starts it pinned to a core the
// server under test does not run on, so generating requests takes nothing from the server.
// It reads its options as one JSON object on stdin, runs autocannon for the warm-up, writes
// `measuring` on a line of its own, runs the measured part, and writes the result as one JSON
// line. Latencies are every 2xx response time autocannon reports (sub-millisecond resolution),
// not its histogram, which rounds to whole milliseconds.
import autocannon from 'autocannon';
import { text } from 'node:stream/consumers';

export interface RunnerOptions {
  url: string;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string | undefined;
  /** Each request asks for one of these, at random. */
  paths: string[];
  /** Each request sends one of these Cookie headers, at random (pages: one per session). */
  cookies?: string[] | undefined;
}

export interface RunnerResult {
  requests: number;
  failures: number;
  statusCounts: Record<string, number>;
  /** Every 2xx response time of the measured part, unsorted. */
  latenciesMs: number[];
  durationSeconds: number;
  /** The runner's own CPU time over the measured part (user + system). */
  cpuMs: number;
}

interface Measured {
  latencies: number[];
  statusCounts: Record<string, number>;
  failures: number;
  durationSeconds: number;
}

async function run(options: RunnerOptions, seconds: number): Promise<Measured> {
  const latencies: number[] = [];
  const statusCounts: Record<string, number> = {};
  const { paths } = options;
  const nextPath =
    paths.length === 1 ? () => paths[0] ?? '/' : () => paths[Math.floor(Math.random() * paths.length)] ?? '/';
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: seconds,
    method: options.method,
    headers: options.headers,
    ...(options.body === undefined ? {} : { body: options.body }),
    requests: [
      {
        setupRequest: (request) => {
          request.path = nextPath();
          const cookies = options.cookies;
          if (cookies !== undefined && cookies.length > 0) {
            const cookie = cookies[Math.floor(Math.random() * cookies.length)] ?? '';
            request.headers = { ...request.headers, cookie };
          }
          return request;
        },
      },
    ],
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
  const result = await instance;
  return {
    latencies,
    statusCounts,
    failures: result.non2xx + result.errors,
    durationSeconds: result.duration,
  };
}

const options = JSON.parse(await text(process.stdin)) as RunnerOptions;
if (options.warmupSeconds > 0) await run(options, options.warmupSeconds);
process.stdout.write('measuring\n');
const cpuBefore = process.cpuUsage();
const { latencies, statusCounts, failures, durationSeconds } = await run(options, options.durationSeconds);
const cpu = process.cpuUsage(cpuBefore);
const output: RunnerResult = {
  requests: latencies.length,
  failures,
  statusCounts,
  latenciesMs: latencies,
  durationSeconds,
  cpuMs: (cpu.user + cpu.system) / 1000,
};
process.stdout.write(`${JSON.stringify(output)}\n`);
