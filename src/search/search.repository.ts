// The search queries, one per kind and dialect, over the indexes the 2026-11-26-020-search
// migration keeps by triggers (FTS5 tables on SQLite, tsvector tables with GIN indexes on
// PostgreSQL). Each query takes the newest CANDIDATES matches (the index's own order: FTS5
// rowid, or a b-tree on the publication time), ranks those by relevance (titleScore, ts_rank) and
// returns one page of them with the candidates' count. On SQLite the newest document has the
// smallest rowid (2026-11-26-087: FTS5 reads ascending rowids fastest). Bounding the candidates keeps a word
// that matches most of the catalogue ("live") as cheap as a rare one: ranking and counting
// never touch more than CANDIDATES rows. SQLite's `hits` is `materialized`: it is read twice (the
// page and the count), and without the hint SQLite may run the FTS5 query twice (PostgreSQL
// materializes a CTE read twice by itself). On SQLite the ranking and the upcoming filter read
// the FTS5 row itself (its title, a stream's status and time: 2026-11-26-076), and only the page's
// rows are joined to their tables: a join per match cost more than the match.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.ts';
import { dialectOf } from '../db/dialect.ts';
import type { BrowsableStreamRow } from '../streams/stream-listing.repository.ts';
import type { BrowsableVideoRow } from '../videos/video-listing.repository.ts';
import { fts5Query, tsQuery } from './search-terms.ts';

/** The most matches of one kind that are ranked, counted and paged through. */
export const CANDIDATES = 200;

export interface ChannelRow {
  id: string;
  name: string;
  subscribers: number;
}

export interface Hits<Row> {
  rows: Row[];
  /** How many matches there are, up to CANDIDATES. */
  total: number;
}

export interface PageRequest {
  terms: readonly string[];
  offset: number;
  take: number;
}

type Counted<Row> = { total: number | string } & { [K in keyof Row]: Row[K] | null };

async function collect<Row extends { id: string }>(
  query: RawBuilder<Counted<Row>>,
  db: Db,
): Promise<Hits<Row>> {
  const result = await query.execute(db);
  const total = Number(result.rows[0]?.total ?? 0);
  // The count comes on every row, and alone on one row (id null) when the page is empty.
  const rows = result.rows
    .filter((row) => row.id !== null)
    .map(({ total: _total, ...row }) => row as unknown as Row);
  return { rows, total };
}

/**
 * SQLite's relevance: how many of the words the title holds (then the newest first). FTS5's
 * bm25 would read statistics of every match of each prefix before returning a row: 5 to 40 ms
 * for a word most of 100,000 items have, against well under 1 ms for this over 200 rows.
 * SQLite's lower() folds ASCII only, so a capital outside it only costs a title its place.
 */
function titleScore(terms: readonly string[], title: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql.join(
    terms.map((term) => sql`(instr(lower(${title}), ${term}) > 0)`),
    sql` + `,
  );
}

export async function searchVideos(db: Db, request: PageRequest): Promise<Hits<BrowsableVideoRow>> {
  const { offset, take } = request;
  const columns = sql`v.id, v.creator_id, v.title, v.category, v.duration_seconds, v.view_count,
    v.published_at, v.thumbnail_at, u.name as creator_name`;
  if (dialectOf(db) === 'sqlite') {
    return collect(
      sql<Counted<BrowsableVideoRow>>`
        with hits as materialized (
          select rowid as doc, ${titleScore(request.terms, sql`title`)} as score from video_search
          where video_search match ${fts5Query(request.terms)} order by rowid limit ${CANDIDATES}
        ), page as (
          select doc, score from hits order by score desc, doc limit ${take} offset ${offset}
        )
        select c.total, ${columns}
        from (select count(*) as total from hits) c
        left join page p on 1 = 1
        left join video_search_docs d on d.rowid = p.doc
        left join videos v on v.id = d.item_id and v.privacy = 'public' and v.published_at is not null
        left join users u on u.id = v.creator_id
        order by p.score desc, p.doc`,
      db,
    );
  }
  return collect(
    sql<Counted<BrowsableVideoRow>>`
      with hits as (
        select video_id, published_at, document from video_search
        where document @@ to_tsquery('simple', ${tsQuery(request.terms)})
        order by published_at desc, video_id desc limit ${CANDIDATES}
      ), page as (
        select video_id, published_at, ts_rank(document, to_tsquery('simple', ${tsQuery(request.terms)})) as score
        from hits order by score desc, published_at desc, video_id desc limit ${take} offset ${offset}
      )
      select c.total, ${columns}
      from (select count(*) as total from hits) c
      left join page p on true
      left join videos v on v.id = p.video_id and v.privacy = 'public' and v.published_at is not null
      left join users u on u.id = v.creator_id
      order by p.score desc, p.published_at desc, p.video_id desc`,
    db,
  );
}

