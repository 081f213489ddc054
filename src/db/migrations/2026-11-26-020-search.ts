import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Full-text search over what a visitor may see (src/search): public published videos, public
// live and scheduled streams, and channels (users by name). The database keeps the index in
// step with the rows by triggers, so every writer (the services, the seeds, the CLI, an
// operator's SQL) is covered and a write and its index change commit together:
//
// - SQLite: an FTS5 table per kind (video_search, stream_search, channel_search) whose rowid is
//   a `*_search_docs` row's INTEGER PRIMARY KEY. The docs table maps it to the item's text id:
//   an implicit rowid of `videos` would do, but VACUUM may renumber those. A doc is made when
//   an item becomes visible, so rowid order is the order items became searchable (newest last).
// - PostgreSQL: a table per kind holding a weighted `tsvector` (title A, tags and creator name
//   B, description C) with a GIN index; channels are an expression GIN index on users.name.
//
// A title, description, tags or creator name change rewrites the item's document; a stream's
// viewer count or a video's view count does not touch it (the triggers name their columns).
// The text search configuration is `simple` (no stemming, no stop words, like FTS5's
// unicode61); queries match word prefixes on both.
export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = db.getExecutor().adapter instanceof SqliteAdapter ? SQLITE_UP : POSTGRES_UP;
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const statements = db.getExecutor().adapter instanceof SqliteAdapter ? SQLITE_DOWN : POSTGRES_DOWN;
  for (const statement of statements) await sql.raw(statement).execute(db);
}

// ---- SQLite ---------------------------------------------------------------------------------

interface SqliteKind {
  /** The item table and the FTS5 table's name stem (`video` -> video_search, video_search_docs). */
  table: string;
  kind: string;
  /** The FTS5 columns and, for each, its value from the item row `new` (and users as `u`). */
  columns: Record<string, string>;
  /** When `new` is searchable. */
  visible: string;
  /** The columns whose change rewrites the document. */
  watched: string[];
  /** The order existing items are indexed in (oldest first). */
  age: string;
}

const VIDEO_TAGS = `case when json_valid(new.tags) then (select group_concat(value, ' ') from json_each(new.tags)) end`;
const CREATOR_NAME = `(select name from users where id = new.creator_id)`;

const SQLITE_KINDS: SqliteKind[] = [
  {
    table: 'videos',
    kind: 'video',
    columns: {
      title: 'new.title',
      description: `coalesce(new.description, '')`,
      tags: `coalesce(${VIDEO_TAGS}, '')`,
      creator: CREATOR_NAME,
    },
    visible: `new.privacy = 'public' and new.published_at is not null`,
    watched: ['title', 'description', 'tags', 'privacy', 'published_at', 'creator_id'],
    age: 'published_at, id',
  },
  {
    table: 'streams',
    kind: 'stream',
    columns: { title: 'new.title', description: `coalesce(new.description, '')`, creator: CREATOR_NAME },
    visible: `new.privacy = 'public' and new.status in ('live', 'scheduled')`,
    watched: ['title', 'description', 'privacy', 'status', 'creator_id'],
    age: 'created_at, id',
  },
  {
    table: 'users',
    kind: 'channel',
    columns: { name: 'new.name' },
    visible: '1',
    watched: ['name'],
    age: 'created_at, id',
  },
];

function sqliteKind(k: SqliteKind): { up: string[]; down: string[] } {
  const fts = `${k.kind}_search`;
  const docs = `${k.kind}_search_docs`;
  const names = Object.keys(k.columns);
  const values = Object.values(k.columns);
  // Writes the doc and its FTS row for `new` when it is visible (the doc may already exist).
  const index = [
    `insert or ignore into ${docs} (item_id) select new.id where ${k.visible};`,
    `insert into ${fts} (rowid, ${names.join(', ')})
       select d.rowid, ${values.join(', ')} from ${docs} d where d.item_id = new.id;`,
  ];
  const unindex = (row: string) => [
    `delete from ${fts} where rowid = (select rowid from ${docs} where item_id = ${row}.id);`,
  ];
  const backfill = `insert into ${docs} (item_id) select id from ${k.table} new where ${k.visible} order by ${k.age}`;
  const backfillFts = `insert into ${fts} (rowid, ${names.join(', ')})
    select d.rowid, ${values.join(', ')} from ${docs} d join ${k.table} new on new.id = d.item_id`;
  return {
    up: [
      `create table ${docs} (rowid integer primary key, item_id text not null unique)`,
      `create virtual table ${fts} using fts5(${names.join(', ')}, tokenize = 'unicode61 remove_diacritics 2')`,
      backfill,
      backfillFts,
      `create trigger ${fts}_insert after insert on ${k.table} begin ${index.join(' ')} end`,
      // An item that stops being visible loses its doc; one that becomes visible again gets a
      // new one, so it counts as newly searchable.
      `create trigger ${fts}_update after update of ${k.watched.join(', ')} on ${k.table} begin
         ${unindex('old').join(' ')}
         delete from ${docs} where item_id = old.id and (old.id <> new.id or not (${k.visible}));
         ${index.join(' ')}
       end`,
      `create trigger ${fts}_delete after delete on ${k.table} begin
         ${unindex('old').join(' ')}
         delete from ${docs} where item_id = old.id;
       end`,
    ],
    down: [
      `drop trigger ${fts}_insert`,
      `drop trigger ${fts}_update`,
      `drop trigger ${fts}_delete`,
      `drop table ${fts}`,
      `drop table ${docs}`,
    ],
  };
}

