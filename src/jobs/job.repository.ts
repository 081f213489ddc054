// The media job queue's SQL: enqueue, claim under a lease, renew, settle. The same discipline
// as webhook deliveries: a claim is one UPDATE over a subquery that takes the due rows
// (`FOR UPDATE SKIP LOCKED` on PostgreSQL, so workers never take the same job; SQLite
// serialises writers), and a worker that dies leaves a lease that lapses.
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { dialectOf } from '../db/dialect.ts';
import { newId } from '../shared/ids.ts';
import type { MediaJobRow } from './job.table.ts';

export interface NewJob {
  kind: string;
  subjectId: string;
  maxAttempts: number;
  now: number;
}

/** Adds the job unless one of this kind already exists for the subject (a repeated finish). */
export async function enqueueJob(db: Db, job: NewJob): Promise<void> {
  await db
    .insertInto('media_jobs')
    .values({
      id: newId('job'),
      kind: job.kind,
      subject_id: job.subjectId,
      status: 'pending',
      attempts: 0,
      max_attempts: job.maxAttempts,
      run_after: job.now,
      locked_until: null,
      lease_token: null,
      last_error: null,
      created_at: job.now,
      updated_at: job.now,
    })
    .onConflict((oc) => oc.columns(['kind', 'subject_id']).doNothing())
    .execute();
}

/**
 * Runs the subject's job of this kind once more: a finished or given-up one is made pending
 * again with fresh attempts, none is enqueued; one pending or running is left as it is (it has
 * yet to run, or runs now).
 */
export async function requeueJob(db: Db, job: NewJob): Promise<void> {
  await db
    .updateTable('media_jobs')
    .set({
      status: 'pending',
      attempts: 0,
      max_attempts: job.maxAttempts,
      run_after: job.now,
      last_error: null,
      updated_at: job.now,
    })
    .where('kind', '=', job.kind)
    .where('subject_id', '=', job.subjectId)
    .where('status', 'in', ['done', 'failed'])
    .execute();
  await enqueueJob(db, job);
}

export interface ClaimRequest {
  now: number;
  leaseUntil: number;
  leaseToken: string;
  /** Only this job (the CLI's import runs its own); any due job when absent. */
  jobId?: string | undefined;
  /** Only jobs of these kinds (a runner claims what it has handlers for). */
  kinds?: readonly string[] | undefined;
}

/**
 * Claims the oldest due job: pending and due, or running with a lapsed lease (its worker
 * died). The claim counts as an attempt.
 */
export async function claimJob(db: Db, request: ClaimRequest): Promise<MediaJobRow | undefined> {
  let due = db
    .selectFrom('media_jobs')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'pending'), eb('run_after', '<=', request.now)]),
        eb.and([eb('status', '=', 'running'), eb('locked_until', '<=', request.now)]),
      ]),
    )
    .orderBy('run_after', 'asc')
    .limit(1);
  if (request.jobId !== undefined) due = due.where('id', '=', request.jobId);
  if (request.kinds !== undefined) due = due.where('kind', 'in', request.kinds);
  if (dialectOf(db) === 'postgres') due = due.forUpdate().skipLocked();
  return db
    .updateTable('media_jobs')
    .set((eb) => ({
      status: 'running',
      attempts: eb('attempts', '+', 1),
      locked_until: request.leaseUntil,
      lease_token: request.leaseToken,
      updated_at: request.now,
    }))
    .where('id', 'in', due)
    .returningAll()
    .executeTakeFirst();
}

/** Extends a running job's lease; false when the lease was lost (it lapsed and was taken). */
export async function renewLease(db: Db, id: string, token: string, leaseUntil: number): Promise<boolean> {
  const result = await db
    .updateTable('media_jobs')
    .set({ locked_until: leaseUntil })
    .where('id', '=', id)
    .where('lease_token', '=', token)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export interface Settlement {
  id: string;
  token: string;
  status: 'done' | 'failed' | 'pending';
  /** For pending: when to try again. */
  runAfter?: number;
  error?: string | null;
  now: number;
}

/** Settles a claimed job, only while the claim is still this worker's. */
export async function settleJob(db: Db, settlement: Settlement): Promise<boolean> {
  const result = await db
    .updateTable('media_jobs')
    .set({
      status: settlement.status,
      locked_until: null,
      lease_token: null,
      last_error: settlement.error ?? null,
      updated_at: settlement.now,
      ...(settlement.runAfter === undefined ? {} : { run_after: settlement.runAfter }),
    })
    .where('id', '=', settlement.id)
    .where('lease_token', '=', settlement.token)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function findJob(db: Db, kind: string, subjectId: string): Promise<MediaJobRow | undefined> {
  return db
    .selectFrom('media_jobs')
    .selectAll()
    .where('kind', '=', kind)
    .where('subject_id', '=', subjectId)
    .executeTakeFirst();
}

/** When the next pending job falls due (the runner sleeps until then), or undefined. */
export async function nextDueAt(db: Db, kinds?: readonly string[]): Promise<number | undefined> {
  let query = db
    .selectFrom('media_jobs')
    .select(sql<number>`min(case when status = 'pending' then run_after else locked_until end)`.as('at'))
    .where('status', 'in', ['pending', 'running']);
  if (kinds !== undefined) query = query.where('kind', 'in', kinds);
  const row = await query.executeTakeFirst();
  return row?.at ?? undefined;
}
