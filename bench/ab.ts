// A/B comparison of two checkouts of the service on the same seeded file: both pinned to the
// server core, the load generator on the other, alternating short runs many times, so a busy
// machine's slow spells fall on both. Prints CPU µs per request for each, and their ratio.
//
//   node bench/ab.ts <dirA> <dirB> [rounds] [--path=creator | --path=platform | --path=/v1/...]
//
// creator: the caller reads 50 streams of its own; platform: 20,000 of its own (seeded with
// their keys as the service stores them), as `npm run bench`'s platform scenario does.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measure } from './load.ts';
import { checkPinning, cli, startServer, type ServerProcess } from './processes.ts';
import { seedDatabase, seedOwnedStreams } from './seed.ts';

const [dirA = '', dirB = '', roundsArg = '8'] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const scenario = process.argv.find((arg) => arg.startsWith('--path='))?.slice('--path='.length) ?? 'detail';
checkPinning();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-'));
const database = path.join(work, 'bench.db');
const seeded = await seedDatabase(database, { publicItems: 20_000, privateItems: 1_000, creators: 200 });
const secretKey = randomBytes(32);
const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  MALLOC_ARENA_MAX: '2',
  DATABASE_URL: database,
  DATA_DIR: work,
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  SECRET_KEY: secretKey.toString('hex'),
  RATE_LIMIT_PER_KEY: '10000000',
};
const user = await cli(env, ['users', 'create', '--name', 'ab']);
const key = await cli(env, ['keys', 'create', '--user', user, '--scope', 'write']);
const auth = { authorization: `Bearer ${key}` };

async function start(dir: string, port: number): Promise<ServerProcess> {
  const linked = path.join(work, `app-${port}`);
  fs.symlinkSync(path.resolve(dir), linked);
  return startServer({
    script: path.relative(path.resolve(import.meta.dirname, '..'), path.join(linked, 'bin/tributary.js')),
    args: ['serve', '--no-worker', '--no-ingest'],
    env: { ...env, PORT: String(port) },
    port,
    logFile: path.join(work, `service-${port}.log`),
    readyPath: '/healthz',
    nodeFlags: ['--max-semi-space-size=12'],
  });
}
const a = await start(dirA, 18_201);
const b = await start(dirB, 18_202);
let paths = seeded.streamIds.slice(0, 5000).map((id) => `/v1/streams/${id}`);
if (scenario === 'creator') {
  paths = [];
  // Made by B, usually the newer checkout: a row written by the older code may lack what the
  // newer stores (a derived key's secret tag, migration 085), and be read the slower way.
  for (let index = 0; index < 50; index++) {
    const response = await fetch(`${b.baseUrl}/v1/streams`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `Own ${index}`, category: 'gaming' }),
    });
    paths.push(`/v1/streams/${((await response.json()) as { id: string }).id}`);
  }
} else if (scenario === 'platform') {
  const owned = await seedOwnedStreams(database, { ownerId: user, secretKey, count: 20_000 });
  paths = owned.map((id) => `/v1/streams/${id}`);
} else if (scenario !== 'detail') {
  paths = [scenario];
}
const totals = new Map<ServerProcess, { cpuMs: number; requests: number }>([
  [a, { cpuMs: 0, requests: 0 }],
  [b, { cpuMs: 0, requests: 0 }],
]);
try {
  for (let round = 0; round < Number(roundsArg); round++) {
    for (const server of round % 2 === 0 ? [a, b] : [b, a]) {
      let before = 0;
      const result = await measure(
        { url: server.baseUrl, connections: 50, warmupSeconds: 1, durationSeconds: 2, headers: auth, paths },
        () => {
          before = server.cpuMs();
        },
      );
      if (result.failures > 0) throw new Error(`failures: ${JSON.stringify(result.statusCounts)}`);
      const total = totals.get(server)!;
      total.cpuMs += server.cpuMs() - before;
      total.requests += result.requests;
    }
  }
  const perRequest = (server: ServerProcess) => {
    const total = totals.get(server)!;
    return (total.cpuMs * 1000) / total.requests;
  };
  process.stdout.write(
    `A ${perRequest(a).toFixed(1)} µs/req, B ${perRequest(b).toFixed(1)} µs/req, B/A ${(perRequest(b) / perRequest(a)).toFixed(3)}, load ${os.loadavg()[0]?.toFixed(1)}\n`,
  );
} finally {
  await a.stop();
  await b.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