// A creator's new name is written into the documents of their videos and streams.
const SQLITE_RENAME = `create trigger creator_search_rename after update of name on users begin
  update video_search set creator = new.name where rowid in
    (select d.rowid from videos v join video_search_docs d on d.item_id = v.id where v.creator_id = new.id);
  update stream_search set creator = new.name where rowid in
    (select d.rowid from streams s join stream_search_docs d on d.item_id = s.id where s.creator_id = new.id);
end`;

const SQLITE_UP = [...SQLITE_KINDS.flatMap((k) => sqliteKind(k).up), SQLITE_RENAME];
const SQLITE_DOWN = [
  'drop trigger creator_search_rename',
  ...SQLITE_KINDS.flatMap((k) => sqliteKind(k).down),
];

// ---- PostgreSQL -----------------------------------------------------------------------------

const POSTGRES_UP = [
  `create table video_search (
     video_id text primary key,
     published_at bigint not null,
     document tsvector not null)`,
  `create index video_search_document on video_search using gin (document)`,
  `create index video_search_newest on video_search (published_at, video_id)`,
  `create table stream_search (
     stream_id text primary key,
     created_at bigint not null,
     document tsvector not null)`,
  `create index stream_search_document on stream_search using gin (document)`,
  `create index stream_search_newest on stream_search (created_at, stream_id)`,
  `create index users_name_search on users using gin (to_tsvector('simple', name))`,
  `create function video_search_refresh(item text) returns void language plpgsql as $$
   begin
     delete from video_search where video_id = item;
     insert into video_search (video_id, published_at, document)
     select v.id, v.published_at,
       setweight(to_tsvector('simple', v.title), 'A')
       || setweight(to_tsvector('simple', coalesce(
            (select string_agg(tag, ' ') from jsonb_array_elements_text(v.tags::jsonb) tag), '')), 'B')
       || setweight(to_tsvector('simple', u.name), 'B')
       || setweight(to_tsvector('simple', coalesce(v.description, '')), 'C')
     from videos v join users u on u.id = v.creator_id
     where v.id = item and v.privacy = 'public' and v.published_at is not null;
   end $$`,
  `create function stream_search_refresh(item text) returns void language plpgsql as $$
   begin
     delete from stream_search where stream_id = item;
     insert into stream_search (stream_id, created_at, document)
     select s.id, s.created_at,
       setweight(to_tsvector('simple', s.title), 'A')
       || setweight(to_tsvector('simple', u.name), 'B')
       || setweight(to_tsvector('simple', coalesce(s.description, '')), 'C')
     from streams s join users u on u.id = s.creator_id
     where s.id = item and s.privacy = 'public' and s.status in ('live', 'scheduled');
   end $$`,
  `create function video_search_sync() returns trigger language plpgsql as $$
   begin
     if tg_op in ('DELETE', 'UPDATE') then delete from video_search where video_id = old.id; end if;
     if tg_op in ('INSERT', 'UPDATE') then perform video_search_refresh(new.id); end if;
     return null;
   end $$`,
  `create function stream_search_sync() returns trigger language plpgsql as $$
   begin
     if tg_op in ('DELETE', 'UPDATE') then delete from stream_search where stream_id = old.id; end if;
     if tg_op in ('INSERT', 'UPDATE') then perform stream_search_refresh(new.id); end if;
     return null;
   end $$`,
  `create function creator_search_rename() returns trigger language plpgsql as $$
   begin
     perform video_search_refresh(v.id) from videos v
       where v.creator_id = new.id and v.privacy = 'public' and v.published_at is not null;
     perform stream_search_refresh(s.id) from streams s
       where s.creator_id = new.id and s.privacy = 'public' and s.status in ('live', 'scheduled');
     return null;
   end $$`,
  `create trigger video_search_sync
     after insert or delete or update of title, description, tags, privacy, published_at, creator_id
     on videos for each row execute function video_search_sync()`,
  `create trigger stream_search_sync
     after insert or delete or update of title, description, privacy, status, creator_id
     on streams for each row execute function stream_search_sync()`,
  `create trigger creator_search_rename after update of name on users
     for each row when (old.name is distinct from new.name) execute function creator_search_rename()`,
  `select video_search_refresh(id) from videos where privacy = 'public' and published_at is not null`,
  `select stream_search_refresh(id) from streams where privacy = 'public' and status in ('live', 'scheduled')`,
];

const POSTGRES_DOWN = [
  'drop trigger creator_search_rename on users',
  'drop trigger stream_search_sync on streams',
  'drop trigger video_search_sync on videos',
  'drop function creator_search_rename()',
  'drop function stream_search_sync()',
  'drop function video_search_sync()',
  'drop function stream_search_refresh(text)',
  'drop function video_search_refresh(text)',
  'drop index users_name_search',
  'drop table stream_search',
  'drop table video_search',
];
