// What storing deliveries costs, without the network (issue 29): the SQL a delivery's life runs
// on SQLite (outbox event, fan-out, claim, settle, attempt row, commits), through the project's
// own repository functions, with every attempt a success. Beside today's layout, the layouts the
// deliveries' target would need, as experiments: each is the same work with less stored.
//   node bench/delivery-storage.ts [variant]     one run: CPU µs per delivery, as JSON
//   node bench/delivery-storage.ts --pairs [rounds]
//        today's layout and each variant run at once on one core (taskset), rounds times: the
//        machine's drift (up to two times between minutes here) falls on both of a pair alike
// Variants:
//   today          rows inserted pending, claimed under a lease, settled, one attempt row each
//   no-attempt-row the same, the first attempt kept on the delivery row (no attempt row)
//   written-once   no pending row and no claim: the row written once, settled, when the attempt
//                  ends (what a worker sending straight from the outbox would store)
//   written-once-no-attempt-row  both
// Batches are the sizes the throughput bench sees: 86 claims a cycle (BENCH_PER_CYCLE to change),
// 10 webhooks of one account.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrateToLatest, openDatabase, type Db } from '../src/db/database.ts';
import { recordEvent } from '../src/events/outbox.ts';
import {
  findEventsForSending,
  lockUndispatchedEvents,
  markEventsDispatched,
} from '../src/events/outbox.repository.ts';
import { newId, newTimeOrderedId } from '../src/shared/ids.ts';
import * as deliveries from '../src/webhooks/delivery/delivery.repository.ts';
import { fanOutAll, subscribersOf } from '../src/webhooks/delivery/fan-out.ts';
import {
  findActiveWebhooksOf,
  findWebhooksForSending,
  recordFailedEvents,
} from '../src/webhooks/webhook.repository.ts';
import type { DeliveryAttemptRow } from '../src/webhooks/webhook.table.ts';

const VARIANTS = ['today', 'no-attempt-row', 'written-once', 'written-once-no-attempt-row'] as const;
type Variant = (typeof VARIANTS)[number];

const EVENTS = Number(process.env.BENCH_DELIVERY_EVENTS ?? 10_000);
const WEBHOOKS = 10;
/** Deliveries claimed (or sent) a cycle: what the throughput bench's worker averaged. */
const PER_CYCLE = Number(process.env.BENCH_PER_CYCLE ?? 86);
const LEASE = 'lease_bench';

interface Figures {
  variant: Variant;
  deliveries: number;
  cpuUsPerDelivery: number;
}

function attemptOf(deliveryId: string, at: number): DeliveryAttemptRow {
  return {
    delivery_id: deliveryId,
    attempt_number: 1,
    started_at: at,
    latency_ms: 3,
    status_code: 200,
    error: null,
    response_excerpt: '{"ok":true}',
  };
}

/** What the recorder writes for a batch of successes: settled rows, attempt rows, the tallies. */
async function settle(db: Db, ids: string[], webhookIds: Set<string>, attempts: boolean): Promise<void> {
  const at = Date.now();
  await db.transaction().execute(async (trx) => {
    const settled = await deliveries.settleSucceeded(trx, ids, LEASE, at);
    if (attempts)
      await deliveries.insertAttempts(
        trx,
        settled.map((id) => attemptOf(id, at)),
      );
    for (const webhookId of webhookIds) await recordFailedEvents(trx, webhookId, true, 0, at);
  });
}

/** Today's life: fan-out inserts pending rows, a cycle claims them, the recorder settles them. */
async function claimedLife(db: Db, attempts: boolean): Promise<number> {
  let sent = 0;
  for (;;) {
    await fanOutAll(db, () => Date.now());
    const now = Date.now();
    const webhookIds = await deliveries.findWebhooksWithDueDeliveries(db, now, [], 1000);
    if (webhookIds.length === 0) return sent;
    const claims = await db.transaction().execute(async (trx) => {
      const taken: deliveries.Claim[] = [];
      for (const webhookId of webhookIds) {
        taken.push(
          ...(await deliveries.claimDueDeliveries(trx, {
            webhookId,
            now,
            leaseUntil: now + 12_000,
            leaseToken: LEASE,
            limit: Math.ceil(PER_CYCLE / webhookIds.length),
          })),
        );
      }
      return taken;
    });
    await findEventsForSending(db, [...new Set(claims.map((claim) => claim.event_id))]);
    await findWebhooksForSending(db, [...new Set(claims.map((claim) => claim.webhook_id))]);
    const ids = claims.map((claim) => claim.id);
    await settle(db, ids, new Set(claims.map((claim) => claim.webhook_id)), attempts);
    await deliveries.nextDueAt(db);
    sent += claims.length;
  }
}

