// Media files as the routes send them, with the small ones (segments, playlists, thumbnails)
// kept in memory: when a stream is popular, every player asks for the same few files within
// a second or two, and answering them from memory instead of from the disk each time is most
// of what makes the origin fast (issue 16).
//
// Freshness: every request stats the file, and an entry is used only while the file's inode,
// size, mtime and ctime are what they were when it was read. A live playlist is replaced by a
// rename (a new inode) or rewritten (a new mtime and ctime), so the stat after the change no
// longer matches and the new file is read: the cache never answers with a playlist older than
// the one on disk. The validators are taken from the open file (fstat), not from the path, so
// the content read and the ETag sent with it always belong together. Timestamps are coarse
// (a clock tick on ext4 and tmpfs, a whole second on some filesystems), so two in-place writes
// close together can leave the same mtime: a file that may change in place (anything but a
// segment) is kept only once its mtime is SETTLE_MS old, and its ETag is a hash of its content.
// Segments (.ts) are written once and never changed (hls-packager.ts, video-import.ts); their
// ETag comes from the version, which spares hashing hundreds of kilobytes per segment.
//
// Memory: bodies are counted in bytes and the least recently used are evicted past
// `maxBytes` (0 keeps nothing); files above MAX_ENTRY_BYTES are streamed from disk instead. A stream's old
// segments fall out as its players move on; a playlist has one entry, replaced as it changes.
// A body being sent stays in memory until its response ends, kept or not: slow clients asking
// for many different files could otherwise hold one whole file each, far past `maxBytes`. So
// bodies lent to responses are counted too (`lend`), and when the bytes kept, lent out and being
// read would pass twice `maxBytes`, a file not in memory is streamed from disk instead (a
// playlist excepted: it is small, and the route parses it).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { ParsedPlaylist } from '../hls/hls-playlist.ts';

export const DEFAULT_MEDIA_CACHE_BYTES = 64 * 1024 * 1024;
/** Longer than any filesystem's timestamp granularity we run on (see the top). */
const SETTLE_MS = 1000;
/** A 2 s 1080p segment is 1-2 MB; anything far larger is a file to stream, not to keep. */
const MAX_ENTRY_BYTES = 8 * 1024 * 1024;

/** What identifies one version of a file on disk. */
interface Version {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

export interface MediaFile extends Version {
  path: string;
  /** Strong: a hash of the content, or for segments and large files their version. */
  etag: string;
  lastModified: string;
  /** The whole content when it is small enough to keep; otherwise read from `handle`. */
  body: Buffer | undefined;
  /** Open on the file when `body` is undefined; the sender streams from it or closes it. */
  handle: FileHandle | undefined;
  /** The parsed playlist, worked out once per version by the route that needs it. */
  playlist?: ParsedPlaylist;
}

export class MediaCache {
  readonly maxBytes: number;
  /** In order of last use, least recent first. */
  private readonly entries = new Map<string, MediaFile>();
  /** Reads under way, so players asking for a file at once cause one read. */
  private readonly reading = new Map<string, Promise<MediaFile | undefined | 'large'>>();
  private bytes = 0;
  /** Responses sending each body now. */
  private readonly lent = new Map<MediaFile, number>();
  /** Bytes of bodies being sent that the cache does not hold (never kept, or evicted since). */
  private lentOutside = 0;
  /** Bytes of whole-file reads under way. */
  private readingBytes = 0;

  constructor(maxBytes = DEFAULT_MEDIA_CACHE_BYTES) {
    this.maxBytes = maxBytes;
  }

  /** Bytes of file content held now; never more than maxBytes. */
  get size(): number {
    return this.bytes;
  }

  /** Bytes of bodies held for responses still being sent, beyond those the cache keeps. */
  get lentBytes(): number {
    return this.lentOutside;
  }

