// Chat bench (`npm run bench -- --chat`): 1,000 WebSocket clients in one stream's chat and
// 20 messages a second for 60 s (10 s with --quick), first with one API process, then with two
// on one PostgreSQL database and one Redis (clients split between them). For each run: whether
// every client got every message in order, delivery latency (post sent -> message received, on
// every client), and the API processes' CPU and peak RSS. Loopback only; the API processes are
// pinned to one core and this load generator to the other (taskset).
//
// Read the figures knowing the machine: PostgreSQL, Redis and other work share its cores.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { WebSocket } from 'ws';
import { AccountService } from '../src/accounts/account.service.ts';
import { SessionService } from '../src/accounts/session.service.ts';
import { openDatabase } from '../src/db/database.ts';
import { systemClock } from '../src/shared/clock.ts';
import { createTestDatabase, POSTGRES_ADMIN_URL } from '../test/helpers/databases.ts';
import { startApiProcesses, tributaryCli } from '../test/scale/processes.ts';
import { REDIS_URL } from '../test/scale/redis.ts';
import { GENERATOR_CORE, SERVER_CORE } from './processes.ts';

export interface ChatFigures {
  processes: number;
  clients: number;
  seconds: number;
  sent: number;
  /** Clients that got every message, in order, exactly once. */
  complete: number;
  deliveries: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** CPU seconds per second of run, per API process (1.0 = one core busy). */
  cpu: number[];
  peakRssMb: number[];
  met: boolean;
}

const CLIENTS = 1000;
const RATE = 20;
// Each sender posts once every 5 s, well inside the flood limit, whatever the server's latency.
const SENDERS = 100;
const TICKS = 100;

const log = (line: string) => process.stdout.write(`${line}\n`);

function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

function pin(pid: number, core: number): void {
  execFileSync('taskset', ['-a', '-p', '--cpu-list', String(core), String(pid)], { stdio: 'ignore' });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

interface Client {
  socket: WebSocket;
  seqs: number[];
  ready: Promise<void>;
}

function connect(origin: string, streamId: string, index: number, cookie?: string): Client {
  const headers: Record<string, string> = { 'x-forwarded-for': `10.${(index >> 8) & 255}.${index & 255}.1` };
  if (cookie) headers.cookie = cookie;
  const socket = new WebSocket(`${origin.replace('http', 'ws')}/watch/${streamId}/chat`, { headers });
  const client: Client = { socket, seqs: [], ready: Promise.resolve() };
  client.ready = new Promise((resolve, reject) => {
    socket.on('error', reject);
    socket.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString('utf8')) as {
        type: string;
        message?: { seq: number; text: string };
      };
      if (frame.type === 'hello') resolve();
      if (frame.type === 'error') {
        const refusal = frame as { code?: string; message?: unknown };
        const why = `${String(refusal.code)}: ${String(refusal.message).slice(0, 60)}`;
        errors.set(why, (errors.get(why) ?? 0) + 1);
      }
      if (frame.type === 'message' && frame.message) {
        client.seqs.push(frame.message.seq);
        const sentAt = Number(frame.message.text.split(' ')[1]);
        latencies.push(performance.timeOrigin + performance.now() - sentAt);
      }
    });
  });
  return client;
}

let latencies: number[] = [];
const errors = new Map<string, number>();

