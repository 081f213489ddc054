// Media of a stream or a video that moderation withholds (taken down, or its creator
// suspended: src/accounts/standing.ts) answers 404 like a missing file. Players fetch a
// playlist or a segment every second or two, so the answer is kept per id for half a second:
// one query per item and process at most twice a second, and a takedown or a suspension still
// reaches every player within a second, in every process.
import { sql } from 'kysely';
import { streamShown, videoShown } from '../accounts/standing.ts';
import type { Db } from '../db/database.ts';
import type { Clock } from '../shared/clock.ts';
import { LruCache } from '../shared/lru.ts';

const TTL_MS = 500;

export class WithheldMedia {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly answers = new LruCache<string, { shown: Promise<boolean>; at: number }>(10_000);

  constructor(db: Db, clock: Clock) {
    this.db = db;
    this.clock = clock;
  }

  /** Whether the stream's or video's media may be served (an id with no row is not withheld). */
  async shown(kind: 'stream' | 'video', id: string): Promise<boolean> {
    const now = this.clock.now();
    const key = `${kind}:${id}`;
    const cached = this.answers.get(key);
    if (cached && now - cached.at < TTL_MS && now >= cached.at) return cached.shown;
    const shown = this.withheld(kind, id).then((row) => row === undefined);
    this.answers.set(key, { shown, at: now });
    shown.catch(() => this.answers.delete(key));
    return shown;
  }

  /**
   * The row, when it exists and is not shown. Files of an id with no row are answered (or
   * refused) by the media routes as before.
   */
  private withheld(kind: 'stream' | 'video', id: string): Promise<{ id: string } | undefined> {
    return kind === 'stream'
      ? this.db
          .selectFrom('streams')
          .select('id')
          .where('id', '=', id)
          .where(sql<boolean>`not ${streamShown()}`)
          .executeTakeFirst()
      : this.db
          .selectFrom('videos')
          .select('id')
          .where('id', '=', id)
          .where(sql<boolean>`not ${videoShown()}`)
          .executeTakeFirst();
  }
}
