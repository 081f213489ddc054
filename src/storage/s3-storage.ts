// Media objects in a bucket of any S3-compatible store (AWS S3, Cloudflare R2, Backblaze B2,
// MinIO, Garage, Ceph's RADOS Gateway) through the AWS SDK for JavaScript: the key `k` is the
// object S3_PREFIX + k. Loaded only when MEDIA_STORAGE=s3 (open-storage.ts), so the embedded
// mode does not carry the SDK.
//
// Settings every S3-compatible store needs (docs/architecture.md, "Media storage"): checksums
// only where S3 requires them (the SDK's default CRC32 checksums on every put are refused by
// Ceph 16, MinIO before 2024 and others, and make a streamed PutObject fail with 411), and
// path-style URLs when S3_FORCE_PATH_STYLE says so. Ceph answers an empty ETag when a multipart
// upload completes, so nothing here trusts the completion's ETag: every put hashes what it
// sends, and verifyStored (verify.ts) compares size and SHA-256.
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { DigestCounter, digestFile, readAll, sha256Of } from './digest.ts';
import type {
  ByteRange,
  CheckResult,
  ListOptions,
  MediaStorage,
  ObjectBody,
  ObjectInfo,
  ObjectPage,
  PresignOptions,
  PutOptions,
  PutResult,
} from './media-storage.ts';
import { CHECK_PREFIX, isValidDeletePrefix, isValidKey, isValidListPrefix } from './media-keys.ts';
import { fromFsError, fromS3Error, StorageError } from './storage-errors.ts';

