// Search over what a visitor may see: streams (public, live or upcoming), videos (public and
// published) and channels, by title, description, tags and the creator's name. The "all" view
// shows the first few of each kind; a kind's own tab pages through it. Only what is shown is
// read (and one match more, to know whether there is a next page): the kinds not shown are
// not searched, nor anything counted, unless a tab is empty and the page must say whether
// another kind has results.
import {
  creatorsOf,
  toStreamCard,
  toVideoCard,
  type AvatarLookup,
  type StreamCard,
  type VideoCard,
} from '../catalogue/catalogue.service.ts';
import type { Db } from '../db/database.ts';
import type { Clock } from '../shared/clock.ts';
import { invalidParameter } from '../shared/errors.ts';
import { LruCache } from '../shared/lru.ts';
import type { PublicUrls } from '../shared/public-urls.ts';
import {
  searchChannels,
  searchStreams,
  searchVideos,
  type ChannelRow,
  type Hits,
  type PageRequest,
} from './search.repository.ts';
import { searchTerms } from './search-terms.ts';

export const SEARCH_KINDS = ['all', 'streams', 'videos', 'channels'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];
export const RESULTS_PER_PAGE = 20;
/** The last page there can be: a kind's newest 200 matches, a page at a time (each page reads its offset). */
export const LAST_PAGE = 10;
/** What the "all" view shows of each kind before its "See all" link. */
export const PREVIEW = { streams: 4, videos: 8, channels: 4 } as const;
/** A stream late by up to this long is still upcoming, as on the home page. */
const LATE_GRACE_MS = 60 * 60 * 1000;

/** A channel found, with the same-origin path of its small avatar (null: it has none). */
export type ChannelResult = ChannelRow & { avatar: string | null };

export interface SearchResults {
  terms: string[];
  kind: SearchKind;
  page: number;
  streams: Hits<StreamCard>;
  videos: Hits<VideoCard>;
  channels: Hits<ChannelResult>;
  /**
   * On a kind's tab with nothing on its first page: whether any other kind has a match (the
   * page then offers the all view). False otherwise.
   */
  elsewhere: boolean;
}

export function parseKind(value: string | undefined): SearchKind {
  if (value === undefined || value === '') return 'all';
  if (!(SEARCH_KINDS as readonly string[]).includes(value)) {
    throw invalidParameter('type', `'${value}' is not one of ${SEARCH_KINDS.join(', ')}.`);
  }
  return value as SearchKind;
}

export function parsePage(value: string | undefined): number {
  if (value === undefined || value === '') return 1;
  const page = /^[0-9]{1,4}$/.test(value) ? Number(value) : NaN;
  if (!(page >= 1 && page <= LAST_PAGE)) {
    throw invalidParameter('page', `page must be a whole number from 1 to ${LAST_PAGE}.`);
  }
  return page;
}

export interface SearchOptions {
  /**
   * How long one search's results are reused, as the home page's listing is: the same words
   * asked again within it (a popular search, a reload) are read once. 0 reads every time.
   */
  cacheMs?: number;
  /** Where the results' creators' avatars come from (one lookup for a page of results). */
  avatars?: AvatarLookup;
}

export class SearchService {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly urls: PublicUrls;
  private readonly cacheMs: number;
  private readonly avatars: AvatarLookup;
  // Keyed by the words, the kind and the page: bounded, so endless distinct searches cannot grow it.
  private readonly cache = new LruCache<string, { at: number; results: Promise<SearchResults> }>(512);

  constructor(db: Db, clock: Clock, urls: PublicUrls, options: SearchOptions = {}) {
    this.db = db;
    this.clock = clock;
    this.urls = urls;
    this.cacheMs = options.cacheMs ?? 1000;
    this.avatars = options.avatars ?? (() => Promise.resolve(new Map<string, string>()));
  }

  /** Undefined when the text has no word to look for (nothing is asked of the database). */
  async search(query: { text: string; kind: SearchKind; page: number }): Promise<SearchResults | undefined> {
    const terms = searchTerms(query.text);
    if (terms.length === 0) return undefined;
    const key = `${query.kind}|${query.page}|${terms.join(' ')}`;
    const now = performance.now();
    const cached = this.cache.get(key);
    if (cached !== undefined && now - cached.at < this.cacheMs) return cached.results;
    // The promise is cached, not its value: concurrent misses share one read.
    const results = this.read(terms, query.kind, query.page);
    if (this.cacheMs > 0) {
      this.cache.set(key, { at: now, results });
      results.catch(() => this.cache.delete(key));
    }
    return results;
  }

  private async read(terms: string[], kind: SearchKind, page: number): Promise<SearchResults> {
    // The kind paged through gets a page, the "all" view the first few of each kind; a kind
    // neither shows is not searched.
    const take = (of: Exclude<SearchKind, 'all'>) =>
      kind === of ? RESULTS_PER_PAGE : kind === 'all' ? PREVIEW[of] : null;
    const offset = (of: Exclude<SearchKind, 'all'>) => (kind === of ? (page - 1) * RESULTS_PER_PAGE : 0);
    const from = this.clock.now() - LATE_GRACE_MS;
    const find = <Row>(
      of: Exclude<SearchKind, 'all'>,
      query: (request: PageRequest) => Promise<Hits<Row>>,
    ) => {
      const wanted = take(of);
      return wanted === null
        ? Promise.resolve(NOTHING as Hits<Row>)
        : query({ terms, offset: offset(of), take: wanted });
    };
    const [streams, videos, channels] = await Promise.all([
      find('streams', (request) => searchStreams(this.db, { ...request, from })),
      find('videos', (request) => searchVideos(this.db, request)),
      find('channels', (request) => searchChannels(this.db, request)),
    ]);
    const shown = kind === 'all' ? null : { streams, videos, channels }[kind];
    // An empty first page of a tab says whether other kinds match: asked only then (take 0).
    const elsewhere =
      shown !== null && page === 1 && shown.rows.length === 0
        ? (
            await Promise.all(
              (['streams', 'videos', 'channels'] as const)
                .filter((other) => other !== kind)
                .map((other) =>
                  other === 'streams'
                    ? searchStreams(this.db, { terms, offset: 0, take: 0, from })
                    : (other === 'videos' ? searchVideos : searchChannels)(this.db, {
                        terms,
                        offset: 0,
                        take: 0,
                      }),
                ),
            )
          ).some((hits) => hits.more)
        : false;
    const avatars = await this.avatars(
      creatorsOf(
        streams.rows,
        videos.rows,
        channels.rows.map((row) => ({ creator_id: row.id })),
      ),
    );
    const avatarOf = (id: string) => {
      const url = avatars.get(id);
      return url === undefined ? null : this.urls.pathOf(url);
    };
    return {
      terms,
      kind,
      page,
      streams: { more: streams.more, rows: streams.rows.map((row) => toStreamCard(row, this.urls, avatars)) },
      videos: { more: videos.more, rows: videos.rows.map((row) => toVideoCard(row, this.urls, avatars)) },
      channels: {
        more: channels.more,
        rows: channels.rows.map((row) => ({ ...row, avatar: avatarOf(row.id) })),
      },
      elsewhere,
    };
  }
}

const NOTHING: Hits<never> = { rows: [], more: false };
