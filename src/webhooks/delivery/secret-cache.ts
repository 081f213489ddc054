// Opened signing secrets, so a busy webhook's secret is decrypted once rather than per attempt.
// Keyed by webhook and checked against the stored ciphertext, so a changed secret is opened
// again; bounded, forgetting the least recently used webhook first.
import type { SecretBox } from '../../shared/secret-box.ts';
import { LruCache } from '../../shared/lru.ts';

const CAPACITY = 10_000;

export interface SealedSecret {
  id: string;
  secret_ciphertext: string;
}

export class SecretCache {
  private readonly box: SecretBox;
  private readonly opened: LruCache<string, { sealed: string; secret: string }>;

  constructor(box: SecretBox, capacity = CAPACITY) {
    this.box = box;
    this.opened = new LruCache(capacity);
  }

  secretOf(webhook: SealedSecret): string {
    const cached = this.opened.get(webhook.id);
    if (cached && cached.sealed === webhook.secret_ciphertext) return cached.secret;
    const secret = this.box.open(webhook.secret_ciphertext, webhook.id);
    this.opened.set(webhook.id, { sealed: webhook.secret_ciphertext, secret });
    return secret;
  }
}
