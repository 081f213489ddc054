// Delivery benchmark (issue 3): signed webhook deliveries from the outbox to HTTPS receivers on
// loopback, SQLite, one service process (API role producing events + worker). The receivers run
// in a child process so they do not take the worker's CPU.
//   node bench/deliveries.ts            prints the figures as JSON
// Figures:
//   throughput: 10,000 events fanned out to 10 receivers (one account, 10 webhooks subscribed to
//     every event) = 100,000 deliveries, from the first event written to the last receipt.
//   bare sender: the throughput run's deliveries from bench/bare-sender.ts (no database), taking
//     turns with the project; the ratio of the two is the figure (target 0.7).
//   latency: a steady 1,000 events/s for 10 s, each event to one of the 10 receivers (10 accounts),
//     event created_at -> receipt at the receiver, p50 and p99.
//   dead receiver: the throughput run again with an 11th webhook whose receiver never answers
//     (5 s timeout); the change in the 10 live receivers' deliveries/s.
// The sending process (the worker, or the bare sender in its turn) is pinned to one core and the
// receivers to the other (taskset), as the API bench pins its server and load generator: left to
// float, the two shared both cores and the bare sender's runs alone ranged 8,000 to 14,000 a
// second within minutes.
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createServices, type Services } from '../src/container.ts';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { recordEvent } from '../src/events/outbox.ts';
import { createLogger } from '../src/shared/logger.ts';
import { systemClock } from '../src/shared/clock.ts';
import { DeliveryWorker } from '../src/webhooks/delivery/worker.ts';
import { testCa } from '../test/helpers/test-ca.ts';
import { bareSend } from './bare-sender.ts';
import { checkPinning, GENERATOR_CORE, SERVER_CORE } from './processes.ts';

const RECEIVERS = 10;
const THROUGHPUT_EVENTS = Number(process.env.BENCH_DELIVERY_EVENTS ?? 10_000);
const STEADY_RATE = 1000;
/** Project and bare sender take turns this many times each. */
const ROUNDS = 2;
const STEADY_SECONDS = 10;

// ---------------------------------------------------------------- receivers (child process)

interface ReceiverStart {
  cmd: 'start';
  count: number;
  dead: number[];
  key: string;
  cert: string;
}
type ReceiverCommand = ReceiverStart | { cmd: 'stats' } | { cmd: 'counts' } | { cmd: 'reset' };
interface ReceiverStats {
  counts: number[];
  latencies: number[];
}

function runReceivers(): void {
  let counts: number[] = [];
  let latencies: number[] = [];
  process.on('message', (message: ReceiverCommand) => {
    if (message.cmd === 'start') {
      counts = new Array<number>(message.count).fill(0);
      void Promise.all(
        counts.map(
          (_zero, index) =>
            new Promise<number>((resolve) => {
              const dead = message.dead.includes(index);
              const server = https.createServer(
                { key: message.key, cert: message.cert, keepAliveTimeout: 60_000 },
                (req, res) => {
                  const chunks: Buffer[] = [];
                  req.on('data', (chunk: Buffer) => chunks.push(chunk));
                  req.on('end', () => {
                    if (dead) return; // never answers: the sender's timeout ends it
                    const receivedAt = Date.now();
                    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { created_at: string };
                    latencies.push(receivedAt - Date.parse(body.created_at));
                    counts[index] = (counts[index] ?? 0) + 1;
                    res.writeHead(200, { 'content-type': 'application/json' });
                    res.end('{"ok":true}');
                  });
                },
              );
              server.listen(0, '127.0.0.1', () => {
                resolve((server.address() as AddressInfo).port);
              });
            }),
        ),
      ).then((ports) => process.send?.({ ports }));
    } else if (message.cmd === 'stats') {
      process.send?.({ counts, latencies } satisfies ReceiverStats);
    } else if (message.cmd === 'counts') {
      process.send?.({ counts });
    } else {
      counts = counts.map(() => 0);
      latencies = [];
      process.send?.({ ok: true });
    }
  });
}

class Receivers {
  private readonly child: ChildProcess;
  constructor() {
    this.child = fork(import.meta.filename, ['--receivers'], { stdio: 'inherit' });
    if (this.child.pid !== undefined) pin(this.child.pid, GENERATOR_CORE);
  }
  private ask<T>(command: ReceiverCommand): Promise<T> {
    return new Promise((resolve) => {
      this.child.once('message', (reply) => {
        resolve(reply as T);
      });
      this.child.send(command);
    });
  }
  async start(count: number, dead: number[]): Promise<string[]> {
    const ca = testCa();
    const { ports } = await this.ask<{ ports: number[] }>({
      cmd: 'start',
      count,
      dead,
      key: ca.keyPem,
      cert: ca.certPem,
    });
    return ports.map((port) => `https://127.0.0.1:${port}/hook`);
  }
  stats(): Promise<ReceiverStats> {
    return this.ask({ cmd: 'stats' });
  }
  /**
   * The counts alone: polled every 20 ms while the sender runs, and the latencies (one number
   * a delivery) would be serialized and parsed by the process being measured each time.
   */
  counts(): Promise<{ counts: number[] }> {
    return this.ask({ cmd: 'counts' });
  }
  async reset(): Promise<void> {
    await this.ask({ cmd: 'reset' });
  }
  stop(): void {
    this.child.kill();
  }
}

