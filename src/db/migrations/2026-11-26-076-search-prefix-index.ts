import { SqliteAdapter, sql, type Kysely } from 'kysely';

// Faster SQLite search (issue 28: distinct searches at 100,000 videos). The FTS5 tables of
// 2026-11-26-020-search are made again, with the same documents under the same rowids (the
// `*_search_docs` tables are kept), and two changes:
//
// - `prefix = '1 2 3'`: the last word of a search is a prefix ("spee" finds "speedrun"); without
//   a prefix index FTS5 merges the doclist of every token that starts with it, which for one to
//   three characters is hundreds of tokens. With it, one doclist is read.
// - stream_search carries the stream's status and scheduled time (UNINDEXED: stored, not
//   searched), so the upcoming filter and "live first" are read from the index's own row rather
//   than by joining every match to `streams` (about 6 µs a match); the title the ranking reads is
//   already in each FTS table.
//
// The triggers are the 020 ones, written out again here (a migration is frozen history), with
// scheduled_at now among a stream's watched columns. PostgreSQL is unchanged: its GIN indexes
// already answer prefixes and its hits read the row they filter on.
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  for (const statement of [
    ...DROP_TRIGGERS,
    ...KINDS.flatMap((k) => rebuild(k, PREFIX_INDEX, true)),
    RENAME_TRIGGER,
  ]) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  for (const statement of [
    ...DROP_TRIGGERS,
    ...KINDS.flatMap((k) => rebuild(k, '', false)),
    RENAME_TRIGGER,
  ]) {
    await sql.raw(statement).execute(db);
  }
}

const PREFIX_INDEX = `, prefix = '1 2 3'`;

interface Kind {
  table: string;
  kind: string;
  columns: Record<string, string>;
  /** Stored beside the document, not searched (only with this migration's shape). */
  stored: Record<string, string>;
  visible: string;
  watched: string[];
  /** Watched only with this migration's shape (the stored columns' sources). */
  storedWatched: string[];
}

const VIDEO_TAGS = `case when json_valid(new.tags) then (select group_concat(value, ' ') from json_each(new.tags)) end`;
const CREATOR_NAME = `(select name from users where id = new.creator_id)`;

const KINDS: Kind[] = [
  {
    table: 'videos',
    kind: 'video',
    columns: {
      title: 'new.title',
      description: `coalesce(new.description, '')`,
      tags: `coalesce(${VIDEO_TAGS}, '')`,
      creator: CREATOR_NAME,
    },
    stored: {},
    visible: `new.privacy = 'public' and new.published_at is not null`,
    watched: ['title', 'description', 'tags', 'privacy', 'published_at', 'creator_id'],
    storedWatched: [],
  },
  {
    table: 'streams',
    kind: 'stream',
    columns: { title: 'new.title', description: `coalesce(new.description, '')`, creator: CREATOR_NAME },
    stored: { status: 'new.status', scheduled_at: 'new.scheduled_at' },
    visible: `new.privacy = 'public' and new.status in ('live', 'scheduled')`,
    watched: ['title', 'description', 'privacy', 'status', 'creator_id'],
    storedWatched: ['scheduled_at'],
  },
  {
    table: 'users',
    kind: 'channel',
    columns: { name: 'new.name' },
    stored: {},
    visible: '1',
    watched: ['name'],
    storedWatched: [],
  },
];

const DROP_TRIGGERS = [
  'drop trigger creator_search_rename',
  ...KINDS.flatMap(({ kind }) => [
    `drop trigger ${kind}_search_insert`,
    `drop trigger ${kind}_search_update`,
    `drop trigger ${kind}_search_delete`,
  ]),
];

/** The FTS table made again (in `shaped` form: with its stored columns) and its triggers. */
function rebuild(k: Kind, options: string, shaped: boolean): string[] {
  const fts = `${k.kind}_search`;
  const docs = `${k.kind}_search_docs`;
  const all = shaped ? { ...k.columns, ...k.stored } : k.columns;
  const names = Object.keys(all);
  const values = Object.values(all);
  const declared = [
    ...Object.keys(k.columns),
    ...(shaped ? Object.keys(k.stored).map((n) => `${n} UNINDEXED`) : []),
  ];
  const watched = shaped ? [...k.watched, ...k.storedWatched] : k.watched;
  const index = [
    `insert or ignore into ${docs} (item_id) select new.id where ${k.visible};`,
    `insert into ${fts} (rowid, ${names.join(', ')})
       select d.rowid, ${values.join(', ')} from ${docs} d where d.item_id = new.id;`,
  ];
  const unindex = (row: string) =>
    `delete from ${fts} where rowid = (select rowid from ${docs} where item_id = ${row}.id);`;
  return [
    `drop table ${fts}`,
    `create virtual table ${fts} using fts5(${declared.join(', ')}, tokenize = 'unicode61 remove_diacritics 2'${options})`,
    `insert into ${fts} (rowid, ${names.join(', ')})
       select d.rowid, ${values.join(', ')} from ${docs} d join ${k.table} new on new.id = d.item_id`,
    `create trigger ${fts}_insert after insert on ${k.table} begin ${index.join(' ')} end`,
    `create trigger ${fts}_update after update of ${watched.join(', ')} on ${k.table} begin
       ${unindex('old')}
       delete from ${docs} where item_id = old.id and (old.id <> new.id or not (${k.visible}));
       ${index.join(' ')}
     end`,
    `create trigger ${fts}_delete after delete on ${k.table} begin
       ${unindex('old')}
       delete from ${docs} where item_id = old.id;
     end`,
  ];
}

const RENAME_TRIGGER = `create trigger creator_search_rename after update of name on users begin
  update video_search set creator = new.name where rowid in
    (select d.rowid from videos v join video_search_docs d on d.item_id = v.id where v.creator_id = new.id);
  update stream_search set creator = new.name where rowid in
    (select d.rowid from streams s join stream_search_docs d on d.item_id = s.id where s.creator_id = new.id);
end`;
