// What moderation hides (src/moderation/): a stream or a video is shown only while it is not
// taken down and its creator is not suspended; a video recorded from a taken-down stream is
// hidden with it. Every read that serves viewers or the API adds one of these conditions, so
// a suspension or a takedown is one row's change and takes effect on the next query, in
// every process. Raw SQL on the tables' own names: the same text on SQLite and PostgreSQL,
// and no bound values (src/db/compiled-query.ts's rule for constants).
import { sql, type RawBuilder, type SqlBool } from 'kysely';

const CREATOR_IN_GOOD_STANDING = (table: string): string =>
  `not exists (select 1 from users as standing where standing.id = ${table}.creator_id and standing.suspended_at is not null)`;

/**
 * streamShown's condition as SQL text, on a stream table named `alias` (for queries written
 * as text: search's).
 */
export function streamShownText(alias: string): string {
  return `(${alias}.taken_down_at is null and ${CREATOR_IN_GOOD_STANDING(alias)})`;
}

/** videoShown's condition as SQL text, on a video table named `alias`. */
export function videoShownText(alias: string): string {
  return (
    `(${alias}.taken_down_at is null and ${CREATOR_IN_GOOD_STANDING(alias)} and not exists ` +
    `(select 1 from streams as source where source.id = ${alias}.source_stream_id and source.taken_down_at is not null))`
  );
}

/** The stream is neither taken down nor its creator's account suspended. */
export function streamShown(): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.raw(streamShownText('streams'))}`;
}

/** The video is neither taken down, nor recorded from a taken-down stream, nor its creator suspended. */
export function videoShown(): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.raw(videoShownText('videos'))}`;
}

/** The account is not suspended (for joins on users: channels, API keys). */
export function userInGoodStanding(alias = 'users'): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${sql.raw(`${alias}.suspended_at is null`)})`;
}
