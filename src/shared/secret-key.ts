// The master secret signs cursors, encrypts webhook secrets and stream keys at rest, and keys
// the stream keys' lookup hash. It comes from SECRET_KEY; in embedded mode, when unset, it is
// generated once into the data directory (owner-only) so restarts keep cursors and stored
// secrets valid.
import { hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export function loadOrCreateSecretKey(configured: Buffer | undefined, dataDir: string): Buffer {
  if (configured) return configured;
  const file = path.join(dataDir, 'secret.key');
  try {
    const hex = fs.readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{64}$/.test(hex)) return Buffer.from(hex, 'hex');
    throw new Error(`${file} does not hold 64 hexadecimal characters; fix or remove it`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  // 'wx' fails if another process created the file first; then use theirs.
  try {
    fs.writeFileSync(file, key.toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
  }
}

/** A key for one purpose, so no two uses of the master secret share key material. */
export function deriveKey(
  master: Buffer,
  purpose:
    | 'cursors'
    | 'webhook-secrets'
    | 'stream-key-lookup'
    | 'stream-key-derivation'
    | 'stream-key-secret-tag'
    | 'stream-key-secrets'
    | 'idempotency-responses'
    | 'viewer-cookies'
    | 'web-csrf'
    | 'upload-urls'
    | 'simulcast-keys'
    | 'web-flash'
    | 'mail-unsubscribe',
): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `tributary:${purpose}`, 32));
}
