// Media objects as files under DATA_DIR/media, the folder the app has always used
// (src/media/media-paths.ts): the key `videos/vid_…/index.m3u8` is the file
// DATA_DIR/media/videos/vid_…/index.m3u8. A put writes a hidden temporary file beside the target
// and renames it into place, so a reader sees the old file or the whole new one. Folders exist
// only while they hold something, as S3 has no folders: removing a folder's last object removes
// the folder (never the root nor its first level: videos/, streams/, …).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DigestCounter, readAll, sha256Of } from './digest.ts';
import type {
  ByteRange,
  CheckResult,
  ListOptions,
  MediaStorage,
  ObjectBody,
  ObjectInfo,
  ObjectPage,
  ObjectSummary,
  PutOptions,
  PutResult,
} from './media-storage.ts';
import { CHECK_PREFIX, isValidDeletePrefix, isValidKey, isValidListPrefix } from './media-keys.ts';
import { fromFsError, StorageError } from './storage-errors.ts';

/** No such file, or a path through something that is not a folder. */
function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** DATA_DIR/media: the same folder as MediaPaths(dataDir).root. */
export function localMediaRoot(dataDir: string): string {
  return path.join(dataDir, 'media');
}

const MAX_LIST = 1000;

export class LocalMediaStorage implements MediaStorage {
  readonly kind = 'local';
  readonly root: string;
  readonly description: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.description = `media folder ${this.root}`;
  }

  private fail(error: unknown, operation: string, key?: string): StorageError {
    return fromFsError(error, { store: this.description, operation, ...(key === undefined ? {} : { key }) });
  }

  private pathOf(key: string, operation: string): string {
    if (!isValidKey(key)) {
      throw new StorageError(`${this.description}: ${operation}: not a valid key: "${key}"`, {
        kind: 'rejected',
        operation,
        key,
      });
    }
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, body: Uint8Array | string | Readable, options: PutOptions = {}): Promise<PutResult> {
    const source =
      body instanceof Readable ? body : Readable.from([typeof body === 'string' ? Buffer.from(body) : body]);
    const declared = options.sha256 ?? (body instanceof Readable ? undefined : sha256Of(body));
    return this.write(key, source, declared, options.signal);
  }

  async putFile(key: string, file: string, options: PutOptions = {}): Promise<PutResult> {
    this.pathOf(key, 'put');
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(file, 'r');
    } catch (error) {
      throw this.fail(error, 'put', key);
    }
    return this.write(key, handle.createReadStream(), options.sha256, options.signal);
  }

  private async write(
    key: string,
    source: Readable,
    declaredSha256: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<PutResult> {
    const target = this.pathOf(key, 'put');
    const dir = path.dirname(target);
    const temp = path.join(dir, `.${path.basename(target)}.${randomBytes(6).toString('hex')}.part`);
    const counter = new DigestCounter();
    try {
      // A delete may remove an emptied folder between mkdir and open: make it again then.
      let handle: fsp.FileHandle | undefined;
      for (let attempt = 1; handle === undefined; attempt++) {
        await fsp.mkdir(dir, { recursive: true });
        try {
          handle = await fsp.open(temp, 'wx');
        } catch (error) {
          if (attempt >= 3 || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
      }
      await pipeline(source, counter, handle.createWriteStream(), signal ? { signal } : {});
      const sha256 = counter.digest();
      if (declaredSha256 !== undefined && declaredSha256 !== sha256) {
        throw new StorageError(
          `${this.description}: put "${key}": the body's SHA-256 is ${sha256}, not the ${declaredSha256} declared`,
          { kind: 'mismatch', operation: 'put', key },
        );
      }
      await fsp.rename(temp, target);
      return { key, size: counter.bytes, sha256 };
    } catch (error) {
      await fsp.rm(temp, { force: true });
      source.destroy();
      throw this.fail(error, 'put', key);
    }
  }

  async get(
    key: string,
    options: { range?: ByteRange; signal?: AbortSignal } = {},
  ): Promise<ObjectBody | undefined> {
    const file = this.pathOf(key, 'get');
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(file, 'r');
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw this.fail(error, 'get', key);
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) {
        await handle.close();
        return undefined;
      }
      const info = this.infoOf(key, stat);
      let range: { start: number; end: number } | undefined;
      if (options.range) {
        const { start } = options.range;
        const end = Math.min(options.range.end ?? stat.size - 1, stat.size - 1);
        if (start >= stat.size || end < start) {
          throw new StorageError(
            `${this.description}: get "${key}" failed: the range ${start}-${options.range.end ?? ''} is outside the object of ${stat.size} bytes`,
            { kind: 'invalid_range', operation: 'get', key, status: 416 },
          );
        }
        range = { start, end };
      }
      // The stream reads from the handle opened above, so a put renaming a new file into place
      // meanwhile does not change the bytes of this answer; the stream closes the handle.
      const body = handle.createReadStream({
        ...(range ? { start: range.start, end: range.end } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return {
        ...info,
        body,
        ...(range ? { range } : {}),
        length: range ? range.end - range.start + 1 : stat.size,
      };
    } catch (error) {
      await handle.close();
      throw this.fail(error, 'get', key);
    }
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    const file = this.pathOf(key, 'head');
    try {
      const stat = await fsp.stat(file);
      return stat.isFile() ? this.infoOf(key, stat) : undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw this.fail(error, 'head', key);
    }
  }

  /** A strong entity tag from size and modification time, as nginx makes one. */
  private infoOf(key: string, stat: fs.Stats): ObjectInfo {
    return {
      key,
      size: stat.size,
      etag: `"${Math.floor(stat.mtimeMs).toString(16)}-${stat.size.toString(16)}"`,
      lastModified: stat.mtime,
    };
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key, 'delete');
    try {
      await fsp.rm(file, { force: true });
      await this.removeEmptyFolders(path.dirname(file));
    } catch (error) {
      throw this.fail(error, 'delete', key);
    }
  }

  async deletePrefix(prefix: string): Promise<number> {
    if (!isValidDeletePrefix(prefix)) {
      throw new StorageError(
        `${this.description}: delete-prefix: "${prefix}" is not whole segments ending in "/"`,
        { kind: 'rejected', operation: 'delete-prefix', key: prefix },
      );
    }
    const dir = path.join(this.root, ...prefix.slice(0, -1).split('/'));
    try {
      const count = (await this.keysUnder(dir)).length;
      await fsp.rm(dir, { recursive: true, force: true });
      await this.removeEmptyFolders(path.dirname(dir));
      return count;
    } catch (error) {
      throw this.fail(error, 'delete-prefix', prefix);
    }
  }

  /** Removes `dir` and its parents while they are empty, stopping at the root's first level. */
  private async removeEmptyFolders(dir: string): Promise<void> {
    for (
      let current = dir;
      path.dirname(current) !== this.root && current.startsWith(this.root + path.sep);
    ) {
      try {
        await fsp.rmdir(current);
      } catch {
        return; // not empty, already gone, or not ours to remove: done either way
      }
      current = path.dirname(current);
    }
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
    const slash = prefix.lastIndexOf('/');
    const dir = path.join(this.root, ...(slash < 0 ? [] : prefix.slice(0, slash).split('/')));
    try {
      const keys = (await this.keysUnder(dir))
        .filter((key) => key.startsWith(prefix) && (options.cursor === undefined || key > options.cursor))
        .sort();
      const page = keys.slice(0, limit);
      const items: ObjectSummary[] = [];
      for (const key of page) {
        const info = await this.head(key);
        if (info) items.push({ key, size: info.size, etag: info.etag, lastModified: info.lastModified });
      }
      const last = page.at(-1);
      return keys.length > limit && last !== undefined ? { items, cursor: last } : { items };
    } catch (error) {
      throw this.fail(error, 'list', prefix);
    }
  }

  /** The keys of every file below `dir` (hidden files, such as unfinished puts, skipped). */
  private async keysUnder(dir: string): Promise<string[]> {
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true, recursive: true });
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const keys: string[] = [];
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const key = path.relative(this.root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
      if (isValidKey(key)) keys.push(key);
    }
    return keys;
  }

  presignGet(): Promise<string | undefined> {
    return Promise.resolve(undefined);
  }

  publicUrl(): string | undefined {
    return undefined;
  }

  async check(): Promise<CheckResult> {
    const started = performance.now();
    const key = `${CHECK_PREFIX}${randomBytes(9).toString('hex')}`;
    const payload = randomBytes(32);
    await this.put(key, payload);
    let failure: StorageError | undefined;
    try {
      const found = await this.get(key);
      const read = found ? await readAll(found.body) : undefined;
      if (!read?.equals(payload)) {
        throw new StorageError(`${this.description}: check: the object written was not read back the same`, {
          kind: 'mismatch',
          operation: 'check',
          key,
        });
      }
    } catch (error) {
      failure = this.fail(error, 'check', key);
    }
    try {
      await this.delete(key);
    } catch (error) {
      failure ??= this.fail(error, 'check', key);
    }
    if (failure !== undefined) throw failure;
    return { elapsedMs: performance.now() - started };
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
