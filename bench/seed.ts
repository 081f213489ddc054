// Fills a fresh SQLite file with a realistic catalogue, through the project's own migrations
// and tables, fast enough to run before every benchmark: multi-row inserts, many rows per
// transaction. Deterministic (a seeded generator), so two runs measure the same data.
import fs from 'node:fs';
import { migrateToLatest, openDatabase, type Db } from '../src/db/database.ts';
import { mergeSearchIndexes } from '../src/search/search-index-upkeep.ts';
import { CATEGORIES } from '../src/shared/categories.ts';
import { newId, randomBase62 } from '../src/shared/ids.ts';
import { StreamKeyVault } from '../src/streams/stream-key-vault.ts';
import type { NewStreamRow } from '../src/streams/stream.table.ts';
import type { NewVideoRow } from '../src/videos/video.table.ts';

export interface SeedOptions {
  /** Streams and videos any caller can list (public). */
  publicItems: number;
  /** Unlisted streams and videos on top of those, seen in lists by their creators only. */
  privateItems: number;
  creators: number;
}

export interface SeededData {
  streamIds: string[];
  videoIds: string[];
  liveStreams: number;
  streams: number;
  videos: number;
  creators: number;
  seconds: number;
}

const DAY_MS = 86_400_000;
// Rows per INSERT: 15 stream columns x 500 stays far below SQLite's 32,766 bound parameters.
const ROWS_PER_INSERT = 500;
const ROWS_PER_TRANSACTION = 20_000;