// ---------------------------------------------------------------- the service side

interface Setup {
  dir: string;
  database: DatabaseHandle;
  services: Services;
  worker: DeliveryWorker;
}

async function setUp(): Promise<Setup> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-deliveries-'));
  // As `tributary serve` opens it by default; BENCH_CHECKPOINT_THREAD=true as with
  // SQLITE_CHECKPOINT_THREAD=true (the thread's CPU is counted).
  const database = openDatabase(path.join(dir, 'bench.db'), {
    checkpointThread: process.env.BENCH_CHECKPOINT_THREAD === 'true',
  });
  await migrateToLatest(database.db);
  const config = {
    retryDelaysMs: [60_000, 900_000],
    timeoutMs: 5000,
    disableAfterFailedEvents: 1000,
    allowPrivateTargets: true,
    historyDays: 30,
  };
  const services = createServices(
    {
      publicUrl: 'http://bench.test',
      dataDir: dir,
      ingest: { rtmpPort: 1935 },
      webhooks: config,
    },
    database,
    Buffer.alloc(32, 9),
    systemClock,
  );
  const worker = new DeliveryWorker({
    database,
    clock: systemClock,
    config,
    secrets: services.webhookSecrets,
    logger: createLogger('silent'),
    ca: testCa().caPem,
  });
  return { dir, database, services, worker };
}

async function tearDown(setup: Setup): Promise<void> {
  await setup.worker.stop();
  await setup.database.close();
  fs.rmSync(setup.dir, { recursive: true, force: true });
}

/** Writes events the way services do (outbox row in a transaction), several per transaction. */
async function writeEvents(
  setup: Setup,
  accountIds: string[],
  count: number,
  perTransaction = 500,
): Promise<void> {
  for (let written = 0; written < count; written += perTransaction) {
    await setup.database.db.transaction().execute(async (trx) => {
      for (let i = written; i < Math.min(count, written + perTransaction); i++) {
        const accountId = accountIds[i % accountIds.length] ?? '';
        await recordEvent(trx, {
          type: 'stream.started',
          accountId,
          at: Date.now(),
          data: { id: `str_bench${i}`, title: `Bench stream ${i}`, status: 'live', creator_id: accountId },
        });
      }
    });
  }
}

