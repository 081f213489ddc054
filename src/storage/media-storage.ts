// Where media objects are kept: one interface, two stores. LocalMediaStorage keeps them as
// files under DATA_DIR/media (the embedded default); S3MediaStorage in a bucket of any
// S3-compatible object store. Keys and their layout: media-keys.ts. Every failure is a
// StorageError (storage-errors.ts) that says whether trying again can help (retry.ts).
import type { Readable } from 'node:stream';

export interface PutOptions {
  /** Content-Type stored with the object (S3) and answered on a presigned GET. */
  contentType?: string;
  /** Cache-Control stored with the object (S3), for a CDN or the bucket's own site. */
  cacheControl?: string;
  /**
   * The body's SHA-256 (hex) when the caller already knows it. A stream put then stores it
   * with the object and refuses a body whose digest differs: the local store keeps the object
   * that was there, S3 (which has no conditional commit) deletes the key's object.
   */
  sha256?: string;
  /** Aborts the put; a multipart upload in progress is aborted at the store. */
  signal?: AbortSignal;
}

export interface PutResult {
  key: string;
  /** Bytes stored. */
  size: number;
  /** SHA-256 (hex) of the bytes sent, computed while they were sent. */
  sha256: string;
}

/** Bytes `start` to `end`, both included, as in an HTTP Range header; `end` open when absent. */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface ObjectInfo {
  key: string;
  size: number;
  /** The store's entity tag, quoted as in HTTP (S3's is an MD5 or `"…-N"` for multipart). */
  etag: string;
  lastModified: Date;
  /**
   * The SHA-256 (hex) the object was stored with, when this interface stored it knowing it
   * (S3: `putFile`, buffers, and streams given `sha256`). The local store has none: read the
   * file (verifyStored does).
   */
  sha256?: string;
  contentType?: string;
}

export interface ObjectBody extends ObjectInfo {
  /** The bytes asked for; the caller must read it to the end or destroy it. */
  body: Readable;
  /** The range answered, when one was asked for: `size` is then the object's whole size. */
  range?: { start: number; end: number };
  /** Bytes in `body`: the range's length, or the whole size. */
  length: number;
}

export interface ObjectSummary {
  key: string;
  size: number;
  etag: string;
  lastModified: Date;
}

export interface ObjectPage {
  /** In key order (byte order of the UTF-8 keys, as S3 lists). */
  items: ObjectSummary[];
  /** Pass to the next list call for the next page; absent on the last page. */
  cursor?: string;
}

export interface ListOptions {
  cursor?: string;
  /** At most this many objects (1 to 1000; 1000 unless given). */
  limit?: number;
}

export interface PresignOptions {
  /** Seconds the URL works (1 to 604,800, S3's limit of 7 days); 3600 unless given. */
  expiresInSeconds?: number;
  /** Content-Type the store answers with, overriding the stored one. */
  responseContentType?: string;
  /** Cache-Control the store answers with. */
  responseCacheControl?: string;
}

export interface CheckResult {
  /** The whole write, read and delete, in milliseconds. */
  elapsedMs: number;
}

export interface MediaStorage {
  readonly kind: 'local' | 's3';
  /** Where the objects are, for messages: the folder, or the bucket and endpoint. */
  readonly description: string;

  /** Stores a body under `key`, replacing any object there; a stream goes up in parts. */
  put(key: string, body: Uint8Array | string | Readable, options?: PutOptions): Promise<PutResult>;
  /** Stores a file, streamed from disk (never read whole); multipart above the part size. */
  putFile(key: string, file: string, options?: PutOptions): Promise<PutResult>;
  /**
   * The object's bytes as a stream, or a range of them; undefined when there is no object.
   * A range starting at or after the end is a StorageError of kind `invalid_range`.
   */
  get(key: string, options?: { range?: ByteRange; signal?: AbortSignal }): Promise<ObjectBody | undefined>;
  /** Size, entity tag, time and stored checksum; undefined when there is no object. */
  head(key: string): Promise<ObjectInfo | undefined>;
  /** Removes one object; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Removes every object whose key starts with `prefix` (whole segments ending in `/`, such as
   * videoPrefix(id)), and on S3 aborts multipart uploads left unfinished under it. Returns the
   * number of objects removed.
   */
  deletePrefix(prefix: string): Promise<number>;
  /** One page of the objects whose keys start with `prefix`, in key order. */
  list(prefix: string, options?: ListOptions): Promise<ObjectPage>;
  /**
   * A URL anyone holding it can GET the object by until it expires (S3), or undefined when the
   * store has none (local: the origin serves the file).
   */
  presignGet(key: string, options?: PresignOptions): Promise<string | undefined>;
  /** The object's URL under S3_PUBLIC_URL, or undefined when none is configured. Never for private media. */
  publicUrl(key: string): string | undefined;
  /** A real write, read back and delete of a small object; throws a StorageError on failure. */
  check(): Promise<CheckResult>;
  /** Releases connections. */
  close(): Promise<void>;
}
