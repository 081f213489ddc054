// The many-machines part of `npm run bench -- --ingest` (issue 25): two `tributary serve
// --ingest-only` processes behind the shipped nginx stream balancer (deploy/nginx-ingest.conf),
// on one PostgreSQL database, with N encoders pushing through the balancer at once (copy-only
// packaging, TRANSCODE=off). Measured: how the balancer spread the streams, and each ingest
// process's CPU per stream over a 20 s window, from which a copy-only stream's share of one core
// follows (streams per ingest core). The encoders (ffmpeg, libx264) run on the same machine and
// take most of its CPU: the per-stream cost is the figure that matters, not the total.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createTestDatabase, POSTGRES_ADMIN_URL } from '../test/helpers/databases.ts';
import { pushTestPattern, type Push } from '../test/helpers/media-tools.ts';
import { waitFor } from '../test/helpers/wait.ts';
import { SKIP_WITHOUT_STREAM_NGINX, startBalancer } from '../test/deploy/ingest-balancer.ts';
import { startIngestProcess, tributaryCli } from '../test/scale/processes.ts';
import { freePort } from '../test/scale/redis.ts';
import { openDatabase } from '../src/db/database.ts';

export interface IngestMachinesFigures {
  streams: number;
  perProcess: { streams: number; cpuPercent: number }[];
  cpuPercentPerStream: number;
  copyStreamsPerCore: number;
}

const WINDOW_MS = 20_000;

function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export async function benchIngestMachines(options: {
  quick: boolean;
  log: (line: string) => void;
}): Promise<IngestMachinesFigures | { skipped: string }> {
  const skip = POSTGRES_ADMIN_URL ? SKIP_WITHOUT_STREAM_NGINX : 'needs TEST_POSTGRES_URL';
  if (skip !== false) return { skipped: skip };
  const cleanups: (() => unknown)[] = [];
  const context = { after: (fn: () => unknown) => void cleanups.push(fn) };
  const pushes: Push[] = [];
  try {
    const database = await createTestDatabase('postgres', { migrated: true });
    cleanups.push(() => database.drop());
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      DATABASE_URL: database.url,
      SECRET_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      TRANSCODE: 'off',
      DATA_DIR: database.dataDir,
      // The shipped balancer sends a PROXY protocol header first (deploy/nginx-ingest.conf).
      RTMP_PROXY_PROTOCOL: 'true',
    };
    const userId = await tributaryCli(env, ['users', 'create', '--name', 'Bench']);
    const key = await tributaryCli(env, ['keys', 'create', '--user', userId, '--scope', 'write']);
    const ports = [await freePort(), await freePort()] as [number, number];
    const machines = [
      await startIngestProcess(
        context,
        'ingest-0',
        { ...env, RTMP_PORT: String(ports[0]) },
        database.dataDir,
      ),
      await startIngestProcess(
        context,
        'ingest-1',
        { ...env, RTMP_PORT: String(ports[1]) },
        database.dataDir,
      ),
    ];
    const balancerPort = await freePort();
    await startBalancer(context, balancerPort, ports);
    const count = options.quick ? 2 : 4;
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const response = await fetch(`${machines[0]!.origin}/v1/streams`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Bench ${i}` }),
      });
      const created = (await response.json()) as { id: string; ingest: { stream_key: string } };
      ids.push(created.id);
      pushes.push(
        pushTestPattern(`rtmp://127.0.0.1:${balancerPort}/live/${created.ingest.stream_key}`, 120, {
          size: '640x360',
        }),
      );
    }
    const db = openDatabase(database.url).db;
    cleanups.push(() => db.destroy());
    const holders = await waitFor(
      async () => {
        const rows = await db
          .selectFrom('stream_leases')
          .select('holder')
          .where('stream_id', 'in', ids)
          .execute();
        return rows.length === count ? rows.map((row) => row.holder) : false;
      },
      { timeoutMs: 60_000, what: 'every stream held' },
    );
    const pids = machines.map((machine) => machine.service.pid!);
    const before = pids.map(cpuMs);
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
    const elapsed = Date.now() - started;
    const perProcess = pids.map((pid, index) => ({
      streams: holders.filter((holder) => holder === `ingest-${index}`).length,
      cpuPercent: Math.round(((cpuMs(pid) - before[index]!) / elapsed) * 1000) / 10,
    }));
    const totalCpu = perProcess.reduce((sum, process) => sum + process.cpuPercent, 0);
    const cpuPercentPerStream = Math.round((totalCpu / count) * 10) / 10;
    const figures = {
      streams: count,
      perProcess,
      cpuPercentPerStream,
      copyStreamsPerCore: Math.floor(100 / Math.max(cpuPercentPerStream, 0.1)),
    };
    options.log(JSON.stringify(figures));
    return figures;
  } finally {
    for (const push of pushes) push.stop();
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

if (import.meta.main) {
  const figures = await benchIngestMachines({ quick: process.argv.includes('--quick'), log: console.log });
  console.log(JSON.stringify(figures, null, 2));
}
