// Whether an object holds what was sent: its size and SHA-256, against the caller's own record
// of them (the local file's, or a put's result). Not by entity tag: an S3 ETag is an MD5 only
// for single-part objects, and Ceph answers an empty one when a multipart upload completes.
import { digestStream } from './digest.ts';
import type { MediaStorage, ObjectInfo } from './media-storage.ts';
import { StorageError } from './storage-errors.ts';

export interface Expected {
  size: number;
  /** Hex SHA-256. */
  sha256: string;
}

export interface VerifyOptions {
  /**
   * Read the object back and hash it, even when the store has the checksum it was stored with:
   * the only check that covers the bytes at rest, at the price of a download.
   */
  readBack?: boolean;
}

/**
 * The object's info when it matches; a StorageError otherwise: `not_found` when there is no
 * object, `mismatch` when size or checksum differ. The local store keeps no checksum, so its
 * objects are always read back.
 */
export async function verifyStored(
  storage: MediaStorage,
  key: string,
  expected: Expected,
  options: VerifyOptions = {},
): Promise<ObjectInfo> {
  const where = `${storage.description}: verify "${key}"`;
  const info = await storage.head(key);
  if (!info) {
    throw new StorageError(`${where}: the object is not there`, {
      kind: 'not_found',
      operation: 'verify',
      key,
    });
  }
  const mismatch = (what: string) =>
    new StorageError(`${where}: ${what}`, { kind: 'mismatch', operation: 'verify', key });
  if (info.size !== expected.size) {
    throw mismatch(`${info.size} bytes stored, ${expected.size} expected`);
  }
  if (info.sha256 !== undefined && info.sha256 !== expected.sha256) {
    throw mismatch(`stored with SHA-256 ${info.sha256}, ${expected.sha256} expected`);
  }
  if (options.readBack === true || info.sha256 === undefined) {
    const found = await storage.get(key);
    if (!found) {
      throw new StorageError(`${where}: the object went away while it was read`, {
        kind: 'not_found',
        operation: 'verify',
        key,
      });
    }
    let read: { sha256: string; size: number };
    try {
      read = await digestStream(found.body);
    } catch (error) {
      found.body.destroy();
      throw new StorageError(`${where}: reading it back failed: ${String(error)}`, {
        kind: 'unavailable',
        operation: 'verify',
        key,
        cause: error,
      });
    }
    if (read.size !== expected.size)
      throw mismatch(`${read.size} bytes read back, ${expected.size} expected`);
    if (read.sha256 !== expected.sha256) {
      throw mismatch(`read back with SHA-256 ${read.sha256}, ${expected.sha256} expected`);
    }
  }
  return info;
}
