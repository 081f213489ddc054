// `npm run bench -- --pages`: the web app's pages under load, measured like the API (the
// service pinned to one core, autocannon in its own process on the other): the home page, the
// home page with a following feed, the creator's streams page and search results, signed in,
// at 20 concurrent sessions on the seeded catalogue. Each session is a user who signed up
// through the real form; each owns some streams, so the dashboard lists real rows, and follows
// some creators, so the home page has a feed. Target (issues 15 and 28): p99 under 50 ms each.
// BENCH_PAGES=<words of a page's name> measures only the pages so named (`BENCH_PAGES=distinct`).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/db/database.ts';
import { CATEGORIES } from '../src/shared/categories.ts';
import { newId, randomBase62 } from '../src/shared/ids.ts';
import type { NewStreamRow } from '../src/streams/stream.table.ts';
import { measure } from './load.ts';
import { checkPinning, startServer, type ServerProcess } from './processes.ts';
import {
  p99Below,
  resultsTable,
  targetsTable,
  failuresOf,
  type RunResult,
  type ScenarioResult,
  type TargetCheck,
} from './report.ts';
import { seedDatabase } from './seed.ts';

export interface PagesBenchOptions {
  quick: boolean;
  workDir: string;
  /** The environment and Node flags of `npm start`. */
  productionEnv: Record<string, string>;
  nodeFlags: string[];
  log: (line: string) => void;
}

const PORT = 18_081;
const SESSIONS = 20;
const STREAMS_PER_SESSION = 50;
// A search's results are reused for a second (SearchService), so these measure the index:
// each is asked about once in a run. A creator's name and number (every video names its
// creator), as the all view and as the videos tab.
const DISTINCT_SEARCHES = Array.from(
  { length: 4_000 },
  (_, index) => `/search?q=creator+${(index % 2_000) + 1}${index < 2_000 ? '' : '&type=videos'}`,
);
const FOLLOWS_PER_SESSION = 20;
const PASSWORD = 'benchmark password 1';

// Searches as visitors type them: words most titles have (the seed's titles draw from a few
// phrases, so "live" or "session" match a seventh of 200,000 items), two-word ones, a creator's
// name, a rare word, nothing found, and the kinds' own paged tabs.
const SEARCHES = [
  '/search?q=speedrun',
  '/search?q=live+coding',
  '/search?q=studio+session+marathon',
  '/search?q=highlights',
  '/search?q=creator+17',
  '/search?q=road&type=videos&page=3',
  '/search?q=late+night&type=streams',
  '/search?q=creator&type=channels&page=2',
  '/search?q=unplug',
  '/search?q=nothingmatchesthis',
];