  /**
   * Counts `media.body` as being sent until the returned function is called (once the response
   * has ended), so memory held by slow responses is bounded with the rest.
   */
  lend(media: MediaFile): () => void {
    const size = media.body?.length ?? 0;
    const count = this.lent.get(media) ?? 0;
    this.lent.set(media, count + 1);
    if (count === 0 && !this.holds(media)) this.lentOutside += size;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.lent.get(media) ?? 1) - 1;
      if (left > 0) {
        this.lent.set(media, left);
        return;
      }
      this.lent.delete(media);
      if (!this.holds(media)) this.lentOutside -= size;
    };
  }

  private holds(media: MediaFile): boolean {
    return this.entries.get(media.path) === media;
  }

  /**
   * The file as it is on disk now, or undefined when there is no such file. I/O errors other
   * than a missing file are thrown (the caller logs them).
   */
  async open(file: string): Promise<MediaFile | undefined> {
    // Synchronous, as nginx stats: for a file the kernel has cached, a stat takes a few
    // microseconds, less than a trip through libuv's thread pool that would follow it.
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat === undefined) return undefined;
    const cached = this.entries.get(file);
    if (cached !== undefined) {
      if (sameVersion(cached, stat)) {
        this.entries.delete(file);
        this.entries.set(file, cached);
        return cached;
      }
      this.forget(file, cached);
    }
    if (!stat.isFile()) return undefined;
    if (stat.size > MAX_ENTRY_BYTES) return openLarge(file);
    let pending = this.reading.get(file);
    if (pending === undefined) {
      const overBudget = this.bytes + this.lentOutside + this.readingBytes + stat.size > 2 * this.maxBytes;
      if (overBudget && !file.endsWith('.m3u8')) return openLarge(file);
      this.readingBytes += stat.size;
      pending = this.read(file).finally(() => {
        this.reading.delete(file);
        this.readingBytes -= stat.size;
      });
      this.reading.set(file, pending);
    }
    let read = await pending;
    // A read that began before this request's stat may hold the version before it: read again.
    if (read !== undefined && read !== 'large' && !sameVersion(read, stat)) read = await this.read(file);
    // Grown past the bound since the stat: each sender streams from a handle of its own.
    return read === 'large' ? openLarge(file) : read;
  }

  /** The file's content, kept when whole; shared by every request that asked meanwhile. */
  private async read(file: string): Promise<MediaFile | undefined | 'large'> {
    const readAt = Date.now();
    const handle = await openOrUndefined(file);
    if (handle === undefined) return undefined;
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) return undefined;
      if (stat.size > MAX_ENTRY_BYTES) return 'large';
      const body = await handle.readFile();
      const writeOnce = file.endsWith('.ts');
      const entry = describe(file, stat, body, undefined, writeOnce ? undefined : contentTag(body));
      // Written to since the fstat: served as read, never kept under a version it is not.
      if (body.length !== stat.size) return { ...entry, size: body.length };
      if (writeOnce || readAt - stat.mtimeMs >= SETTLE_MS) this.keep(file, entry);
      return entry;
    } finally {
      await handle.close();
    }
  }

  private keep(file: string, entry: MediaFile): void {
    // Read whole all the same (a playlist is parsed), but not kept when it would not fit.
    if (entry.body === undefined || entry.body.length > this.maxBytes) return;
    const previous = this.entries.get(file);
    if (previous !== undefined) this.forget(file, previous);
    this.entries.set(file, entry);
    this.bytes += entry.body.length;
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.forget(oldest, old);
    }
  }

  private forget(file: string, entry: MediaFile): void {
    this.entries.delete(file);
    this.bytes -= entry.body?.length ?? 0;
    // Still being sent: its bytes stay in memory until those responses end.
    if (this.lent.has(entry)) this.lentOutside += entry.body?.length ?? 0;
  }
}

function sameVersion(a: Version, b: Version): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

function describe(
  file: string,
  stat: fs.Stats,
  body: Buffer | undefined,
  handle: FileHandle | undefined,
  etag?: string,
): MediaFile {
  const { size } = stat;
  return {
    path: file,
    ino: stat.ino,
    size,
    mtimeMs: stat.mtimeMs,
    ctimeMs: stat.ctimeMs,
    etag:
      etag ??
      `"${stat.ino.toString(36)}-${size.toString(36)}-${Math.round(stat.mtimeMs * 1000).toString(36)}"`,
    lastModified: new Date(stat.mtimeMs).toUTCString(),
    body,
    handle,
  };
}

/** A strong entity tag from the bytes themselves, for files that may change in place. */
function contentTag(body: Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

async function openLarge(file: string): Promise<MediaFile | undefined> {
  const handle = await openOrUndefined(file);
  if (handle === undefined) return undefined;
  try {
    const stat = await handle.stat();
    if (stat.isFile()) return describe(file, stat, undefined, handle);
  } catch (error) {
    await handle.close();
    throw error;
  }
  await handle.close();
  return undefined;
}

async function openOrUndefined(file: string): Promise<FileHandle | undefined> {
  try {
    return await fs.promises.open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
