// What viewers browse: the home page's live streams, upcoming streams and recent videos, and
// a creator's channel. Public items only, for everyone, the creator included: private means
// unlisted (decisions.md), and a listing is not the direct link.
import { findStanding } from '../accounts/account.repository.ts';
import type { Db } from '../db/database.ts';
import type { KeysetPosition } from '../db/keyset.ts';
import type { CursorCodec } from '../http/pagination.ts';
import { CATEGORIES, type Category } from '../shared/categories.ts';
import type { Clock } from '../shared/clock.ts';
import { invalidParameter } from '../shared/errors.ts';
import { LruCache } from '../shared/lru.ts';
import type { PublicUrls } from '../shared/public-urls.ts';
import {
  listLiveStreams,
  listUpcomingStreams,
  type BrowsableStreamRow,
} from '../streams/stream-listing.repository.ts';
import { countActiveSubscribers } from '../subscriptions/subscription.repository.ts';
import { listPublicVideos, type BrowsableVideoRow } from '../videos/video-listing.repository.ts';
import { listFollowedLiveStreams, listFollowedVideos } from './following.repository.ts';

export const LIVE_PER_PAGE = 12;
export const UPCOMING_PER_PAGE = 6;
export const VIDEOS_PER_PAGE = 12;
/** A stream late by up to this long still shows as upcoming ("starting soon"). */
const LATE_GRACE_MS = 60 * 60 * 1000;

/** Who made a card's stream or video; `avatar` is the same-origin path of their small avatar. */
export interface CardCreator {
  id: string;
  name: string;
  avatar: string | null;
}

/**
 * The small avatar of each of these users who has one (ProfileService.avatars): one query for
 * a whole page of cards, never one per card.
 */
export type AvatarLookup = (userIds: readonly string[]) => Promise<Map<string, string>>;

const NO_AVATARS: AvatarLookup = () => Promise.resolve(new Map<string, string>());

export interface StreamCard {
  id: string;
  title: string;
  category: string;
  creator: CardCreator;
  viewerCount: number;
  startedAt: number | null;
  scheduledAt: number | null;
  /** Same-origin path of the latest thumbnail, or null before the first one. */
  thumbnail: string | null;
}

export interface VideoCard {
  id: string;
  title: string;
  category: string;
  creator: CardCreator;
  durationSeconds: number;
  viewCount: number;
  publishedAt: number;
  /** Same-origin path of its thumbnail, or null while it has none (every try failed so far). */
  thumbnail: string | null;
}

export interface Listing {
  live: StreamCard[];
  upcoming: StreamCard[];
  videos: VideoCard[];
  /** The cursor of the next page of videos, or null on the last one. */
  nextVideos: string | null;
}

export interface Channel extends Listing {
  creator: { id: string; name: string };
  subscribers: number;
}

/** What the channels a viewer subscribes to have: live now, and their newest videos. */
export interface Following {
  live: StreamCard[];
  videos: VideoCard[];
}

export const FOLLOWING_LIVE = 8;
export const FOLLOWING_VIDEOS = 8;

export interface CatalogueOptions {
  /**
   * How long the home page's listing is reused. It is the same for every visitor, so under
   * load it is read once per interval instead of once per request; 0 reads every time.
   */
  homeCacheMs?: number;
  /** Where the cards' creators' avatars come from; without it, every card has the placeholder. */
  avatars?: AvatarLookup;
}

export class CatalogueService {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly urls: PublicUrls;
  private readonly cursors: CursorCodec;
  private readonly homeCacheMs: number;
  private readonly avatars: AvatarLookup;
  // Keys are a category and a decoded position: bounded, so endless cursors cannot grow it.
  private readonly homeCache = new LruCache<string, { at: number; listing: Promise<Listing> }>(256);

  constructor(db: Db, clock: Clock, urls: PublicUrls, cursors: CursorCodec, options: CatalogueOptions = {}) {
    this.db = db;
    this.clock = clock;
    this.urls = urls;
    this.cursors = cursors;
    this.homeCacheMs = options.homeCacheMs ?? 1000;
    this.avatars = options.avatars ?? NO_AVATARS;
  }

  /** Throws parameter_invalid for a category outside the catalogue, invalid_cursor for a bad cursor. */
  async home(query: { category?: string | undefined; cursor?: string | undefined }): Promise<Listing> {
    const category = parseCategory(query.category);
    const after = this.decode('home', query.cursor, { category });
    const key = `${category ?? ''}|${after === undefined ? '' : `${after.sortKey}:${after.id}`}`;
    const now = performance.now();
    const cached = this.homeCache.get(key);
    if (cached !== undefined && now - cached.at < this.homeCacheMs) return cached.listing;
    // The promise is cached, not its value: concurrent misses share one read.
    const listing = this.list('home', { category }, after);
    if (this.homeCacheMs > 0) {
      this.homeCache.set(key, { at: now, listing });
      listing.catch(() => this.homeCache.delete(key));
    }
    return listing;
  }

  /**
   * The home page's following feed: the public live streams (most watched first) and newest
   * public videos of the creators the viewer has an active subscription to. Read for each
   * request, unlike the shared listing: it is the viewer's own.
   */
  async following(viewerId: string): Promise<Following> {
    const [live, videos] = await Promise.all([
      listFollowedLiveStreams(this.db, viewerId, FOLLOWING_LIVE),
      listFollowedVideos(this.db, viewerId, FOLLOWING_VIDEOS),
    ]);
    const avatars = await this.avatars(creatorsOf(live, videos));
    return {
      live: live.map((row) => toStreamCard(row, this.urls, avatars)),
      videos: videos.map((row) => toVideoCard(row, this.urls, avatars)),
    };
  }

