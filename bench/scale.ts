// Scale-out bench: `GET /v1/streams/{id}` with 1 and with 2 API processes, and webhook
// deliveries with 1 and with 2 workers, all on one PostgreSQL database (and Redis for the
// shared rate limits), every process started as production starts it. It also reports how
// much CPU each part used during each run, which is where the bottleneck shows.
//
//   node bench/scale.ts            (TEST_POSTGRES_URL and TEST_REDIS_URL as for the tests)
//   node bench/scale.ts --quick    short runs
//
// Read the figures knowing the machine: the load generator (autocannon), the receivers,
// PostgreSQL and Redis share its cores with the processes under test.
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase, type Db } from '../src/db/database.ts';
import { announceOutboxWrite } from '../src/events/outbox-signal.ts';
import { newId } from '../src/shared/ids.ts';
import { createTestDatabase, POSTGRES_ADMIN_URL } from '../test/helpers/databases.ts';
import { startReceiver, type HttpsReceiver } from '../test/helpers/https-receiver.ts';
import { testCa } from '../test/helpers/test-ca.ts';
import { startService, tributaryCli, waitUntilReady, type ServiceProcess } from '../test/scale/processes.ts';
import { freePort, REDIS_URL } from '../test/scale/redis.ts';

export interface LoadFigures {
  processes: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
  /** CPU seconds per second of run, by part (1.0 = one core busy). */
  cpu: Record<string, number>;
}

export interface DeliveryFigures {
  workers: number;
  deliveries: number;
  deliveriesPerSecond: number;
  /** From the event's commit to its arrival at the receiver. */
  p50Ms: number;
  p99Ms: number;
  cpu: Record<string, number>;
}

export interface ScaleFigures {
  cores: number;
  api: LoadFigures[];
  deliveries: DeliveryFigures[];
}

const CONNECTIONS = 64;
const RECEIVERS = 5;

const log = (line: string) => process.stdout.write(`${line}\n`);

