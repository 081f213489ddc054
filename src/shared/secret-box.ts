// Secrets kept at rest that must be read back (webhook signing secrets, stream keys):
// AES-256-GCM under a key derived from the master secret for that one purpose, with the owning
// row's id as associated data so a ciphertext cannot be moved to another row.
import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;

export class SecretBox {
  // A KeyObject, prepared once: given a Buffer, each cipher would prepare its own, which cost
  // three times what opening a stream key does (a creator reads theirs on every detail read).
  private readonly key: KeyObject;
  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
    this.key = createSecretKey(key);
  }

  seal(plaintext: string, boundTo: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(boundTo));
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [
      VERSION,
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      sealed.toString('base64url'),
    ].join('.');
  }

  open(box: string, boundTo: string): string {
    const [version, iv, tag, sealed] = box.split('.');
    if (version !== VERSION || iv === undefined || tag === undefined || sealed === undefined) {
      throw new Error('unrecognised secret ciphertext');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(boundTo));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}
