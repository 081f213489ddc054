// Simulcast destinations' stream keys: another platform's publishing credential, which the
// relay must send as it is, so it is kept sealed (AES-256-GCM under a key derived from the master
// secret for this one purpose, bound to the destination's id) and opened only to start a relay.
// Answers carry a hint (the last characters), never the key.
import { SecretBox } from '../shared/secret-box.ts';
import { deriveKey } from '../shared/secret-key.ts';

export class SimulcastKeys {
  private readonly box: SecretBox;

  constructor(masterSecret: Buffer) {
    this.box = new SecretBox(deriveKey(masterSecret, 'simulcast-keys'));
  }

  seal(streamKey: string, targetId: string): string {
    return this.box.seal(streamKey, targetId);
  }

  /** The key, or undefined when it was sealed under another master secret (SECRET_KEY changed). */
  open(ciphertext: string, targetId: string): string | undefined {
    try {
      return this.box.open(ciphertext, targetId);
    } catch {
      return undefined;
    }
  }
}

/**
 * The key's last 4 characters, so a creator can tell keys apart; from a key shorter than 12,
 * a third of it at most (a short key is not given away by its hint).
 */
export function keyHint(streamKey: string): string {
  const length = Math.min(4, Math.floor(streamKey.length / 3));
  return length === 0 ? '' : streamKey.slice(-length);
}