async function waitForReceipts(
  receivers: Receivers,
  expected: number,
  live: number[],
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { counts } = await receivers.counts();
    const received = live.reduce((sum, index) => sum + (counts[index] ?? 0), 0);
    if (received >= expected) return;
    if (Date.now() > deadline)
      throw new Error(`only ${received} of ${expected} deliveries arrived in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** 10,000 events x 10 webhooks of one account; optionally an extra dead webhook. */
async function throughput(receivers: Receivers, withDeadReceiver: boolean): Promise<Run> {
  const count = RECEIVERS + (withDeadReceiver ? 1 : 0);
  const urls = await receivers.start(count, withDeadReceiver ? [RECEIVERS] : []);
  const setup = await setUp();
  try {
    const user = await setup.services.accounts.createUser('bench');
    for (const url of urls) await setup.services.webhooks.register(user.id, { url, events: ['*'] });
    await setup.worker.start();
    const live = Array.from({ length: RECEIVERS }, (_v, index) => index);
    await waitForReceipts(receivers, RECEIVERS, live, 30_000); // the pings
    await receivers.reset();
    const started = performance.now();
    const cpu = process.cpuUsage();
    await writeEvents(setup, [user.id], THROUGHPUT_EVENTS);
    await waitForReceipts(receivers, THROUGHPUT_EVENTS * RECEIVERS, live, 600_000);
    return runOf(started, cpu);
  } finally {
    await tearDown(setup);
  }
}

/** The same deliveries from bench/bare-sender.ts: the ceiling. */
async function bareThroughput(receivers: Receivers): Promise<Run> {
  const urls = await receivers.start(RECEIVERS, []);
  const live = Array.from({ length: RECEIVERS }, (_v, index) => index);
  await receivers.reset();
  const started = performance.now();
  const cpu = process.cpuUsage();
  await bareSend({ urls, events: THROUGHPUT_EVENTS, ca: testCa().caPem });
  await waitForReceipts(receivers, THROUGHPUT_EVENTS * RECEIVERS, live, 600_000);
  return runOf(started, cpu);
}

/** One throughput run: its rate, and the sending process's CPU per delivery. */
interface Run {
  perSecond: number;
  seconds: number;
  /** This process's CPU time (the worker or the bare sender; the receivers are a child). */
  cpuUsPerDelivery: number;
}

function runOf(started: number, cpu: NodeJS.CpuUsage): Run {
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return {
    perSecond: Math.round((THROUGHPUT_EVENTS * RECEIVERS) / seconds),
    seconds: Math.round(seconds * 10) / 10,
    cpuUsPerDelivery: Math.round((used.user + used.system) / (THROUGHPUT_EVENTS * RECEIVERS)),
  };
}

/** A steady rate of events, each event to one receiver; latency from created_at to receipt. */
async function steadyLatency(
  receivers: Receivers,
): Promise<{ p50: number; p99: number; max: number; events: number }> {
  const urls = await receivers.start(RECEIVERS, []);
  const setup = await setUp();
  try {
    const accounts: string[] = [];
    for (const url of urls) {
      const user = await setup.services.accounts.createUser('bench');
      await setup.services.webhooks.register(user.id, { url, events: ['*'] });
      accounts.push(user.id);
    }
    await setup.worker.start();
    const live = Array.from({ length: RECEIVERS }, (_v, index) => index);
    await waitForReceipts(receivers, RECEIVERS, live, 30_000);
    await receivers.reset();
    const total = STEADY_RATE * STEADY_SECONDS;
    const started = performance.now();
    // One event per transaction, paced to the wall clock (the way requests would arrive).
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / STEADY_RATE;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      await writeEvents(setup, [accounts[i % accounts.length] ?? ''], 1, 1);
    }
    await waitForReceipts(receivers, total, live, 60_000);
    const stats = await receivers.stats();
    const sorted = [...stats.latencies].sort((a, b) => a - b);
    return {
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? NaN,
      events: total,
    };
  } finally {
    await tearDown(setup);
  }
}

/** Every thread of `pid` (and those it starts later) on `core`. */
function pin(pid: number, core: number): void {
  execFileSync('taskset', ['-a', '-p', '--cpu-list', String(core), String(pid)], { stdio: 'ignore' });
}

export async function benchDeliveries(): Promise<Record<string, number | string>> {
  checkPinning();
  pin(process.pid, SERVER_CORE);
  const receivers = new Receivers();
  try {
    // The project and the bare sender take turns, so a slow spell of the machine falls on both.
    const project: Run[] = [];
    const bare: Run[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      project.push(await throughput(receivers, false));
      bare.push(await bareThroughput(receivers));
    }
    const rate = (runs: { seconds: number }[]) =>
      Math.round(
        (runs.length * THROUGHPUT_EVENTS * RECEIVERS) / runs.reduce((sum, run) => sum + run.seconds, 0),
      );
    const clean = { perSecond: rate(project), seconds: project[0]?.seconds ?? NaN };
    const ceiling = rate(bare);
    const cpuPerDelivery = (runs: Run[]) =>
      Math.round(runs.reduce((sum, run) => sum + run.cpuUsPerDelivery, 0) / runs.length);
    const steady = await steadyLatency(receivers);
    const withDead = await throughput(receivers, true);
    const change = ((withDead.perSecond - clean.perSecond) / clean.perSecond) * 100;
    return {
      'deliveries: setup': `SQLite, one process on core ${SERVER_CORE}; ${THROUGHPUT_EVENTS} events x ${RECEIVERS} HTTPS receivers on loopback, on core ${GENERATOR_CORE}; project and bare sender alternate, ${ROUNDS} runs each`,
      'deliveries: signed deliveries/s': clean.perSecond,
      'deliveries: runs deliveries/s': project.map((run) => run.perSecond).join(', '),
      'deliveries: bare sender deliveries/s (no database, same receivers, signing and concurrency)': ceiling,
      'deliveries: bare runs deliveries/s': bare.map((run) => run.perSecond).join(', '),
      'deliveries: ratio to the bare sender (target 0.7)':
        Math.round((clean.perSecond / ceiling) * 100) / 100,
      'deliveries: seconds for all': clean.seconds,
      'deliveries: CPU µs per delivery, project / bare sender (the sending process)': `${cpuPerDelivery(project)} / ${cpuPerDelivery(bare)}`,
      [`deliveries: p50 event-to-receipt ms at ${STEADY_RATE} events/s`]: steady.p50,
      [`deliveries: p99 event-to-receipt ms at ${STEADY_RATE} events/s`]: steady.p99,
      [`deliveries: max event-to-receipt ms at ${STEADY_RATE} events/s`]: steady.max,
      'deliveries: deliveries/s to live receivers with a dead one': withDead.perSecond,
      'deliveries: throughput change from a dead receiver %': Math.round(change * 10) / 10,
    };
  } finally {
    receivers.stop();
  }
}

if (process.argv.includes('--receivers')) {
  runReceivers();
} else if (import.meta.filename === path.resolve(process.argv[1] ?? '')) {
  const figures = await benchDeliveries();
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
}
