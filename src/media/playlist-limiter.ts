// How often one client may fetch one stream's live playlists: fixed one-minute windows, like
// the API's limits (decisions.md, Limits). A player refetches the playlist every segment (2 s),
// 30 times a minute, so the default leaves room for a household's players and for retries;
// anything faster is a script. Segments are not limited: players fetch each once.
//
// Counters live in this process only: media is served by whichever process the player
// reaches, and the budget protects that process's disk reads. Their number is bounded: once
// a window holds MAX_KEYS clients, further new clients pass uncounted until the window ends,
// so a flood of addresses cannot grow memory, nor lock real players out.
import { RATE_LIMIT_WINDOW_MS, windowStart } from '../http/rate-limit-store.ts';
import type { Clock } from '../shared/clock.ts';

export const PLAYLIST_FETCHES_PER_MINUTE = 120;
const MAX_KEYS = 100_000;

export class PlaylistLimiter {
  readonly limit: number;
  private readonly clock: Clock;
  private window = 0;
  private counts = new Map<string, number>();

  constructor(clock: Clock, limit = PLAYLIST_FETCHES_PER_MINUTE) {
    this.clock = clock;
    this.limit = limit;
  }

  /** Counts one fetch by `client` of `streamId`; seconds to wait when over the limit, else 0. */
  hit(client: string, streamId: string): number {
    const now = this.clock.now();
    const start = windowStart(now);
    if (start !== this.window) {
      this.window = start;
      this.counts = new Map();
    }
    const key = `${client}\n${streamId}`;
    const count = (this.counts.get(key) ?? 0) + 1;
    if (count === 1 && this.counts.size >= MAX_KEYS) return 0;
    this.counts.set(key, count);
    if (count <= this.limit) return 0;
    return Math.max(1, Math.ceil((start + RATE_LIMIT_WINDOW_MS - now) / 1000));
  }
}