  /** A creator's channel, or undefined when no such user exists. */
  async channel(creatorId: string, query: { cursor?: string | undefined }): Promise<Channel | undefined> {
    const after = this.decode('channel', query.cursor, { creatorId });
    const user = await findStanding(this.db, creatorId);
    // A suspended creator's channel is gone with the rest of their content (src/moderation/).
    if (!user || user.suspended_at !== null) return undefined;
    const [listing, subscribers] = await Promise.all([
      this.list('channel', { creatorId }, after),
      countActiveSubscribers(this.db, creatorId),
    ]);
    return { ...listing, creator: { id: user.id, name: user.name }, subscribers };
  }

  private decode(
    list: string,
    cursor: string | undefined,
    filters: Record<string, string | undefined>,
  ): KeysetPosition | undefined {
    return cursor === undefined || cursor === ''
      ? undefined
      : this.cursors.decode(`web-${list}`, cursor, filters);
  }

  private async list(
    list: string,
    filter: { category?: string | undefined; creatorId?: string | undefined },
    after: KeysetPosition | undefined,
  ): Promise<Listing> {
    // Live and upcoming streams head the first page only; later pages are more videos.
    const first = after === undefined;
    const [live, upcoming, videoRows] = await Promise.all([
      first ? listLiveStreams(this.db, filter, LIVE_PER_PAGE) : [],
      first ? listUpcomingStreams(this.db, filter, this.clock.now() - LATE_GRACE_MS, UPCOMING_PER_PAGE) : [],
      listPublicVideos(this.db, { ...filter, after }, VIDEOS_PER_PAGE + 1),
    ]);
    const more = videoRows.length > VIDEOS_PER_PAGE;
    const videos = videoRows.slice(0, VIDEOS_PER_PAGE);
    const last = videos.at(-1);
    // A channel's cards are all its creator's, and do not show them (its header does).
    const avatars =
      filter.creatorId === undefined ? await this.avatars(creatorsOf(live, upcoming, videos)) : NONE;
    return {
      live: live.map((row) => toStreamCard(row, this.urls, avatars)),
      upcoming: upcoming
        .map((row) => toStreamCard(row, this.urls, avatars))
        .sort((a, b) => (a.scheduledAt ?? 0) - (b.scheduledAt ?? 0) || a.id.localeCompare(b.id)),
      videos: videos.map((row) => toVideoCard(row, this.urls, avatars)),
      nextVideos:
        more && last !== undefined
          ? this.cursors.encode(`web-${list}`, { sortKey: last.published_at, id: last.id }, filterOf(filter))
          : null,
    };
  }
}

const NONE: ReadonlyMap<string, string> = new Map();

/** The creators of some rows, each once (what AvatarLookup is asked). */
export function creatorsOf(...lists: { creator_id: string }[][]): string[] {
  return [...new Set(lists.flatMap((rows) => rows.map((row) => row.creator_id)))];
}

function creatorOf(
  row: { creator_id: string; creator_name: string },
  urls: PublicUrls,
  avatars: ReadonlyMap<string, string>,
): CardCreator {
  const avatar = avatars.get(row.creator_id);
  return {
    id: row.creator_id,
    name: row.creator_name,
    avatar: avatar === undefined ? null : urls.pathOf(avatar),
  };
}

/** A stream as a card: what the home, channel and search pages show of it. */
export function toStreamCard(
  row: BrowsableStreamRow,
  urls: PublicUrls,
  avatars: ReadonlyMap<string, string> = NONE,
): StreamCard {
  return {
    id: row.id,
    title: row.title,
    category: row.category,
    creator: creatorOf(row, urls, avatars),
    viewerCount: row.viewer_count ?? 0,
    startedAt: row.started_at,
    scheduledAt: row.scheduled_at,
    thumbnail: row.thumbnail_at === null ? null : urls.pathOf(urls.streamThumbnail(row.id, row.thumbnail_at)),
  };
}

/** A video as a card. */
export function toVideoCard(
  row: BrowsableVideoRow,
  urls: PublicUrls,
  avatars: ReadonlyMap<string, string> = NONE,
): VideoCard {
  return {
    id: row.id,
    title: row.title,
    category: row.category,
    creator: creatorOf(row, urls, avatars),
    durationSeconds: row.duration_seconds,
    viewCount: row.view_count,
    publishedAt: row.published_at,
    // Versioned like a stream's: a thumbnail made on a later try is fetched anew.
    thumbnail:
      row.thumbnail_at === null ? null : `${urls.pathOf(urls.videoThumbnail(row.id))}?v=${row.thumbnail_at}`,
  };
}

function filterOf(filter: { category?: string | undefined; creatorId?: string | undefined }) {
  return 'creatorId' in filter ? { creatorId: filter.creatorId } : { category: filter.category };
}

export function parseCategory(value: string | undefined): Category | undefined {
  if (value === undefined || value === '') return undefined;
  if (!(CATEGORIES as readonly string[]).includes(value)) {
    throw invalidParameter('category', `'${value}' is not a category.`);
  }
  return value as Category;
}
