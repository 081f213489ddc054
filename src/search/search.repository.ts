// The search queries, one per kind and dialect, over the indexes the 2026-11-26-020-search
// migration keeps by triggers (FTS5 tables on SQLite, tsvector tables with GIN indexes on
// PostgreSQL). Each query returns one page of matches, newest first (a stream: live ones
// first), in the index's own order (FTS5 rowid, or a b-tree on the publication time), and
// whether there is more: it reads the page's offset, its rows and one match more, and nothing
// is counted or ranked beyond that. A match costs about 4 µs to find on SQLite at 100,000
// videos (a seek in the doclist of a word most documents hold, or a read of the FTS row), so a
// search reads tens of matches, never all of them (docs/api-decisions.md, Search). On SQLite
// the newest document has the smallest rowid (2026-11-26-087: FTS5 reads ascending rowids
// fastest), the upcoming filter reads the FTS row itself (a stream's status and time:
// 2026-11-26-076), and only the page's rows are joined to their tables.
//
// The SQL is written once per shape (kind, dialect, page size and offset, which are literals:
// SQLite plans a bound LIMIT again on every run, src/db/compiled-query.ts) and run without
// Kysely's query builder; only the words and times are bound.
import { CompiledQuery } from 'kysely';
import { scanReaderOf, type Db } from '../db/database.ts';
import { dialectOf, type Dialect } from '../db/dialect.ts';
import type { BrowsableStreamRow } from '../streams/stream-listing.repository.ts';
import type { BrowsableVideoRow } from '../videos/video-listing.repository.ts';
import { streamShownText, videoShownText } from '../accounts/standing.ts';
import { fts5Query, tsQuery } from './search-terms.ts';

export interface ChannelRow {
  id: string;
  name: string;
  subscribers: number;
}

export interface Hits<Row> {
  rows: Row[];
  /** Whether more matches follow this page. */
  more: boolean;
}

export interface PageRequest {
  terms: readonly string[];
  offset: number;
  /** Rows wanted; 0 asks only whether there is any match (`more`). */
  take: number;
}

type Shape = { dialect: Dialect; take: number; offset: number };
type Writer = (shape: Shape) => string;

// Keyed by query, dialect, page size and offset: a few dozen texts in all (LAST_PAGE pages).
const texts = new Map<string, string>();

function textOf(name: string, write: Writer, shape: Shape): string {
  for (const value of [shape.take, shape.offset]) {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`search: ${value} is not a count`);
  }
  const key = `${name}|${shape.dialect}|${shape.take}|${shape.offset}`;
  let text = texts.get(key);
  if (text === undefined) {
    text = write(shape);
    // PostgreSQL numbers its placeholders; no `?` is written into the SQL but placeholders.
    if (shape.dialect === 'postgres') {
      let n = 0;
      text = text.replace(/\?/g, () => `$${++n}`);
    }
    texts.set(key, text);
  }
  return text;
}

/** The page's rows, and whether a row beyond them was read (each query reads take + 1). */
async function page<Row extends { id: string | null }>(
  db: Db,
  name: string,
  write: Writer,
  request: PageRequest,
  parameters: readonly unknown[],
): Promise<Hits<Row>> {
  const { take, offset } = request;
  const text = textOf(name, write, { dialect: dialectOf(db), take, offset });
  const rows =
    (scanReaderOf(db)?.(text, parameters) as Row[] | undefined) ??
    (await db.executeQuery<Row>(CompiledQuery.raw(text, [...parameters]))).rows;
  // A match whose item is no longer shown (its join found nothing) is left out.
  return { rows: rows.slice(0, take).filter((row) => row.id !== null), more: rows.length > take };
}

const VIDEO_COLUMNS = `v.id, v.creator_id, v.title, v.category, v.duration_seconds, v.view_count,
  v.published_at, v.thumbnail_at, u.name as creator_name`;

// What a visitor may see (moderation's conditions among them: the index keeps a taken-down item
// or a suspended creator's, which the join then leaves out).
const VIDEO_SHOWN = `v.privacy = 'public' and v.published_at is not null and ${videoShownText('v')}`;

const videosText: Writer = ({ dialect, take, offset }) =>
  dialect === 'sqlite'
    ? `with hits as materialized (
         select rowid as doc from video_search where video_search match ?
         order by rowid limit ${take + 1} offset ${offset}
       )
       select ${VIDEO_COLUMNS}
       from hits h
       left join video_search_docs d on d.rowid = h.doc
       left join videos v on v.id = d.item_id and ${VIDEO_SHOWN}
       left join users u on u.id = v.creator_id
       order by h.doc`
    : `with hits as (
         select video_id, published_at from video_search
         where document @@ to_tsquery('simple', ?)
         order by published_at desc, video_id desc limit ${take + 1} offset ${offset}
       )
       select ${VIDEO_COLUMNS}
       from hits h
       left join videos v on v.id = h.video_id and ${VIDEO_SHOWN}
       left join users u on u.id = v.creator_id
       order by h.published_at desc, h.video_id desc`;

