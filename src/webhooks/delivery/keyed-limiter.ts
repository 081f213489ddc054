// Counts slots in use overall and per key (a webhook), against two limits: the worker's
// attempts in flight at once, and its attempts in flight to one webhook, so a slow receiver
// only ever holds its own share. The worker asks how much it may claim, occupies a slot per
// claim and frees it when the attempt ends.
export class KeyedLimiter<K> {
  readonly overall: number;
  readonly perKey: number;
  private inUse = 0;
  private readonly byKey = new Map<K, number>();

  constructor(overall: number, perKey: number) {
    if (!Number.isInteger(overall) || overall < 1 || !Number.isInteger(perKey) || perKey < 1) {
      throw new RangeError(`limits must be positive integers (got ${overall} and ${perKey})`);
    }
    this.overall = overall;
    this.perKey = perKey;
  }

  /** Slots free overall. */
  get free(): number {
    return this.overall - this.inUse;
  }

  /** Slots free for this key: its own share, bounded by what is free overall. */
  freeFor(key: K): number {
    return Math.min(this.free, this.perKey - (this.byKey.get(key) ?? 0));
  }

  /** Slots in use for this key. */
  inUseBy(key: K): number {
    return this.byKey.get(key) ?? 0;
  }

  /** Keys using their whole share, which a claim should skip. */
  fullKeys(): K[] {
    return [...this.byKey].filter(([, count]) => count >= this.perKey).map(([key]) => key);
  }

  /** Takes a slot. A claim asks freeFor first, so going over a limit is a bug, not load. */
  occupy(key: K): void {
    if (this.freeFor(key) <= 0) throw new Error(`no free slot for ${String(key)}`);
    this.inUse += 1;
    this.byKey.set(key, (this.byKey.get(key) ?? 0) + 1);
  }

  /** Gives a slot back; returns how many the key still holds. */
  release(key: K): number {
    const held = this.byKey.get(key) ?? 0;
    if (held === 0) throw new Error(`${String(key)} holds no slot`);
    this.inUse -= 1;
    if (held === 1) this.byKey.delete(key);
    else this.byKey.set(key, held - 1);
    return held - 1;
  }
}