export async function benchPages(options: PagesBenchOptions): Promise<boolean> {
  const { log, quick } = options;
  checkPinning();
  const settings = quick
    ? { publicItems: 20_000, privateItems: 1_000, creators: 200, seconds: 2, warmupSeconds: 1 }
    : { publicItems: 100_000, privateItems: 5_000, creators: 2_000, seconds: 6, warmupSeconds: 3 };
  fs.mkdirSync(options.workDir, { recursive: true });
  const databaseFile = path.join(options.workDir, 'pages.db');
  log(`Seeding ${databaseFile} ...`);
  const seeded = await seedDatabase(databaseFile, settings);
  log(
    `  ${seeded.streams} streams (${seeded.liveStreams} live), ${seeded.videos} videos, ${seeded.creators} creators`,
  );

  const origin = `http://127.0.0.1:${PORT}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...options.productionEnv,
    DATABASE_URL: databaseFile,
    DATA_DIR: options.workDir,
    HOST: '127.0.0.1',
    PORT: String(PORT),
    PUBLIC_URL: origin,
    LOG_LEVEL: 'info',
    SECRET_KEY: randomBytes(32).toString('hex'),
    // Pages are limited per address and every session here shares one: the limiter stays on
    // (each request is counted) without being what is measured.
    RATE_LIMIT_PER_IP: '10000000',
    // Signed-in page views count against the user's own budget, the size of a key's (issue 28):
    // 20 sessions at hundreds of requests a second each would exhaust the default 1,000 a minute.
    RATE_LIMIT_PER_KEY: '10000000',
    SIGNUPS: 'open',
    // The bench's 20 viewers sign up from one address; the default allows 5 an hour (issue 27).
    SIGNUPS_PER_ADDRESS_PER_HOUR: '1000',
  };
  const service = await startServer({
    script: 'bin/tributary.js',
    args: ['serve'],
    env,
    port: PORT,
    logFile: path.join(options.workDir, 'pages-service.log'),
    readyPath: '/healthz',
    nodeFlags: options.nodeFlags,
  });
  try {
    const cookies: string[] = [];
    for (let index = 0; index < SESSIONS; index++)
      cookies.push(await signUp(origin, `viewer${index}@bench.test`));
    await giveStreams(databaseFile, SESSIONS);
    log(
      `Signed up ${SESSIONS} users through the form, ${STREAMS_PER_SESSION} streams each, ` +
        `each following ${FOLLOWS_PER_SESSION} creators`,
    );
    log(
      `Machine: ${os.availableParallelism()} cores, load average ${os.loadavg()[0]?.toFixed(2) ?? 'n/a'}; ` +
        `${SESSIONS} connections, each request with one of the ${SESSIONS} sessions, ` +
        `${settings.seconds} s after ${settings.warmupSeconds} s of warm-up`,
    );

    const scenarios: ScenarioResult[] = [];
    const checks: TargetCheck[] = [];
    const pages: { name: string; paths: string[] }[] = [
      {
        name: 'GET / (and its category filters), signed in',
        paths: ['/', ...CATEGORIES.map((c) => `/?category=${c}`)],
      },
      { name: 'GET / with a following feed, signed in', paths: ['/'] },
      { name: 'GET /dashboard/streams, signed in', paths: ['/dashboard/streams'] },
      { name: 'GET /search (10 searches, all and by kind), signed in', paths: SEARCHES },
      { name: 'GET /search (4,000 distinct searches: uncached), signed in', paths: DISTINCT_SEARCHES },
    ];
    const only = process.env.BENCH_PAGES;
    for (const page of pages.filter((p) => only === undefined || p.name.includes(only))) {
      const probe = await fetch(origin + (page.paths[0] ?? '/'), {
        headers: { cookie: cookies[0] ?? '' },
        redirect: 'manual',
      });
      await probe.body?.cancel();
      if (probe.status !== 200) {
        log(`  ${page.name}: answers ${probe.status}, not measured (is this page in this build?)`);
        checks.push({
          target: `${page.name}: p99 under 50 ms`,
          measured: `HTTP ${probe.status}`,
          pass: false,
        });
        continue;
      }
      const scenario: ScenarioResult = {
        name: page.name,
        service: await load(service, settings, page.paths, cookies),
      };
      const latencies = scenario.service.latenciesMs;
      const at = (share: number) => (latencies[Math.floor((latencies.length - 1) * share)] ?? 0).toFixed(1);
      log(
        `  ${page.name}: ${scenario.service.requestsPerSecond.toFixed(0)} req/s, ` +
          `${scenario.service.cpuUsPerRequest.toFixed(0)} µs of CPU a request, ` +
          `p50 ${at(0.5)} p90 ${at(0.9)} p99 ${scenario.service.p99Ms.toFixed(2)} max ${at(1)} ms`,
      );
      scenarios.push(scenario);
      checks.push(p99Below(scenario, 50));
    }
    log('');
    log(resultsTable(scenarios));
    log('');
    log(targetsTable(checks));
    const problems = failuresOf(scenarios);
    for (const problem of problems) log(`INVALID RUN: ${problem}`);
    return problems.length === 0 && checks.every((check) => check.pass);
  } finally {
    await service.stop();
  }
}

/** Signs up through the form as a browser would, and returns the session's Cookie header. */
async function signUp(origin: string, email: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const form = await fetch(`${origin}/sign-up`);
  keep(form);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1];
  if (csrf === undefined) throw new Error('the sign-up page has no CSRF field');
  const response = await fetch(`${origin}/sign-up`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie(), origin },
    body: new URLSearchParams({
      _csrf: csrf,
      name: email.split('@')[0] ?? 'viewer',
      email,
      password: PASSWORD,
    }).toString(),
  });
  keep(response);
  await response.body?.cancel();
  if (response.status !== 303) throw new Error(`sign-up of ${email} answered ${response.status}`);
  return cookie();
}

/** The signed-up users' own streams and follows, written straight into the database like the seed's. */
async function giveStreams(databaseFile: string, sessions: number): Promise<void> {
  const database = openDatabase(databaseFile);
  try {
    const users = await database.db
      .selectFrom('users')
      .select('id')
      .where('email', 'like', '%@bench.test')
      .execute();
    if (users.length !== sessions)
      throw new Error(`expected ${sessions} signed-up users, found ${users.length}`);
    const now = Date.now();
    for (const user of users) {
      const rows: NewStreamRow[] = Array.from({ length: STREAMS_PER_SESSION }, (_, index) => ({
        id: newId('str'),
        creator_id: user.id,
        title: `Own stream ${index}`,
        description: null,
        status: index % 10 === 0 ? 'live' : 'ended',
        category: CATEGORIES[index % CATEGORIES.length] ?? 'talk',
        privacy: index % 7 === 0 ? 'private' : 'public',
        viewer_count: index % 10 === 0 ? index : null,
        peak_viewer_count: index,
        started_at: now - index * 3_600_000,
        scheduled_at: null,
        ended_at: index % 10 === 0 ? null : now - index * 3_000_000,
        thumbnail_at: null,
        created_at: now - index * 3_600_000,
        updated_at: now,
        stream_key_hash: randomBase62(43),
        stream_key_ciphertext: null,
        record: 1,
      }));
      await database.db.insertInto('streams').values(rows).execute();
    }
    // Each session follows creators of the seed, so its home page has a following feed.
    const creators = await database.db
      .selectFrom('users')
      .select('id')
      .where('email', 'is', null)
      .orderBy('id')
      .limit(SESSIONS * FOLLOWS_PER_SESSION)
      .execute();
    await database.db
      .insertInto('subscriptions')
      .values(
        users.flatMap((user, index) =>
          Array.from({ length: FOLLOWS_PER_SESSION }, (_, n) => ({
            id: newId('sub'),
            viewer_id: user.id,
            creator_id: creators[(index * FOLLOWS_PER_SESSION + n) % creators.length]?.id ?? '',
            status: 'active' as const,
            created_at: now,
            cancelled_at: null,
          })),
        ),
      )
      .execute();
  } finally {
    await database.close();
  }
}

async function load(
  server: ServerProcess,
  settings: { seconds: number; warmupSeconds: number },
  paths: string[],
  cookies: string[],
): Promise<RunResult> {
  let cpuBefore = 0;
  const result = await measure(
    {
      url: server.baseUrl,
      connections: SESSIONS,
      warmupSeconds: settings.warmupSeconds,
      durationSeconds: settings.seconds,
      paths,
      cookies,
    },
    () => {
      cpuBefore = server.cpuMs();
    },
  );
  const { generatorCpuMs, ...measured } = result;
  return {
    ...measured,
    cpuUsPerRequest: ((server.cpuMs() - cpuBefore) * 1000) / result.requests,
    generatorBusy: generatorCpuMs / 1000 / result.durationSeconds,
  };
}