/** The row written once, when the attempt ends: events marked taken, then the settled rows. */
async function writtenOnceLife(db: Db, attempts: boolean): Promise<number> {
  let sent = 0;
  for (;;) {
    const now = Date.now();
    const rows = await db.transaction().execute(async (trx) => {
      const events = await lockUndispatchedEvents(trx, Math.ceil(PER_CYCLE / WEBHOOKS));
      if (events.length === 0) return [];
      const webhooks = await findActiveWebhooksOf(trx, [...new Set(events.map((event) => event.account_id))]);
      await markEventsDispatched(
        trx,
        events.map((event) => event.id),
        now,
      );
      return events.flatMap((event) =>
        subscribersOf(event, webhooks).map((webhookId) => ({
          id: newTimeOrderedId('dlv'),
          event_id: event.id,
          webhook_id: webhookId,
        })),
      );
    });
    if (rows.length === 0) return sent;
    await findWebhooksForSending(db, [...new Set(rows.map((row) => row.webhook_id))]);
    const at = Date.now();
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('webhook_deliveries')
        .values(
          rows.map((row) => ({
            ...row,
            status: 'succeeded' as const,
            attempt_count: 1,
            next_attempt_at: now,
            locked_until: null,
            lease_token: null,
            last_error: null,
            created_at: now,
            updated_at: at,
          })),
        )
        .onConflict((oc) => oc.columns(['event_id', 'webhook_id']).doNothing())
        .execute();
      if (attempts)
        await deliveries.insertAttempts(
          trx,
          rows.map((row) => attemptOf(row.id, at)),
        );
      for (const webhookId of new Set(rows.map((row) => row.webhook_id)))
        await recordFailedEvents(trx, webhookId, true, 0, at);
    });
    sent += rows.length;
  }
}

async function runOnce(variant: Variant): Promise<Figures> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-delivery-storage-'));
  const database = openDatabase(path.join(dir, 'bench.db'));
  try {
    await migrateToLatest(database.db);
    const { db } = database;
    const accountId = newId('usr');
    const at = Date.now();
    await db.insertInto('users').values({ id: accountId, name: 'bench', created_at: at }).execute();
    await db
      .insertInto('webhooks')
      .values(
        Array.from({ length: WEBHOOKS }, (_unused, index) => ({
          id: newId('wh'),
          account_id: accountId,
          url: `https://127.0.0.1:${1000 + index}/hook`,
          events: '["*"]',
          secret_ciphertext: 'unused',
          previous_secret_ciphertext: null,
          previous_secret_expires_at: null,
          status: 'active' as const,
          consecutive_failed_events: 0,
          disabled_reason: null,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
    const cpu = process.cpuUsage();
    for (let written = 0; written < EVENTS; written += 500) {
      await db.transaction().execute(async (trx) => {
        for (let index = written; index < Math.min(EVENTS, written + 500); index++) {
          await recordEvent(trx, {
            type: 'stream.started',
            accountId,
            at: Date.now(),
            data: {
              id: `str_bench${index}`,
              title: `Bench stream ${index}`,
              status: 'live',
              creator_id: accountId,
            },
          });
        }
      });
    }
    const attempts = !variant.endsWith('no-attempt-row');
    const sent = variant.startsWith('written-once')
      ? await writtenOnceLife(db, attempts)
      : await claimedLife(db, attempts);
    const used = process.cpuUsage(cpu);
    return {
      variant,
      deliveries: sent,
      cpuUsPerDelivery: Math.round(((used.user + used.system) / sent) * 10) / 10,
    };
  } finally {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs a child for `variant` pinned to core 0 and returns its figures. */
function child(variant: Variant): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const process_ = spawn('taskset', ['-c', '0', process.execPath, import.meta.filename, variant], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    process_.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    process_.once('exit', (code) => {
      if (code === 0) resolve(JSON.parse(out) as Figures);
      else reject(new Error(`${variant} exited with ${code}`));
    });
  });
}

async function pairs(rounds: number): Promise<void> {
  execFileSync('taskset', ['-c', '0', 'true']);
  const rows: string[] = [];
  for (const variant of VARIANTS.slice(1)) {
    const today: number[] = [];
    const other: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const [a, b] = await Promise.all([child('today'), child(variant)]);
      today.push(a.cpuUsPerDelivery);
      other.push(b.cpuUsPerDelivery);
    }
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    rows.push(
      `| ${variant} | ${today.join(', ')} | ${other.join(', ')} | ${(mean(other) / mean(today)).toFixed(2)} |`,
    );
  }
  process.stdout.write(
    `| Variant (beside today's layout, at once on core 0) | today µs/delivery | variant µs/delivery | variant / today |\n| --- | --- | --- | ---: |\n${rows.join('\n')}\n`,
  );
}

const argument = process.argv[2] ?? 'today';
if (argument === '--pairs') {
  await pairs(Number(process.argv[3] ?? 2));
} else if ((VARIANTS as readonly string[]).includes(argument)) {
  process.stdout.write(`${JSON.stringify(await runOnce(argument as Variant))}\n`);
} else {
  process.stderr.write(`unknown variant ${argument}; one of ${VARIANTS.join(', ')}, or --pairs\n`);
  process.exitCode = 2;
}
