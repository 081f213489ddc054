// Opened signing secrets, so a busy webhook's secrets are decrypted and turned into keys once
// rather than per attempt. Keyed by webhook and checked against the stored ciphertexts, so a
// rotated secret is opened again; bounded, forgetting the least recently used webhook first.
import type { SecretBox } from '../../shared/secret-box.ts';
import { LruCache } from '../../shared/lru.ts';
import { signingKey, type SigningKey } from './signing.ts';

const CAPACITY = 10_000;

export interface SealedSecrets {
  id: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: number | null;
}

/** What a delivery is signed with: the current secret, and the one a rotation replaced while it lasts. */
export interface WebhookSigningKeys {
  readonly current: SigningKey;
  readonly previous: SigningKey | undefined;
}

interface Opened {
  sealed: string;
  previousSealed: string | null;
  /** Both ready-made, so choosing per delivery allocates nothing. */
  alone: WebhookSigningKeys;
  withPrevious: WebhookSigningKeys | undefined;
}

export class SecretCache {
  private readonly box: SecretBox;
  private readonly opened: LruCache<string, Opened>;

  constructor(box: SecretBox, capacity = CAPACITY) {
    this.box = box;
    this.opened = new LruCache(capacity);
  }

  /** The keys to sign with at `now` (ms): the previous secret only until it expires. */
  keysAt(webhook: SealedSecrets, now: number): WebhookSigningKeys {
    const entry = this.entryOf(webhook);
    const expiresAt = webhook.previous_secret_expires_at;
    if (entry.withPrevious && expiresAt !== null && now < expiresAt) return entry.withPrevious;
    return entry.alone;
  }

  private entryOf(webhook: SealedSecrets): Opened {
    const cached = this.opened.get(webhook.id);
    if (
      cached &&
      cached.sealed === webhook.secret_ciphertext &&
      cached.previousSealed === webhook.previous_secret_ciphertext
    ) {
      return cached;
    }
    // A rotation moves the current ciphertext to the previous column: reuse its key.
    const current =
      cached?.sealed === webhook.secret_ciphertext
        ? cached.alone.current
        : this.open(webhook.secret_ciphertext, webhook.id);
    const previousSealed = webhook.previous_secret_ciphertext;
    let previous: SigningKey | undefined;
    if (previousSealed !== null) {
      previous =
        cached?.sealed === previousSealed
          ? cached.alone.current
          : cached?.previousSealed === previousSealed
            ? cached.withPrevious?.previous
            : undefined;
      previous ??= this.open(previousSealed, webhook.id);
    }
    const entry: Opened = {
      sealed: webhook.secret_ciphertext,
      previousSealed,
      alone: { current, previous: undefined },
      withPrevious: previous ? { current, previous } : undefined,
    };
    this.opened.set(webhook.id, entry);
    return entry;
  }

  private open(sealed: string, webhookId: string): SigningKey {
    return signingKey(this.box.open(sealed, webhookId));
  }
}