/** Mulberry32: small, fast and repeatable; these are benchmark fixtures, not secrets. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const TITLE_WORDS = [
  'Late night',
  'Speedrun',
  'Live coding',
  'Q&A',
  'Studio session',
  'Road trip',
  'Workout',
];
const TITLE_TOPICS = ['with friends', 'day 12', 'part 3', 'marathon', 'from scratch', 'unplugged', 'finale'];

export async function seedDatabase(file: string, options: SeedOptions): Promise<SeededData> {
  const started = performance.now();
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  const database = openDatabase(file);
  try {
    await migrateToLatest(database.db);
    const random = generator(20261122);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const now = Date.now();
    const id = (prefix: string) => `${prefix}_${randomBase62(22)}`;

    const creators = Array.from({ length: options.creators }, () => id('usr'));
    await insertInBatches(
      database.db,
      'users',
      creators.map((creatorId, index) => ({
        id: creatorId,
        name: `Creator ${index + 1}`,
        created_at: now - 400 * DAY_MS,
      })),
    );
    // Half the creators have an avatar (the pages' cards show it: one lookup per listing).
    await insertInBatches(
      database.db,
      'profile_images',
      creators
        .filter((_, index) => index % 2 === 0)
        .map((creatorId) => ({
          user_id: creatorId,
          kind: 'avatar',
          status: 'ready',
          pending_version: null,
          ready_version: now - 300 * DAY_MS,
          error: null,
          updated_at: now - 300 * DAY_MS,
        })),
    );

    const total = options.publicItems + options.privateItems;
    // Private items are spread evenly through the timeline, as they would be in real life.
    const isPrivate = (index: number) =>
      options.privateItems > 0 && index % Math.round(total / options.privateItems) === 0;
    const spacing = (365 * DAY_MS) / total;

    const streams: NewStreamRow[] = [];
    let liveStreams = 0;
    for (let index = 0; index < total; index++) {
      const createdAt = Math.round(now - 365 * DAY_MS + index * spacing + random() * spacing * 0.5);
      const roll = random();
      // About 10% live, 25% scheduled (a fifth of those in standby), the rest ended.
      const status = roll < 0.1 ? 'live' : roll < 0.35 ? 'scheduled' : 'ended';
      if (status === 'live') liveStreams++;
      const startedAt = status === 'scheduled' ? null : createdAt + Math.round(random() * DAY_MS);
      const peak = status === 'scheduled' ? null : Math.floor(random() ** 3 * 50_000);
      streams.push({
        id: id('str'),
        creator_id: pick(creators),
        title: `${pick(TITLE_WORDS)} ${pick(TITLE_TOPICS)}`,
        description: random() < 0.6 ? 'Come hang out. Schedule and rules in the channel description.' : null,
        status,
        category: pick(CATEGORIES),
        privacy: isPrivate(index) ? 'private' : 'public',
        viewer_count: status === 'live' ? Math.floor((peak ?? 0) * random()) : null,
        peak_viewer_count: peak,
        started_at: startedAt,
        scheduled_at:
          status === 'scheduled' && random() < 0.8 ? now + Math.round(random() * 30 * DAY_MS) : null,
        ended_at:
          status === 'ended' && startedAt !== null ? startedAt + Math.round(random() * 6 * 3_600_000) : null,
        thumbnail_at: status === 'scheduled' ? null : startedAt,
        created_at: createdAt,
        updated_at: createdAt,
        // A stand-in for the keyed hash the service stores (nothing publishes to seeded streams).
        stream_key_hash: randomBase62(43),
        record: status === 'ended' ? 1 : random() < 0.8 ? 1 : 0,
      });
    }
    await insertInBatches(database.db, 'streams', streams);

    const ended = streams.filter((stream) => stream.status === 'ended');
    const videos: NewVideoRow[] = [];
    for (let index = 0; index < total; index++) {
      const publishedAt = Math.round(now - 365 * DAY_MS + index * spacing + random() * spacing * 0.5);
      // Two thirds are recordings of ended streams (same creator), the rest direct uploads.
      const source = random() < 0.66 ? pick(ended) : undefined;
      const duration = 60 + Math.floor(random() * 10_800);
      videos.push({
        id: id('vid'),
        creator_id: source?.creator_id ?? pick(creators),
        title: `${pick(TITLE_WORDS)} ${pick(TITLE_TOPICS)} (VOD)`,
        description: random() < 0.5 ? 'Full recording, chapters below.' : null,
        category: source?.category ?? pick(CATEGORIES),
        duration_seconds: duration,
        view_count: Math.floor(random() ** 4 * 1_000_000),
        privacy: isPrivate(index) ? 'private' : 'public',
        source_stream_id: source?.id ?? null,
        published_at: publishedAt,
        thumbnail_at: publishedAt,
        chapters: JSON.stringify([
          { title: 'Intro', start_seconds: 0 },
          { title: 'Main part', start_seconds: Math.floor(duration / 3) },
        ]),
        tags: JSON.stringify(random() < 0.5 ? ['highlights', pick(CATEGORIES)] : []),
        created_at: publishedAt - 60_000,
        updated_at: publishedAt,
      });
    }
    await insertInBatches(database.db, 'videos', videos);
    // The search index as a running server keeps it (search-index-upkeep.ts merges it in the
    // background): the seed's bulk inserts leave it in as many segments as a day of writes.
    await mergeSearchIndexes(database.db, Number.POSITIVE_INFINITY);

    return {
      streamIds: streams.map((stream) => stream.id),
      videoIds: videos.map((video) => video.id),
      liveStreams,
      streams: streams.length,
      videos: videos.length,
      creators: creators.length,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await database.close();
  }
}

async function insertInBatches(
  db: Db,
  table: 'users' | 'streams' | 'videos' | 'profile_images',
  rows: readonly object[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_TRANSACTION) {
    const chunk = rows.slice(start, start + ROWS_PER_TRANSACTION);
    await db.transaction().execute(async (trx) => {
      for (let offset = 0; offset < chunk.length; offset += ROWS_PER_INSERT) {
        await trx
          .insertInto(table)
          // Built from each table's Insertable type by the caller.
          .values(chunk.slice(offset, offset + ROWS_PER_INSERT))
          .execute();
      }
    });
  }
}

/**
 * Adds `count` streams owned by one account (a platform that creates its streams through the
 * API, thousands to an account), each with its stream key stored as the service stores it
 * (StreamKeyVault, under `secretKey`), so reading one as its owner shows the key. Returns the
 * ids; `from` numbers the titles so several calls add distinct streams.
 */
export async function seedOwnedStreams(
  file: string,
  options: { ownerId: string; secretKey: Buffer; count: number; from?: number },
): Promise<string[]> {
  const database = openDatabase(file);
  try {
    const vault = new StreamKeyVault(options.secretKey);
    const now = Date.now();
    const from = options.from ?? 0;
    const rows: NewStreamRow[] = [];
    for (let index = 0; index < options.count; index++) {
      const id = newId('str');
      const createdAt = now - (options.count - index) * 1000;
      rows.push({
        id,
        creator_id: options.ownerId,
        title: `Platform stream ${from + index + 1}`,
        description: null,
        status: 'scheduled',
        category: CATEGORIES[index % CATEGORIES.length] ?? 'talk',
        privacy: 'private',
        viewer_count: null,
        peak_viewer_count: null,
        started_at: null,
        scheduled_at: null,
        ended_at: null,
        thumbnail_at: null,
        created_at: createdAt,
        updated_at: createdAt,
        record: 1,
        ...vault.issue(id).stored,
      });
    }
    await insertInBatches(database.db, 'streams', rows);
    return rows.map((row) => row.id);
  } finally {
    await database.close();
  }
}
