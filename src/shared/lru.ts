// A bounded cache that forgets the least recently used entry when full. The caches it replaces
// emptied themselves wholesale at their bound, so one burst of new entries (say, a flood of
// unknown API keys) evicted every hot one at once; here such a burst costs only the coldest.
// A Map keeps insertion order, so re-inserting on use is enough to keep the order of use.
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();
  /** The last key set or moved to the end; the entries' last key unless deleted since. */
  private newest: K | undefined;
  readonly capacity: number;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`LruCache capacity must be a positive integer (got ${capacity})`);
    }
    this.capacity = capacity;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value, now the most recently used; undefined when absent. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    // Moving the newest entry to the end would change nothing, and a hot cache asks for the
    // same key over and over (one compiled query's one shape): skip the delete and set.
    if (key !== this.newest) {
      this.entries.delete(key);
      this.entries.set(key, value);
      this.newest = key;
    }
    return value;
  }

  /** Whether the key is present, without counting as a use. */
  has(key: K): boolean {
    return this.entries.has(key);
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    this.newest = key;
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  delete(key: K): boolean {
    if (key === this.newest) this.newest = undefined;
    return this.entries.delete(key);
  }

  clear(): void {
    this.newest = undefined;
    this.entries.clear();
  }
}
