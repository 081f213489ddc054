// Attempts in flight, per webhook, so deleting a webhook aborts them at once; and the webhooks
// removed lately, so a claim made just before the removal sends nothing. Removed ids are
// remembered up to a bound, least recently used forgotten first: by then any claim made before
// the removal has long been prepared, and later claims cannot pick the webhook up.
import { LruCache } from '../../shared/lru.ts';

const REMEMBERED_REMOVALS = 10_000;

export class AttemptAborts {
  private readonly controllers = new Map<string, Set<AbortController>>();
  private readonly removed = new LruCache<string, true>(REMEMBERED_REMOVALS);

  /** A controller for one attempt to the webhook, aborted if the webhook is removed meanwhile. */
  track(webhookId: string): AbortController {
    const controller = new AbortController();
    let set = this.controllers.get(webhookId);
    if (!set) {
      set = new Set();
      this.controllers.set(webhookId, set);
    }
    set.add(controller);
    return controller;
  }

  /** The attempt ended. */
  untrack(webhookId: string, controller: AbortController): void {
    const set = this.controllers.get(webhookId);
    if (!set) return;
    set.delete(controller);
    if (set.size === 0) this.controllers.delete(webhookId);
  }

  /** The webhook was deleted: aborts its attempts in flight and keeps new ones from starting. */
  remove(webhookId: string): void {
    this.removed.set(webhookId, true);
    for (const controller of this.controllers.get(webhookId) ?? []) controller.abort();
  }

  isRemoved(webhookId: string): boolean {
    return this.removed.has(webhookId);
  }

  /** Attempts being tracked, for tests. */
  get inFlight(): number {
    let count = 0;
    for (const set of this.controllers.values()) count += set.size;
    return count;
  }
}
