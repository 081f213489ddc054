// Go-live mail benchmark (issue 27): a channel with 10,000 subscribers goes live on SQLite;
// its stream's transaction queues one fan-out job, and the mail worker (4 runners, nodemailer's
// pooled SMTP transport) sends 10,000 mails to an SMTP server on loopback (`smtp-server`, in a
// child process so it does not take the worker's CPU).
//   node bench/mail.ts            prints the figures as JSON
// Figures:
//   go_live_ms: how long StreamService.goLive takes (the transaction that makes a stream live),
//     median and p95 of 30 streams of channels without subscribers, before any mail (baseline),
//     and of 30 more while the 10,000 mails are being fanned out and sent (under_mail).
//   mails: how many the SMTP server accepted, and mails/s from the 10,000-subscriber channel
//     going live to the last one accepted.
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServices } from '../src/container.ts';
import { migrateToLatest, openDatabase } from '../src/db/database.ts';
import { MailWorker } from '../src/mail/mail-worker.ts';
import { smtpTransport } from '../src/mail/mail-transport.ts';
import { newId } from '../src/shared/ids.ts';
import { createLogger } from '../src/shared/logger.ts';
import { systemClock } from '../src/shared/clock.ts';

const SUBSCRIBERS = Number(process.env.BENCH_MAIL_SUBSCRIBERS ?? 10_000);
const PROBES = 30;

// ---------------------------------------------------------------- the SMTP server (child)

if (process.argv[2] === 'smtp-child') {
  const { SMTPServer } = await import('smtp-server');
  let accepted = 0;
  let last = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        accepted++;
        last = Date.now();
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.server.address();
    process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
  });
  process.on('message', () => {
    process.send?.({ accepted, last });
  });
} else if (import.meta.filename === path.resolve(process.argv[1] ?? '')) {
  console.log(JSON.stringify(await benchMail(), null, 2));
}

function ask<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (message) => {
      resolve(message as T);
    });
    child.send('stats');
  });
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0) * 100) / 100;
}

export async function benchMail() {
  const child = fork(import.meta.filename, ['smtp-child'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { port } = await new Promise<{ port: number }>((resolve) => {
    child.once('message', (message) => {
      resolve(message as { port: number });
    });
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-mail-'));
  const database = openDatabase(path.join(dir, 'bench.db'));
  await migrateToLatest(database.db);
  const smtpUrl = `smtp://127.0.0.1:${port}`;
  const services = createServices(
    { publicUrl: 'http://bench.test', dataDir: dir, ingest: { rtmpPort: 1935 }, mail: { smtpUrl } },
    database,
    Buffer.alloc(32, 9),
    systemClock,
  );
  const { db } = database;
  const now = Date.now();
  const creator = await services.accounts.createUser('Popular channel');
  for (let start = 0; start < SUBSCRIBERS; start += 500) {
    const batch = Array.from({ length: Math.min(500, SUBSCRIBERS - start) }, (_, i) => ({
      id: newId('usr'),
      name: `Viewer ${start + i}`,
      email: `viewer${start + i}@bench.test`,
      created_at: now,
      email_verified_at: now,
    }));
    await db.insertInto('users').values(batch).execute();
    await db
      .insertInto('subscriptions')
      .values(
        batch.map((user) => ({
          id: newId('sub'),
          viewer_id: user.id,
          creator_id: creator.id,
          status: 'active' as const,
          created_at: now,
          cancelled_at: null,
        })),
      )
      .execute();
  }

  const probe = async (): Promise<number> => {
    const user = await services.accounts.createUser('Quiet channel');
    const { stream } = await services.streams.create(user.id, { title: 'Probe' });
    const started = performance.now();
    await services.streams.goLive(stream.id);
    return performance.now() - started;
  };
  const baseline: number[] = [];
  for (let i = 0; i < PROBES; i++) baseline.push(await probe());

  const worker = new MailWorker({
    db,
    clock: systemClock,
    logger: createLogger('silent'),
    outbox: services.mail,
    transport: smtpTransport(smtpUrl),
    from: 'Bench <bench@bench.test>',
    pollMs: 50,
  });
  worker.start();
  const { stream: popular } = await services.streams.create(creator.id, { title: 'Big night' });
  const liveStarted = Date.now();
  const t0 = performance.now();
  await services.streams.goLive(popular.id);
  const popularGoLiveMs = performance.now() - t0;
  const underMail: number[] = [];
  for (let i = 0; i < PROBES; i++) {
    underMail.push(await probe());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  let stats = await ask<{ accepted: number; last: number }>(child);
  const deadline = Date.now() + 600_000;
  while (stats.accepted < SUBSCRIBERS && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    stats = await ask<{ accepted: number; last: number }>(child);
  }
  await worker.stop();
  child.kill();
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
  const seconds = (stats.last - liveStarted) / 1000;
  return {
    subscribers: SUBSCRIBERS,
    go_live_ms: {
      baseline: { p50: percentile(baseline, 0.5), p95: percentile(baseline, 0.95) },
      under_mail: { p50: percentile(underMail, 0.5), p95: percentile(underMail, 0.95) },
      popular_channel: Math.round(popularGoLiveMs * 100) / 100,
    },
    mails: {
      accepted: stats.accepted,
      all_accepted: stats.accepted === SUBSCRIBERS,
      seconds: Math.round(seconds * 10) / 10,
      per_second: Math.round(stats.accepted / seconds),
    },
  };
}