/**
 * Public live streams, and public scheduled ones from `from` on (as the home page lists them:
 * a standby stream with no time is not upcoming); live ones first, then by relevance.
 */
export async function searchStreams(
  db: Db,
  request: PageRequest & { from: number },
): Promise<Hits<BrowsableStreamRow>> {
  const { offset, take, from } = request;
  const columns = sql`t.id, t.creator_id, t.title, t.category, t.viewer_count, t.started_at, t.scheduled_at,
    t.thumbnail_at, u.name as creator_name`;
  if (dialectOf(db) === 'sqlite') {
    // The index holds public live and scheduled streams, with their status and time
    // (2026-11-26-076): no match is joined to `streams` before the page is chosen.
    return collect(
      sql<Counted<BrowsableStreamRow>>`
        with hits as materialized (
          select rowid as doc, ${titleScore(request.terms, sql`title`)} as score, status = 'live' as live
          from stream_search
          where stream_search match ${fts5Query(request.terms)}
            and (status = 'live' or (status = 'scheduled' and scheduled_at >= ${from}))
          order by rowid limit ${CANDIDATES}
        ), page as (
          select doc, score, live from hits order by live desc, score desc, doc limit ${take} offset ${offset}
        )
        select c.total, ${columns}
        from (select count(*) as total from hits) c
        left join page p on 1 = 1
        left join stream_search_docs d on d.rowid = p.doc
        left join streams t on t.id = d.item_id
        left join users u on u.id = t.creator_id
        order by p.live desc, p.score desc, p.doc`,
      db,
    );
  }
  const shown = sql`t.privacy = 'public'
    and (t.status = 'live' or (t.status = 'scheduled' and t.scheduled_at >= ${from}))`;
  return collect(
    sql<Counted<BrowsableStreamRow>>`
      with hits as (
        select s.stream_id, s.created_at, s.document, t.status = 'live' as live
        from stream_search s join streams t on t.id = s.stream_id
        where s.document @@ to_tsquery('simple', ${tsQuery(request.terms)}) and ${shown}
        order by s.created_at desc, s.stream_id desc limit ${CANDIDATES}
      ), page as (
        select stream_id, created_at, live,
          ts_rank(document, to_tsquery('simple', ${tsQuery(request.terms)})) as score
        from hits order by live desc, score desc, created_at desc, stream_id desc limit ${take} offset ${offset}
      )
      select c.total, ${columns}
      from (select count(*) as total from hits) c
      left join page p on true
      left join streams t on t.id = p.stream_id
      left join users u on u.id = t.creator_id
      order by p.live desc, p.score desc, p.created_at desc, p.stream_id desc`,
    db,
  );
}

/** Channels (every user has one) by name, with their active subscriber counts. */
export async function searchChannels(db: Db, request: PageRequest): Promise<Hits<ChannelRow>> {
  const { offset, take } = request;
  const columns = sql`u.id, u.name,
    (select count(*) from subscriptions s where s.creator_id = u.id and s.status = 'active') as subscribers`;
  const counted =
    dialectOf(db) === 'sqlite'
      ? sql<Counted<ChannelRow>>`
        with hits as materialized (
          select rowid as doc from channel_search
          where channel_search match ${fts5Query(request.terms)} order by rowid limit ${CANDIDATES}
        ), page as (select doc from hits order by doc limit ${take} offset ${offset})
        select c.total, ${columns}
        from (select count(*) as total from hits) c
        left join page p on 1 = 1
        left join channel_search_docs d on d.rowid = p.doc
        left join users u on u.id = d.item_id
        order by p.doc`
      : sql<Counted<ChannelRow>>`
        with hits as (
          select id, created_at, name from users
          where to_tsvector('simple', name) @@ to_tsquery('simple', ${tsQuery(request.terms)})
          order by created_at desc, id desc limit ${CANDIDATES}
        ), page as (
          select id, created_at,
            ts_rank(to_tsvector('simple', name), to_tsquery('simple', ${tsQuery(request.terms)})) as score
          from hits order by score desc, created_at desc, id desc limit ${take} offset ${offset}
        )
        select c.total, ${columns}
        from (select count(*) as total from hits) c
        left join page p on true
        left join users u on u.id = p.id
        order by p.score desc, p.created_at desc, p.id desc`;
  // PostgreSQL's bigint count arrives as a number too (src/db/database.ts's INT8 parser).
  return collect(counted, db);
}