export interface S3StorageOptions {
  /** The store's base URL; AWS S3 for the region when absent. */
  endpoint?: string;
  region: string;
  bucket: string;
  /** Put before every key: empty, or segments ending in `/`. */
  prefix: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key`. */
  forcePathStyle: boolean;
  /** Base URL that serves the bucket's root (a CDN, the bucket's website), without a trailing slash. */
  publicUrl?: string;
  /** Bodies above this go up in parts of this size (5 MiB at least; 8 MiB unless given). */
  partSizeBytes?: number;
  /** Parts in flight at once for one body (4 unless given); memory is at most parts × part size. */
  partsInFlight?: number;
  /** The SDK's attempts per HTTP request (3 unless given); operations retry above it (retry.ts). */
  maxAttempts?: number;
  /** Connecting must take at most this (5 s unless given). */
  connectTimeoutMs?: number;
  /** A request whose socket sees no byte for this long fails (60 s unless given). */
  idleTimeoutMs?: number;
}

const MIB = 1024 * 1024;
const MAX_LIST = 1000;
const MAX_PRESIGN_SECONDS = 604_800;
/** User metadata `x-amz-meta-sha256`: the SHA-256 this interface stored the object with. */
const SHA256_META = 'sha256';

export class S3MediaStorage implements MediaStorage {
  readonly kind = 's3';
  readonly description: string;
  readonly bucket: string;
  readonly prefix: string;
  private readonly client: S3Client;
  private readonly publicBase: string | undefined;
  private readonly partSize: number;
  private readonly partsInFlight: number;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix;
    this.publicBase = options.publicUrl;
    this.partSize = Math.max(5 * MIB, options.partSizeBytes ?? 8 * MIB);
    this.partsInFlight = Math.max(1, options.partsInFlight ?? 4);
    this.description = `S3 bucket "${options.bucket}" at ${options.endpoint ?? `AWS S3 (${options.region})`}`;
    const agentOptions = { keepAlive: true, maxSockets: 64 };
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
      forcePathStyle: options.forcePathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: options.maxAttempts ?? 3,
      requestHandler: {
        connectionTimeout: options.connectTimeoutMs ?? 5000,
        requestTimeout: options.idleTimeoutMs ?? 60_000,
        httpAgent: new http.Agent(agentOptions),
        httpsAgent: new https.Agent(agentOptions),
      },
    });
  }

  private fail(error: unknown, operation: string, key?: string): StorageError {
    return fromS3Error(error, { store: this.description, operation, ...(key === undefined ? {} : { key }) });
  }

  private objectKey(key: string, operation: string): string {
    if (!isValidKey(key)) {
      throw new StorageError(`${this.description}: ${operation}: not a valid key: "${key}"`, {
        kind: 'rejected',
        operation,
        key,
      });
    }
    return this.prefix + key;
  }

  async put(key: string, body: Uint8Array | string | Readable, options: PutOptions = {}): Promise<PutResult> {
    if (body instanceof Readable) return this.upload(key, body, options.sha256, options);
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    const sha256 = sha256Of(bytes);
    if (options.sha256 !== undefined && options.sha256 !== sha256) {
      throw new StorageError(
        `${this.description}: put "${key}": the body's SHA-256 is ${sha256}, not the ${options.sha256} declared`,
        { kind: 'mismatch', operation: 'put', key },
      );
    }
    if (bytes.length > this.partSize) return this.upload(key, Readable.from([bytes]), sha256, options);
    const objectKey = this.objectKey(key, 'put');
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: objectKey,
          Body: bytes,
          ContentLength: bytes.length,
          ...this.objectHeaders(options, sha256),
        }),
        options.signal ? { abortSignal: options.signal } : {},
      );
    } catch (error) {
      throw this.fail(error, 'put', key);
    }
    return { key, size: bytes.length, sha256 };
  }

  async putFile(key: string, file: string, options: PutOptions = {}): Promise<PutResult> {
    this.objectKey(key, 'put');
    // The checksum goes up with the object, so it is known first: one read of the file to hash
    // it (disk is faster than the network), one to send it, hashed again on the way.
    let handle: fsp.FileHandle | undefined;
    let sha256 = options.sha256;
    try {
      sha256 ??= (await digestFile(file)).sha256;
      handle = await fsp.open(file, 'r');
    } catch (error) {
      throw fromFsError(error, { store: this.description, operation: 'put', key });
    }
    return this.upload(key, handle.createReadStream(), sha256, options);
  }

  private objectHeaders(options: PutOptions, sha256: string | undefined) {
    return {
      ContentType: options.contentType ?? 'application/octet-stream',
      ...(options.cacheControl === undefined ? {} : { CacheControl: options.cacheControl }),
      ...(sha256 === undefined ? {} : { Metadata: { [SHA256_META]: sha256 } }),
    };
  }

  /**
   * A stream through lib-storage: one PutObject when it fits in a part, else a multipart upload
   * of `partsInFlight` parts at a time, aborted at the store when it fails. The bytes are hashed
   * as they go; a body whose digest is not the one stored with it is deleted again.
   */
  private async upload(
    key: string,
    source: Readable,
    declaredSha256: string | undefined,
    options: PutOptions,
  ): Promise<PutResult> {
    const objectKey = this.objectKey(key, 'put');
    const counter = new DigestCounter();
    // A source that fails (a file that cannot be read) ends the upload through the counter.
    let sourceFailure: unknown;
    source.on('error', (error) => {
      sourceFailure = error;
      counter.destroy(error);
    });
    source.pipe(counter);
    const upload = new Upload({
      client: this.client,
      queueSize: this.partsInFlight,
      partSize: this.partSize,
      leavePartsOnError: false,
      params: {
        Bucket: this.bucket,
        Key: objectKey,
        Body: counter,
        ...this.objectHeaders(options, declaredSha256),
      },
    });
    const abort = () => {
      void upload.abort();
    };
    options.signal?.addEventListener('abort', abort, { once: true });
    try {
      await upload.done();
    } catch (error) {
      source.destroy();
      if (options.signal?.aborted === true) {
        throw new StorageError(`${this.description}: put "${key}" was aborted`, {
          kind: 'aborted',
          operation: 'put',
          key,
          cause: error,
        });
      }
      if (sourceFailure !== undefined) {
        throw fromFsError(sourceFailure, { store: this.description, operation: 'put', key });
      }
      throw this.fail(error, 'put', key);
    } finally {
      options.signal?.removeEventListener('abort', abort);
    }
    const sha256 = counter.digest();
    if (declaredSha256 !== undefined && declaredSha256 !== sha256) {
      await this.delete(key).catch(() => undefined);
      throw new StorageError(
        `${this.description}: put "${key}": the bytes sent have SHA-256 ${sha256}, not the ${declaredSha256} declared (the file changed while it was sent?)`,
        { kind: 'mismatch', operation: 'put', key },
      );
    }
    return { key, size: counter.bytes, sha256 };
  }

  async get(
    key: string,
    options: { range?: ByteRange; signal?: AbortSignal } = {},
  ): Promise<ObjectBody | undefined> {
    const objectKey = this.objectKey(key, 'get');
    const range = options.range;
    if (range && (range.start < 0 || (range.end !== undefined && range.end < range.start))) {
      throw new StorageError(
        `${this.description}: get "${key}": not a byte range: ${range.start}-${range.end}`,
        {
          kind: 'invalid_range',
          operation: 'get',
          key,
        },
      );
    }
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: objectKey,
          ...(range ? { Range: `bytes=${range.start}-${range.end ?? ''}` } : {}),
        }),
        options.signal ? { abortSignal: options.signal } : {},
      );
      const length = answer.ContentLength ?? 0;
      // `bytes 0-9/100`: the range answered and the whole size.
      const contentRange = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(answer.ContentRange ?? '');
      const answered = contentRange
        ? { start: Number(contentRange[1]), end: Number(contentRange[2]) }
        : undefined;
      const sha256 = answer.Metadata?.[SHA256_META];
      return {
        key,
        size: contentRange ? Number(contentRange[3]) : length,
        etag: answer.ETag ?? '',
        lastModified: answer.LastModified ?? new Date(0),
        ...(sha256 === undefined ? {} : { sha256 }),
        ...(answer.ContentType === undefined ? {} : { contentType: answer.ContentType }),
        body: answer.Body as Readable,
        ...(range && answered ? { range: answered } : {}),
        length,
      };
    } catch (error) {
      const failure = this.fail(error, 'get', key);
      if (failure.kind === 'not_found') return undefined;
      throw failure;
    }
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    const objectKey = this.objectKey(key, 'head');
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: objectKey }));
      const sha256 = answer.Metadata?.[SHA256_META];
      return {
        key,
        size: answer.ContentLength ?? 0,
        etag: answer.ETag ?? '',
        lastModified: answer.LastModified ?? new Date(0),
        ...(sha256 === undefined ? {} : { sha256 }),
        ...(answer.ContentType === undefined ? {} : { contentType: answer.ContentType }),
      };
    } catch (error) {
      // A HEAD answer has no body, so a missing bucket is a 404 like a missing object.
      const failure = this.fail(error, 'head', key);
      if (failure.kind === 'not_found') return undefined;
      throw failure;
    }
  }

  async delete(key: string): Promise<void> {
    const objectKey = this.objectKey(key, 'delete');
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: objectKey }));
    } catch (error) {
      const failure = this.fail(error, 'delete', key);
      if (failure.kind !== 'not_found') throw failure;
    }
  }

  async deletePrefix(prefix: string): Promise<number> {
    if (!isValidDeletePrefix(prefix)) {
      throw new StorageError(
        `${this.description}: delete-prefix: "${prefix}" is not whole segments ending in "/"`,
        {
          kind: 'rejected',
          operation: 'delete-prefix',
          key: prefix,
        },
      );
    }
    const full = this.prefix + prefix;
    let deleted = 0;
    try {
      // Unfinished multipart uploads first, so none completes into the prefix after it was emptied.
      for (let keyMarker: string | undefined, idMarker: string | undefined; ;) {
        const page = await this.client.send(
          new ListMultipartUploadsCommand({
            Bucket: this.bucket,
            Prefix: full,
            ...(keyMarker === undefined ? {} : { KeyMarker: keyMarker }),
            ...(idMarker === undefined ? {} : { UploadIdMarker: idMarker }),
          }),
        );
        for (const upload of page.Uploads ?? []) {
          if (upload.Key === undefined || upload.UploadId === undefined) continue;
          await this.client.send(
            new AbortMultipartUploadCommand({
              Bucket: this.bucket,
              Key: upload.Key,
              UploadId: upload.UploadId,
            }),
          );
        }
        if (page.IsTruncated !== true) break;
        keyMarker = page.NextKeyMarker;
        idMarker = page.NextUploadIdMarker;
      }
      // Then the objects, 1000 a request (DeleteObjects' limit), listing from the start each
      // time since the previous page is gone.
      for (;;) {
        const page = await this.client.send(
          new ListObjectsV2Command({ Bucket: this.bucket, Prefix: full, MaxKeys: MAX_LIST }),
        );
        const keys = (page.Contents ?? []).flatMap((object) =>
          object.Key === undefined ? [] : [object.Key],
        );
        if (keys.length === 0) break;
        const answer = await this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.bucket,
            Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
          }),
        );
        const refused = answer.Errors ?? [];
        const first = refused[0];
        if (first) {
          throw new StorageError(
            `${this.description}: delete-prefix "${prefix}": ${refused.length} of ${keys.length} objects were not deleted (${first.Key ?? ''}: ${first.Code ?? ''} ${first.Message ?? ''})`,
            {
              kind: first.Code === 'AccessDenied' ? 'credentials' : 'unavailable',
              operation: 'delete-prefix',
              key: prefix,
              ...(first.Code === undefined ? {} : { code: first.Code }),
            },
          );
        }
        deleted += keys.length;
      }
    } catch (error) {
      throw this.fail(error, 'delete-prefix', prefix);
    }
    return deleted;
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ObjectPage> {
    if (!isValidListPrefix(prefix)) {
      throw new StorageError(`${this.description}: list: not a valid prefix: "${prefix}"`, {
        kind: 'rejected',
        operation: 'list',
        key: prefix,
      });
    }
    const limit = Math.min(Math.max(1, Math.floor(options.limit ?? MAX_LIST)), MAX_LIST);
    try {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: this.prefix + prefix,
          MaxKeys: limit,
          ...(options.cursor === undefined ? {} : { ContinuationToken: options.cursor }),
        }),
      );
      const items = (page.Contents ?? []).flatMap((object) =>
        object.Key === undefined
          ? []
          : [
              {
                key: object.Key.slice(this.prefix.length),
                size: object.Size ?? 0,
                etag: object.ETag ?? '',
                lastModified: object.LastModified ?? new Date(0),
              },
            ],
      );
      return page.IsTruncated === true && page.NextContinuationToken !== undefined
        ? { items, cursor: page.NextContinuationToken }
        : { items };
    } catch (error) {
      throw this.fail(error, 'list', prefix);
    }
  }

  async presignGet(key: string, options: PresignOptions = {}): Promise<string> {
    const objectKey = this.objectKey(key, 'presign');
    const expiresIn = Math.min(
      Math.max(1, Math.floor(options.expiresInSeconds ?? 3600)),
      MAX_PRESIGN_SECONDS,
    );
    try {
      return await getSignedUrl(
        this.client,
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: objectKey,
          ...(options.responseContentType === undefined
            ? {}
            : { ResponseContentType: options.responseContentType }),
          ...(options.responseCacheControl === undefined
            ? {}
            : { ResponseCacheControl: options.responseCacheControl }),
        }),
        { expiresIn },
      );
    } catch (error) {
      throw this.fail(error, 'presign', key);
    }
  }

  publicUrl(key: string): string | undefined {
    if (this.publicBase === undefined) return undefined;
    const objectKey = this.objectKey(key, 'public-url');
    return `${this.publicBase}/${objectKey.split('/').map(encodeURIComponent).join('/')}`;
  }

  async check(): Promise<CheckResult> {
    const started = performance.now();
    const key = `${CHECK_PREFIX}${os
      .hostname()
      .replace(/[^A-Za-z0-9_-]/g, '-')
      .slice(0, 40)}-${process.pid}-${randomBytes(6).toString('hex')}`;
    const payload = randomBytes(32);
    // Each step's failure says which step it was: a write refused is not a read that failed.
    const stage = async <T>(step: string, run: () => Promise<T>): Promise<T> => {
      try {
        return await run();
      } catch (error) {
        const failure = this.fail(error, 'check', key);
        throw new StorageError(`check failed at the ${step}: ${failure.message}`, {
          kind: failure.kind,
          operation: 'check',
          key,
          ...(failure.status === undefined ? {} : { status: failure.status }),
          ...(failure.code === undefined ? {} : { code: failure.code }),
          cause: failure,
        });
      }
    };
    await stage('write', () => this.put(key, payload));
    let failure: StorageError | undefined;
    try {
      const read = await stage('read', async () => {
        const found = await this.get(key);
        return found ? await readAll(found.body) : undefined;
      });
      if (!read?.equals(payload)) {
        throw new StorageError(
          `check failed at the read: ${this.description}: the object written to "${key}" was not read back the same`,
          { kind: 'mismatch', operation: 'check', key },
        );
      }
    } catch (error) {
      failure = this.fail(error, 'check', key);
    }
    // Deleted whatever the read found; the first failure is the one reported.
    try {
      await stage('delete', () => this.delete(key));
    } catch (error) {
      failure ??= this.fail(error, 'check', key);
    }
    if (failure !== undefined) throw failure;
    return { elapsedMs: performance.now() - started };
  }

  close(): Promise<void> {
    this.client.destroy();
    return Promise.resolve();
  }
}