export async function benchChat(options: { quick?: boolean } = {}): Promise<ChatFigures[]> {
  if (!POSTGRES_ADMIN_URL || !REDIS_URL)
    throw new Error('bench/chat.ts needs TEST_POSTGRES_URL and TEST_REDIS_URL');
  const seconds = options.quick ? 10 : 60;
  pin(process.pid, GENERATOR_CORE);
  const results: ChatFigures[] = [];
  for (const processes of [1, 2]) {
    const database = await createTestDatabase('postgres');
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      SECRET_KEY: randomBytes(32).toString('hex'),
      REDIS_URL,
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'true',
      CHAT_CONNECTIONS_PER_ADDRESS: '10000',
    };
    await tributaryCli(env, ['migrate']);
    const handle = openDatabase(database.url);
    const accounts = new AccountService(handle.db, systemClock);
    const sessions = new SessionService(handle.db, systemClock, Buffer.alloc(32, 1));
    const creator = await accounts.createUser('Bench creator');
    const key = (await accounts.createKey(creator.id, 'write')).key;
    const senders: string[] = [];
    for (let i = 0; i < SENDERS; i++) {
      const user = await accounts.createUser(`Sender ${i}`);
      senders.push(`tributary_session=${(await sessions.start(user.id)).token}`);
    }
    const names = Array.from({ length: processes }, (_, i) => `chat-api-${i + 1}`);
    const apis = await startApiProcesses(null, names, env, database.dataDir);
    try {
      for (const api of apis) if (api.service.pid !== undefined) pin(api.service.pid, SERVER_CORE);
      const created = await fetch(`${apis[0]!.origin}/v1/streams`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Chat bench' }),
      });
      const streamId = ((await created.json()) as { id: string }).id;
      latencies = [];
      const clients: Client[] = [];
      for (let i = 0; i < CLIENTS; i++) {
        const origin = apis[i % apis.length]!.origin;
        clients.push(connect(origin, streamId, i, i < SENDERS ? senders[i] : undefined));
        if (i % 50 === 49) await Promise.all(clients.slice(-50).map((c) => c.ready));
      }
      await Promise.all(clients.map((c) => c.ready));
      log(`chat bench: ${CLIENTS} clients on ${processes} process(es); sending ${RATE}/s for ${seconds} s`);
      const cpuBefore = apis.map((api) => cpuSeconds(api.service.pid ?? 0));
      const started = performance.now();
      let sent = 0;
      const total = RATE * seconds;
      await new Promise<void>((resolve) => {
        const timer = setInterval(() => {
          const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * RATE) + 1);
          while (sent < due) {
            const sender = clients[sent % SENDERS]!;
            sender.socket.send(JSON.stringify({ type: 'post', text: `m ${Date.now()} ${sent}` }));
            sent++;
          }
          if (sent >= total) {
            clearInterval(timer);
            resolve();
          }
        }, 10);
      });
      const elapsed = (performance.now() - started) / 1000;
      // Let the last ones arrive. A refused post takes no sequence number: a client is complete
      // when it has every accepted message, in order, once.
      const accepted = () => sent - [...errors.values()].reduce((sum, n) => sum + n, 0);
      const deadline = performance.now() + 10_000;
      while (performance.now() < deadline && clients.some((c) => c.seqs.length < accepted())) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const cpu = apis.map(
        (api, i) => +((cpuSeconds(api.service.pid ?? 0) - (cpuBefore[i] ?? 0)) / elapsed).toFixed(2),
      );
      const complete = clients.filter(
        (c) => c.seqs.length === accepted() && c.seqs.every((seq, i) => seq === i + 1),
      ).length;
      const sorted = latencies.toSorted((a, b) => a - b);
      const figures: ChatFigures = {
        processes,
        clients: CLIENTS,
        seconds,
        sent,
        complete,
        deliveries: latencies.length,
        p50Ms: Math.round(percentile(sorted, 50)),
        p99Ms: Math.round(percentile(sorted, 99)),
        maxMs: Math.round(sorted.at(-1) ?? 0),
        cpu,
        peakRssMb: apis.map((api) => peakRssMb(api.service.pid ?? 0)),
        met: complete === CLIENTS && percentile(sorted, 99) < 250,
      };
      log(JSON.stringify(figures));
      if (errors.size > 0) log(`refused posts: ${JSON.stringify(Object.fromEntries(errors))}`);
      errors.clear();
      results.push(figures);
      for (const client of clients) client.socket.terminate();
    } finally {
      for (const api of apis) await api.service.stop('SIGTERM');
      await handle.close();
      await database.drop();
    }
  }
  return results;
}

if (import.meta.main) {
  const figures = await benchChat({ quick: process.argv.includes('--quick') });
  process.exitCode = figures.every((f) => f.met) ? 0 : 1;
}
