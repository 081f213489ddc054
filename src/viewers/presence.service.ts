// A player's presence signal (POST /watch/{id}/presence): a viewer of a live stream counts in
// its live viewers; a viewer of a video counts one view per UTC day. Watching a stream live
// counts no view of the video recorded from it: the live audience is the stream's
// viewer_count and peak_viewer_count, and view_count counts plays of the video itself.
//
// Players signal every 5 s, so what repeats is kept in memory: whether an id can be watched
// (briefly) and which viewers already counted a view today (bounded LRU), and the database
// sees one write per viewer, video and day.
import { createHmac } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import { LruCache } from '../shared/lru.ts';
import { findShownStream } from '../streams/stream.repository.ts';
import { findShownVideo } from '../videos/video.repository.ts';
import type { LiveViewers } from './live-viewers.ts';
import { countView, pruneViews, utcDay, VIEWS_PER_ADDRESS_PER_DAY } from './video-views.ts';

/** How long whether an id can be watched (and whether a stream is live) is remembered. */
const TARGET_TTL_MS = 2_000;
const TARGET_CACHE_SIZE = 10_000;
/** Viewers remembered as having counted today's view: about 150 bytes each. */
const COUNTED_CACHE_SIZE = 100_000;

type Target = { kind: 'stream'; live: boolean } | { kind: 'video' } | { kind: 'none' };

export interface PresenceServiceOptions {
  db: Db;
  clock: Clock;
  live: LiveViewers;
  /** Keys the hashes of addresses and viewers stored with views. */
  hashKey: Buffer;
  logger: Pick<Logger, 'error'>;
  viewsPerAddressPerDay?: number;
}

export class PresenceService {
  private readonly options: PresenceServiceOptions;
  private readonly targets = new LruCache<string, { target: Target; at: number }>(TARGET_CACHE_SIZE);
  private readonly counted = new LruCache<string, true>(COUNTED_CACHE_SIZE);
  /** The day whose old rows this process last pruned. */
  private prunedBefore = -1;

  constructor(options: PresenceServiceOptions) {
    this.options = options;
  }

  /** Records that `viewer` at client `address` is watching `id`; 404 when it cannot be watched. */
  async record(id: string, address: string, viewer: string): Promise<void> {
    const target = await this.target(id);
    if (target.kind === 'none') {
      throw new AppError('resource_not_found', `No stream or video with id '${id}' can be watched.`, 'id');
    }
    if (target.kind === 'stream') {
      // A stream that is scheduled or ended has nobody watching it live.
      if (target.live) await this.options.live.seen(id, address, viewer);
      return;
    }
    await this.countView(id, address, viewer);
  }

  private async countView(videoId: string, address: string, viewer: string): Promise<void> {
    const { db, clock } = this.options;
    const day = utcDay(clock.now());
    const viewerHash = this.hash(`viewer\n${address}\n${viewer}`);
    const key = `${videoId}\n${viewerHash}\n${day}`;
    if (this.counted.has(key)) return;
    await this.pruneBefore(day);
    await countView(
      db,
      { videoId, viewerHash, addressHash: this.hash(`address\n${address}`), day },
      this.options.viewsPerAddressPerDay ?? VIEWS_PER_ADDRESS_PER_DAY,
    );
    // Counted now or before (by this process or another), or over the address's share: in
    // each case nothing more to do for this viewer today.
    this.counted.set(key, true);
  }

  /** Once per day per process, the rows of past days go; failing that is retried next time. */
  private async pruneBefore(day: number): Promise<void> {
    if (this.prunedBefore === day) return;
    this.prunedBefore = day;
    try {
      await pruneViews(this.options.db, day);
    } catch (error) {
      this.prunedBefore = -1;
      this.options.logger.error({ err: error }, 'could not prune past days of video views');
    }
  }

  private async target(id: string): Promise<Target> {
    const now = this.options.clock.now();
    const cached = this.targets.get(id);
    if (cached && now - cached.at < TARGET_TTL_MS && now >= cached.at) return cached.target;
    const target = await this.lookUp(id);
    this.targets.set(id, { target, at: now });
    return target;
  }

  private async lookUp(id: string): Promise<Target> {
    const { db } = this.options;
    if (id.startsWith('str_')) {
      const stream = await findShownStream(db, id);
      return stream ? { kind: 'stream', live: stream.status === 'live' } : { kind: 'none' };
    }
    if (id.startsWith('vid_')) {
      const video = await findShownVideo(db, id);
      return video && video.published_at !== null ? { kind: 'video' } : { kind: 'none' };
    }
    return { kind: 'none' };
  }

  private hash(text: string): string {
    return createHmac('sha256', this.options.hashKey).update(text).digest('base64url').slice(0, 32);
  }
}
