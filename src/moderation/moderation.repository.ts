// Moderation's reads and writes: accounts' standing, takedowns, reports and the audit log.
// Plain functions over a database or transaction handle (the service runs several in one).
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { KeysetPosition } from '../db/keyset.ts';
import type {
  AuditLogTable,
  AuditRow,
  ReportRow,
  ReportStatus,
  ReportTable,
  ReportTargetKind,
  Role,
} from './moderation.table.ts';

export interface UserStanding {
  id: string;
  name: string;
  email: string | null;
  role: Role;
  created_at: number;
  suspended_at: number | null;
  suspension_reason: string | null;
}

const USER_COLUMNS = [
  'id',
  'name',
  'email',
  'role',
  'created_at',
  'suspended_at',
  'suspension_reason',
] as const;

export async function findUserStanding(db: Db, id: string): Promise<UserStanding | undefined> {
  return db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function findUserByEmail(db: Db, email: string): Promise<UserStanding | undefined> {
  return db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where('email', '=', email.trim().toLowerCase())
    .executeTakeFirst();
}

/** `%`, `_` and the escape itself match literally. */
function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Users whose id, name or email contains `query` (any case), newest first; all of them without one. */
export async function searchUsers(db: Db, query: string, take: number): Promise<UserStanding[]> {
  let select = db.selectFrom('users').select(USER_COLUMNS);
  const text = query.trim();
  if (text !== '') {
    const pattern = likePattern(text);
    select = select.where((eb) =>
      eb.or([
        eb('id', '=', text),
        sql<boolean>`lower(users.name) like ${pattern} escape '\\'`,
        sql<boolean>`lower(coalesce(users.email, '')) like ${pattern} escape '\\'`,
      ]),
    );
  }
  return select.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(take).execute();
}

export async function setRole(db: Db, id: string, role: Role): Promise<boolean> {
  const result = await db.updateTable('users').set({ role }).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Suspends an account in good standing; false when it already was (or does not exist). */
export async function suspendUser(db: Db, id: string, at: number, reason: string): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ suspended_at: at, suspension_reason: reason })
    .where('id', '=', id)
    .where('suspended_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function reinstateUser(db: Db, id: string): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ suspended_at: null, suspension_reason: null })
    .where('id', '=', id)
    .where('suspended_at', 'is not', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteSessionsOf(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('web_sessions').where('user_id', '=', userId).execute();
}

/** The ids of a creator's live streams (a suspension ends them). */
export async function liveStreamIds(db: Db, creatorId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('streams')
    .select('id')
    .where('creator_id', '=', creatorId)
    .where('status', '=', 'live')
    .execute();
  return rows.map((row) => row.id);
}

export type ContentKind = 'stream' | 'video';

/** A stream or a video as the admin area lists it, taken down or not. */
export interface ContentItem {
  kind: ContentKind;
  id: string;
  title: string;
  creator_id: string;
  creator_name: string;
  /** A stream's status, or `published` / `processing` for a video. */
  status: string;
  privacy: string;
  created_at: number;
  taken_down_at: number | null;
  takedown_reason: string | null;
}

export async function findContent(db: Db, kind: ContentKind, id: string): Promise<ContentItem | undefined> {
  return (await listContent(db, kind, { id }, 1))[0];
}

/** Newest first; by title (any case) or id when `query` is given, by creator when `creatorId` is. */
export async function listContent(
  db: Db,
  kind: ContentKind,
  filter: { query?: string; creatorId?: string; id?: string; takenDownOnly?: boolean },
  take: number,
): Promise<ContentItem[]> {
  const base =
    kind === 'stream'
      ? db
          .selectFrom('streams as item')
          .innerJoin('users', 'users.id', 'item.creator_id')
          .select(['item.status as status'])
      : db
          .selectFrom('videos as item')
          .innerJoin('users', 'users.id', 'item.creator_id')
          .select(
            sql<string>`case when item.published_at is null then 'processing' else 'published' end`.as(
              'status',
            ),
          );
  let query = base.select([
    'item.id',
    'item.title',
    'item.creator_id',
    'users.name as creator_name',
    'item.privacy',
    'item.created_at',
    'item.taken_down_at',
    'item.takedown_reason',
  ]);
  if (filter.id !== undefined) query = query.where('item.id', '=', filter.id);
  if (filter.creatorId !== undefined) query = query.where('item.creator_id', '=', filter.creatorId);
  if (filter.takenDownOnly === true) query = query.where('item.taken_down_at', 'is not', null);
  const text = filter.query?.trim() ?? '';
  if (text !== '') {
    const pattern = likePattern(text);
    query = query.where((eb) =>
      eb.or([eb('item.id', '=', text), sql<boolean>`lower(item.title) like ${pattern} escape '\\'`]),
    );
  }
  const rows = await query
    .orderBy('item.created_at', 'desc')
    .orderBy('item.id', 'desc')
    .limit(take)
    .execute();
  return rows.map((row) => ({ ...row, kind }));
}

/** Sets or clears a takedown; false when nothing changed (no such item, or already so). */
export async function setTakedown(
  db: Db,
  kind: ContentKind,
  id: string,
  takedown: { at: number; reason: string } | null,
): Promise<boolean> {
  const table = kind === 'stream' ? 'streams' : 'videos';
  const result = await db
    .updateTable(table)
    .set(
      takedown === null
        ? { taken_down_at: null, takedown_reason: null }
        : { taken_down_at: takedown.at, takedown_reason: takedown.reason },
    )
    .where('id', '=', id)
    .where('taken_down_at', takedown === null ? 'is not' : 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

// Reports.

export async function insertReport(db: Db, report: ReportTable): Promise<void> {
  await db.insertInto('reports').values(report).execute();
}

export async function findOpenReportBy(
  db: Db,
  reporterId: string,
  targetId: string,
): Promise<ReportRow | undefined> {
  return db
    .selectFrom('reports')
    .selectAll()
    .where('reporter_id', '=', reporterId)
    .where('target_id', '=', targetId)
    .where('status', '=', 'open')
    .executeTakeFirst();
}

export async function countOpenReportsBy(db: Db, reporterId: string): Promise<number> {
  const row = await db
    .selectFrom('reports')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('reporter_id', '=', reporterId)
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function findReport(db: Db, id: string): Promise<ReportRow | undefined> {
  return db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface ReportListing extends ReportRow {
  reporter_name: string;
  creator_name: string;
}

/** Reports of one status: open ones oldest first (a queue), resolved ones newest first. */
export async function listReports(db: Db, status: ReportStatus, take: number): Promise<ReportListing[]> {
  const query = db
    .selectFrom('reports')
    .innerJoin('users as reporter', 'reporter.id', 'reports.reporter_id')
    .leftJoin('users as creator', 'creator.id', 'reports.creator_id')
    .selectAll('reports')
    .select(['reporter.name as reporter_name', sql<string>`coalesce(creator.name, '')`.as('creator_name')])
    .where('reports.status', '=', status);
  const ordered =
    status === 'open'
      ? query.orderBy('reports.created_at', 'asc').orderBy('reports.id', 'asc')
      : query.orderBy('reports.resolved_at', 'desc').orderBy('reports.id', 'desc');
  return ordered.limit(take).execute();
}

/** Resolves every open report of a target (acting on one settles them all); returns how many. */
export async function resolveOpenReports(
  db: Db,
  target: { kind: ReportTargetKind; id: string } | { creatorId: string },
  resolution: { status: Exclude<ReportStatus, 'open'>; at: number; by: string | null; what: string },
): Promise<number> {
  let query = db
    .updateTable('reports')
    .set({
      status: resolution.status,
      resolved_at: resolution.at,
      resolved_by: resolution.by,
      resolution: resolution.what,
    })
    .where('status', '=', 'open');
  query =
    'creatorId' in target
      ? query.where('creator_id', '=', target.creatorId)
      : query.where('target_kind', '=', target.kind).where('target_id', '=', target.id);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function resolveReport(
  db: Db,
  id: string,
  resolution: { status: Exclude<ReportStatus, 'open'>; at: number; by: string | null; what: string },
): Promise<boolean> {
  const result = await db
    .updateTable('reports')
    .set({
      status: resolution.status,
      resolved_at: resolution.at,
      resolved_by: resolution.by,
      resolution: resolution.what,
    })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

// The audit log.

export async function insertAudit(db: Db, row: AuditLogTable): Promise<void> {
  await db.insertInto('audit_log').values(row).execute();
}

/** Newest first by (created_at, id), a keyset page at a time. */
export async function listAudit(
  db: Db,
  filter: { after?: KeysetPosition | undefined; targetId?: string | undefined },
  take: number,
): Promise<AuditRow[]> {
  let query = db.selectFrom('audit_log').selectAll();
  if (filter.targetId !== undefined) query = query.where('target_id', '=', filter.targetId);
  const after = filter.after;
  if (after !== undefined) {
    query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.sortKey, after.id)));
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(take).execute();
}