export async function searchVideos(db: Db, request: PageRequest): Promise<Hits<BrowsableVideoRow>> {
  const query = dialectOf(db) === 'sqlite' ? fts5Query(request.terms) : tsQuery(request.terms);
  return page(db, 'videos', videosText, request, [query]);
}

const STREAM_COLUMNS = `t.id, t.creator_id, t.title, t.category, t.viewer_count, t.started_at, t.scheduled_at,
  t.thumbnail_at, u.name as creator_name`;

// Live matches, then upcoming ones, each part reading at most the page's end (on SQLite the
// upcoming part only what the live part left of it): "live first" costs no more than the page. Parameters: the words, the words, the earliest upcoming time.
const streamsText: Writer = ({ dialect, take, offset }) => {
  const end = offset + take + 1;
  if (dialect === 'sqlite') {
    // The index holds public live and scheduled streams, with their status and time
    // (2026-11-26-076): no match is joined to `streams` before the page is chosen.
    return `with live as materialized (
        select rowid as doc from stream_search where stream_search match ? and status = 'live'
        order by rowid limit ${end}
      ), upcoming as materialized (
        select rowid as doc from stream_search
        where stream_search match ? and status = 'scheduled' and scheduled_at >= ?
        order by rowid limit max(0, ${end} - (select count(*) from live))
      ), hits as materialized (
        select doc, 1 as live from live union all select doc, 0 as live from upcoming
        order by live desc, doc limit ${take + 1} offset ${offset}
      )
      select ${STREAM_COLUMNS}
      from hits h
      left join stream_search_docs d on d.rowid = h.doc
      left join streams t on t.id = d.item_id and ${streamShownText('t')}
      left join users u on u.id = t.creator_id
      order by h.live desc, h.doc`;
  }
  const part = (status: string) => `
    select s.stream_id, s.created_at from stream_search s join streams t on t.id = s.stream_id
    where s.document @@ to_tsquery('simple', ?) and t.privacy = 'public' and ${streamShownText('t')}
      and ${status}
    order by s.created_at desc, s.stream_id desc limit ${end}`;
  return `with hits as (
      select stream_id, created_at, 1 as live from (${part(`t.status = 'live'`)}) l
      union all
      select stream_id, created_at, 0 as live
      from (${part(`t.status = 'scheduled' and t.scheduled_at >= ?`)}) s
      order by live desc, created_at desc, stream_id desc limit ${take + 1} offset ${offset}
    )
    select ${STREAM_COLUMNS}
    from hits h
    left join streams t on t.id = h.stream_id
    left join users u on u.id = t.creator_id
    order by h.live desc, h.created_at desc, h.stream_id desc`;
};

/**
 * Public live streams, then public scheduled ones from `from` on (as the home page lists them:
 * a standby stream with no time is not upcoming); the newest first within each.
 */
export async function searchStreams(
  db: Db,
  request: PageRequest & { from: number },
): Promise<Hits<BrowsableStreamRow>> {
  const query = dialectOf(db) === 'sqlite' ? fts5Query(request.terms) : tsQuery(request.terms);
  return page(db, 'streams', streamsText, request, [query, query, request.from]);
}

const CHANNEL_COLUMNS = `u.id, u.name,
  (select count(*) from subscriptions s where s.creator_id = u.id and s.status = 'active') as subscribers`;

const channelsText: Writer = ({ dialect, take, offset }) =>
  dialect === 'sqlite'
    ? `with hits as materialized (
         select rowid as doc from channel_search where channel_search match ?
         order by rowid limit ${take + 1} offset ${offset}
       )
       select ${CHANNEL_COLUMNS}
       from hits h
       left join channel_search_docs d on d.rowid = h.doc
       left join users u on u.id = d.item_id and u.suspended_at is null
       order by h.doc`
    : `with hits as (
         select id, created_at from users
         where to_tsvector('simple', name) @@ to_tsquery('simple', ?) and suspended_at is null
         order by created_at desc, id desc limit ${take + 1} offset ${offset}
       )
       select ${CHANNEL_COLUMNS}
       from hits h
       left join users u on u.id = h.id
       order by h.created_at desc, h.id desc`;

/** Channels (every user has one) by name, the newest first, with their active subscriber counts. */
export async function searchChannels(db: Db, request: PageRequest): Promise<Hits<ChannelRow>> {
  const query = dialectOf(db) === 'sqlite' ? fts5Query(request.terms) : tsQuery(request.terms);
  // PostgreSQL's bigint count arrives as a number too (src/db/database.ts's INT8 parser).
  return page(db, 'channels', channelsText, request, [query]);
}
