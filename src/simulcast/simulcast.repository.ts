// Simulcast destinations' SQL. A destination belongs to a stream (stream_id) or is one of its
// creator's channel defaults (stream_id null); lists are in the order they were added.
import type { Db } from '../db/database.ts';
import { dialectOf } from '../db/dialect.ts';
import type { SimulcastState, SimulcastTargetRow, SimulcastTargetTable } from './simulcast-target.table.ts';

/** Whose destinations: one stream's, or one creator's channel defaults. */
export type TargetScope = { streamId: string } | { creatorId: string; streamId: null };

export async function insertTarget(db: Db, row: SimulcastTargetTable): Promise<void> {
  await db.insertInto('simulcast_targets').values(row).execute();
}

export async function findTarget(db: Db, id: string): Promise<SimulcastTargetRow | undefined> {
  return db.selectFrom('simulcast_targets').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listTargets(db: Db, scope: TargetScope): Promise<SimulcastTargetRow[]> {
  let query = db.selectFrom('simulcast_targets').selectAll();
  query =
    scope.streamId === null
      ? query.where('creator_id', '=', scope.creatorId).where('stream_id', 'is', null)
      : query.where('stream_id', '=', scope.streamId);
  return query.orderBy('created_at').orderBy('id').execute();
}

export async function countTargets(db: Db, scope: TargetScope): Promise<number> {
  let query = db.selectFrom('simulcast_targets').select((eb) => eb.fn.countAll<number | string>().as('n'));
  query =
    scope.streamId === null
      ? query.where('creator_id', '=', scope.creatorId).where('stream_id', 'is', null)
      : query.where('stream_id', '=', scope.streamId);
  const row = await query.executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The enabled destinations a publish of the stream is sent to. */
export async function enabledTargetsOf(db: Db, streamId: string): Promise<SimulcastTargetRow[]> {
  return db
    .selectFrom('simulcast_targets')
    .selectAll()
    .where('stream_id', '=', streamId)
    .where('enabled', '=', 1)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function updateTarget(
  db: Db,
  id: string,
  changes: Partial<Omit<SimulcastTargetTable, 'id' | 'creator_id' | 'stream_id' | 'created_at'>>,
): Promise<SimulcastTargetRow | undefined> {
  return db
    .updateTable('simulcast_targets')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Moves a destination to `state` only if it is in one of `from`: two writers cannot both win. */
export async function transitionTarget(
  db: Db,
  id: string,
  from: readonly SimulcastState[],
  changes: { state: SimulcastState; state_reason: string | null; state_changed_at: number },
): Promise<SimulcastTargetRow | undefined> {
  return db
    .updateTable('simulcast_targets')
    .set(changes)
    .where('id', '=', id)
    .where('state', 'in', from)
    .returningAll()
    .executeTakeFirst();
}

export async function setReason(db: Db, id: string, reason: string): Promise<void> {
  await db
    .updateTable('simulcast_targets')
    .set({ state_reason: reason })
    .where('id', '=', id)
    .where('state', '=', 'failing')
    .execute();
}

export async function deleteTarget(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('simulcast_targets').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Takes the account's row lock on PostgreSQL, so two creations check the limit in turn. */
export async function lockAccount(trx: Db, creatorId: string): Promise<void> {
  if (dialectOf(trx) === 'postgres') {
    await trx.selectFrom('users').select('id').where('id', '=', creatorId).forUpdate().execute();
  }
}
