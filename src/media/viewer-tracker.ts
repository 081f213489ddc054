// Who is watching a live stream now, in this process's memory: each player that sent a
// presence signal within the window counts once (src/viewers/; a player signals every 5 s, so
// one that stops, closes or pauses drops out within the window). The memory store of
// src/viewers/live-viewers.ts, and the fallback of the Redis one; the ingest writes the counts
// to the stream (viewer_count, peak_viewer_count) every few seconds.
//
// A player names itself with an id anyone can make up, so ids alone would let one client
// count as thousands. Each client address (see src/shared/client-address.ts) adds at most a few players
// to a stream: a household or an office behind one NAT is still counted, a script inventing
// ids is not. Memory is bounded per stream and overall, whatever arrives.
import type { Clock } from '../shared/clock.ts';

export const VIEWER_WINDOW_MS = 10_000;

export interface ViewerLimits {
  /** Players one client address adds to a stream's count at most. */
  perAddress: number;
  /** Players remembered for one stream, far above any one process's real audience. */
  perStream: number;
  /** Players remembered over all streams: about 200 bytes each. */
  total: number;
}

export const VIEWER_LIMITS: ViewerLimits = { perAddress: 3, perStream: 50_000, total: 200_000 };

interface Sighting {
  address: string;
  at: number;
}

interface StreamViewers {
  /** By address and player, least recently seen first, so expiry stops at the first fresh one. */
  players: Map<string, Sighting>;
  perAddress: Map<string, number>;
}

export class ViewerTracker {
  private readonly clock: Clock;
  private readonly windowMs: number;
  private readonly limits: ViewerLimits;
  private readonly streams = new Map<string, StreamViewers>();
  private total = 0;

  constructor(clock: Clock, windowMs = VIEWER_WINDOW_MS, limits: ViewerLimits = VIEWER_LIMITS) {
    this.clock = clock;
    this.windowMs = windowMs;
    this.limits = limits;
  }

  /**
   * Records that the player `viewer` at client `address` fetched the stream's playlist now.
   * A player beyond its address's share, or beyond the bounds on memory, is not counted.
   */
  seen(streamId: string, address: string, viewer: string): void {
    const now = this.clock.now();
    let stream = this.streams.get(streamId);
    if (stream) this.expire(stream, now);
    const key = `${address}\n${viewer}`;
    const known = stream?.players.get(key);
    if (stream && known) {
      // Moved to the end: the map stays in order of last sighting.
      stream.players.delete(key);
      known.at = now;
      stream.players.set(key, known);
      return;
    }
    const fromAddress = stream?.perAddress.get(address) ?? 0;
    if (fromAddress >= this.limits.perAddress) return;
    if (stream && stream.players.size >= this.limits.perStream) return;
    if (this.total >= this.limits.total) {
      for (const other of this.streams.values()) this.expire(other, now);
      if (this.total >= this.limits.total) return;
    }
    if (!stream) {
      stream = { players: new Map(), perAddress: new Map() };
      this.streams.set(streamId, stream);
    }
    stream.players.set(key, { address, at: now });
    stream.perAddress.set(address, fromAddress + 1);
    this.total++;
  }

  /** Players seen within the window. */
  count(streamId: string): number {
    const stream = this.streams.get(streamId);
    if (!stream) return 0;
    this.expire(stream, this.clock.now());
    const count = stream.players.size;
    if (count === 0) this.streams.delete(streamId);
    return count;
  }

  /** Streams with viewers recorded, including ones whose viewers have just left. */
  streamIds(): string[] {
    return [...this.streams.keys()];
  }

  /** Players remembered over all streams (what the memory bound counts). */
  get size(): number {
    return this.total;
  }

  private expire(stream: StreamViewers, now: number): void {
    const oldest = now - this.windowMs;
    for (const [key, sighting] of stream.players) {
      if (sighting.at >= oldest) break;
      stream.players.delete(key);
      this.total--;
      const left = (stream.perAddress.get(sighting.address) ?? 1) - 1;
      if (left === 0) stream.perAddress.delete(sighting.address);
      else stream.perAddress.set(sighting.address, left);
    }
  }
}
