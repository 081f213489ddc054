// What the post path reads on every message, kept for a moment per process: the live stream, its
// room's switches, a user's ban or timeout, their role, their name and the channel's blocked words.
//
// The bound: an entry lives at most CHAT_CACHE_TTL_MS (1 s) of real (monotonic) time. A change
// made on this process forgets the entries it touches before its call returns; a change on
// another process is forgotten when its bus event arrives (ChatBus: at once locally, through
// Redis with several processes), and holds within CHAT_CACHE_TTL_MS even if that event is lost.
// The promise is what is kept, so concurrent posts share one read, and a failed read is not kept.
export const CHAT_CACHE_TTL_MS = 1000;
/** Entries per cache; the oldest goes first when full (a bound on memory, not a tuning knob). */
export const CHAT_CACHE_MAX_ENTRIES = 10_000;

interface Entry<V> {
  value: Promise<V>;
  expires: number;
}

export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(ttlMs = CHAT_CACHE_TTL_MS, maxEntries = CHAT_CACHE_MAX_ENTRIES) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
  }

  /** The kept value for `key`, or `load()`'s (kept unless `keep` says no to it). */
  get(key: string, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const now = performance.now();
    const hit = this.entries.get(key);
    if (hit !== undefined && hit.expires > now) return hit.value;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    const value = load();
    const entry = { value, expires: now + this.ttlMs };
    this.entries.set(key, entry);
    const forget = () => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    };
    value.then((loaded) => {
      if (!keep(loaded)) forget();
    }, forget);
    return value;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Forgets every key that starts with `prefix`. */
  deletePrefix(prefix: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