export async function benchScale(options: { quick?: boolean } = {}): Promise<ScaleFigures> {
  if (!POSTGRES_ADMIN_URL || !REDIS_URL) {
    throw new Error('bench/scale.ts needs TEST_POSTGRES_URL and TEST_REDIS_URL (see .ci/run)');
  }
  const seconds = options.quick ? 3 : 10;
  const warmupSeconds = options.quick ? 1 : 3;
  const events = options.quick ? 400 : 2000;

  const database = await createTestDatabase('postgres');
  const handle = openDatabase(database.url, { poolSize: 2 });
  const services: ServiceProcess[] = [];
  const receivers: HttpsReceiver[] = [];
  try {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      SECRET_KEY: randomBytes(32).toString('hex'),
      REDIS_URL,
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_KEY: '10000000',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      NODE_EXTRA_CA_CERTS: testCa().caFile,
    };
    await tributaryCli(env, ['migrate']);
    const userId = await tributaryCli(env, ['users', 'create', '--name', 'Scale bench']);
    const key = await tributaryCli(env, ['keys', 'create', '--user', userId, '--scope', 'write']);
    const auth = { authorization: `Bearer ${key}` };

    const startApis = async (count: number) => {
      const origins: string[] = [];
      const started: ServiceProcess[] = [];
      for (let i = 0; i < count; i++) {
        const port = await freePort();
        const api = startService(null, {
          name: `api-${count}-${i + 1}`,
          args: ['serve', '--no-worker'],
          env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
          logDir: database.dataDir,
        });
        services.push(api);
        started.push(api);
        await waitUntilReady(api, `http://127.0.0.1:${port}/readyz`);
        origins.push(`http://127.0.0.1:${port}`);
      }
      return { origins, started };
    };

    // Streams to read, created through the API.
    const seed = await startApis(1);
    const streamIds: string[] = [];
    for (let i = 0; i < 200; i++) {
      const response = await fetch(`${seed.origins[0] ?? ''}/v1/streams`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Scale bench ${i}` }),
      });
      streamIds.push(((await response.json()) as { id: string }).id);
    }
    // The webhooks the delivery runs send to, registered through the API too.
    for (let i = 0; i < RECEIVERS; i++) {
      const receiver = await startReceiver();
      receivers.push(receiver);
      const response = await fetch(`${seed.origins[0] ?? ''}/v1/webhooks`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url(`/hook-${i}`), events: ['*'] }),
      });
      if (response.status !== 201) throw new Error(`webhook registration: ${await response.text()}`);
    }
    await Promise.all(seed.started.map((api) => api.stop('SIGTERM')));

    const randomStreamPath = () =>
      `/v1/streams/${streamIds[Math.floor(Math.random() * streamIds.length)] ?? ''}`;

    log(`Scale-out bench on ${os.cpus().length} cores, PostgreSQL + Redis`);
    log(`GET /v1/streams/{id}: ${CONNECTIONS} connections split over the processes, ${seconds} s per run`);
    const api: LoadFigures[] = [];
    for (const count of [1, 2]) {
      const { origins, started } = await startApis(count);
      await load(origins, auth, randomStreamPath, warmupSeconds);
      const cpu = cpuMeter(started);
      const result = await load(origins, auth, randomStreamPath, seconds);
      const figures = { processes: count, ...result, cpu: cpu.stop() };
      api.push(figures);
      log(
        `  ${count} API process(es): ${figures.requestsPerSecond.toFixed(0)} req/s, p50 ${figures.p50Ms.toFixed(1)} ms, ` +
          `p99 ${figures.p99Ms.toFixed(1)} ms, failures ${figures.failures}; CPU ${formatCpu(figures.cpu)}`,
      );
      await Promise.all(started.map((process) => process.stop('SIGTERM')));
    }

    log(
      `Webhook deliveries: ${events} events to ${RECEIVERS} HTTPS receivers (${events * RECEIVERS} deliveries)`,
    );
    const deliveries: DeliveryFigures[] = [];
    for (const count of [1, 2]) {
      const workers = Array.from({ length: count }, (_, i) =>
        startService(null, {
          name: `worker-${count}-${i + 1}`,
          args: ['worker'],
          env,
          logDir: database.dataDir,
        }),
      );
      services.push(...workers);
      for (const worker of workers) await untilLogged(worker, /webhook delivery worker started/);
      // Pings from the registrations arrive in the first run; start every run from empty.
      await new Promise((resolve) => setTimeout(resolve, 500));
      for (const receiver of receivers) receiver.requests.length = 0;

      const cpu = cpuMeter(workers);
      const started = performance.now();
      const written = await writeEvents(handle.db, userId, events);
      const expected = events * RECEIVERS;
      while (receivers.reduce((sum, receiver) => sum + receiver.requests.length, 0) < expected) {
        if (performance.now() - started > 300_000)
          throw new Error('deliveries did not finish within 5 minutes');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const elapsedS = (performance.now() - started) / 1000;
      const latencies = receivers
        .flatMap((receiver) => receiver.requests)
        .map((request) => request.receivedAt - (written.get(String(request.body?.id)) ?? request.receivedAt))
        .sort((a, b) => a - b);
      const figures: DeliveryFigures = {
        workers: count,
        deliveries: expected,
        deliveriesPerSecond: expected / elapsedS,
        p50Ms: percentile(latencies, 0.5),
        p99Ms: percentile(latencies, 0.99),
        cpu: cpu.stop(),
      };
      deliveries.push(figures);
      log(
        `  ${count} worker(s): ${figures.deliveriesPerSecond.toFixed(0)} deliveries/s, event-to-arrival p50 ` +
          `${figures.p50Ms.toFixed(0)} ms, p99 ${figures.p99Ms.toFixed(0)} ms; CPU ${formatCpu(figures.cpu)}`,
      );
      await Promise.all(workers.map((worker) => worker.stop('SIGTERM')));
    }
    return { cores: os.cpus().length, api, deliveries };
  } finally {
    for (const service of services) await service.stop('SIGKILL');
    for (const receiver of receivers) await receiver.close();
    await handle.close();
    await database.drop();
  }
}

/** One autocannon instance per process, run together; latencies merged. */
async function load(
  origins: string[],
  headers: Record<string, string>,
  nextPath: () => string,
  seconds: number,
): Promise<Omit<LoadFigures, 'processes' | 'cpu'>> {
  const latencies: number[] = [];
  let failures = 0;
  const runs = origins.map((origin) => {
    const instance = autocannon({
      url: origin,
      connections: Math.round(CONNECTIONS / origins.length),
      duration: seconds,
      headers,
      requests: [
        {
          setupRequest: (request) => {
            request.path = nextPath();
            return request;
          },
        },
      ],
    });
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
      else failures++;
    });
    return instance;
  });
  const results = await Promise.all(runs);
  latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: latencies.length / seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    failures: failures + results.reduce((sum, result) => sum + result.errors, 0),
  };
}

/** Multi-row outbox inserts, announced like recordEvent; returns each id's commit time. */
async function writeEvents(db: Db, accountId: string, count: number): Promise<Map<string, number>> {
  const committed = new Map<string, number>();
  for (let written = 0; written < count; written += 500) {
    const rows = Array.from({ length: Math.min(500, count - written) }, (_, i) => ({
      id: newId('evt'),
      type: 'stream.started' as const,
      account_id: accountId,
      created_at: Date.now(),
      data: JSON.stringify({ id: `str_bench${written + i}` }),
      dispatched_at: null,
    }));
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('events').values(rows).execute();
      await announceOutboxWrite(trx);
    });
    const at = Date.now();
    for (const row of rows) committed.set(row.id, at);
  }
  return committed;
}

async function untilLogged(service: ServiceProcess, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!pattern.test(service.log())) {
    if (!service.running || Date.now() > deadline)
      throw new Error(`${service.name}: ${service.log().slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU time (user + system) of a process, in seconds, from /proc. */
function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0; // the process has exited
  }
}

/** Pids of every process whose command name is `name` (all PostgreSQL backends, say). */
function pidsNamed(name: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** CPU seconds the whole machine has spent busy (all cores), from /proc/stat. */
function machineBusySeconds(): number {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  // cpu user nice system idle iowait irq softirq steal ...: busy is all but idle and iowait.
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND;
}

/** CPU used by each part from now until stop(), per second of wall time. */
function cpuMeter(tested: ServiceProcess[]): { stop(): Record<string, number> } {
  const parts = (): Record<string, number> => {
    const sum = (pids: number[]) => pids.reduce((total, pid) => total + cpuSeconds(pid), 0);
    return {
      tested: sum(tested.map((service) => service.pid ?? 0)),
      postgres: sum(pidsNamed('postgres')),
      redis: sum(pidsNamed('redis-server')),
      'bench (load generator, receivers)': sum([process.pid]),
      machine: machineBusySeconds(),
    };
  };
  const before = parts();
  const started = performance.now();
  return {
    stop: () => {
      const after = parts();
      const wall = (performance.now() - started) / 1000;
      const used = Object.fromEntries(
        Object.entries(after).map(([part, seconds]) => [part, (seconds - (before[part] ?? 0)) / wall]),
      );
      // What other programs on the machine took meanwhile: it competes for the same cores.
      const { machine = 0, ...ours } = used;
      const oursTotal = Object.values(ours).reduce((total, cores) => total + cores, 0);
      return { ...ours, 'other programs': Math.max(0, machine - oursTotal) };
    },
  };
}

function formatCpu(cpu: Record<string, number>): string {
  return Object.entries(cpu)
    .map(([part, cores]) => `${part} ${cores.toFixed(2)}`)
    .join(', ');
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
  const figures = await benchScale({ quick: values.quick });
  const file = path.resolve(import.meta.dirname, '..', '.bench', 'scale.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
  log(`Figures written to ${path.relative(process.cwd(), file)}`);
}
