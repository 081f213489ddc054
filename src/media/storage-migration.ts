// `tributary storage migrate`: moves a whole library of finished videos between the local disk
// (DATA_DIR/media/videos/<id>/) and the object store (videos/<id>/ below S3_PREFIX), one video at
// a time, in either direction. For each video every object is copied (streamed, multipart when
// large), then verified in the target by size and SHA-256 against the source; only once every
// one is there is the source removed and videos.media_location changed.
//
// Resumable and idempotent: an object the target already holds with the same size and SHA-256 is
// not sent again, a video already moved is not a candidate, and a run stopped anywhere (SIGKILL,
// the store going down) leaves every video playable and is finished by running it again:
// - to the store: location `object` is recorded before the local folder is removed, and the
//   origin reads the local file first, so a video plays all along; a folder left behind by a
//   stopped run (`object` with a local folder) is verified against the store and removed.
// - to local disk: the store's objects are removed before the location says `local`, since the
//   origin reads local files first whatever the location; a run stopped between the two (objects
//   gone, location still `object`) finds the local copy complete and records it.
import path from 'node:path';
import fs from 'node:fs/promises';
import { digestFile, digestStream } from '../storage/digest.ts';
import type { LocalMediaStorage } from '../storage/local-storage.ts';
import type { MediaStorage, ObjectSummary } from '../storage/media-storage.ts';
import { localOriginalKey, ORIGINAL_FILE, videoKey, videoPrefix } from '../storage/media-keys.ts';
import { withRetry, type RetryOptions } from '../storage/retry.ts';
import { verifyStored, type Expected } from '../storage/verify.ts';
import type { VideoService } from '../videos/video.service.ts';
import type { MediaLocation } from '../videos/video.table.ts';
import { cacheControlOf, contentTypeOf, videoCacheRule } from './media-files.ts';

export type MigrationTarget = 's3' | 'local';

export interface MigrationPlan {
  videos: number;
  files: number;
  bytes: number;
}

export interface VideoMigrated {
  videoId: string;
  files: number;
  /** Files sent (the others were already in the target, verified). */
  sent: number;
  bytes: number;
  /** Nothing to move: the video has no media files (published without any). */
  empty: boolean;
}

export interface MigrationSummary {
  moved: number;
  empty: number;
  files: number;
  sent: number;
  bytes: number;
}

export interface MigrationEvents {
  plan?(plan: MigrationPlan): void;
  /** After each file is in the target and verified (sent or found there). */
  file?(bytes: number): void;
  video?(result: VideoMigrated): void;
}

export interface MigrationDeps {
  videos: Pick<VideoService, 'publishedIdsAt' | 'mediaLocation' | 'setMediaLocation'>;
  /** DATA_DIR/media as a store. */
  local: LocalMediaStorage;
  /** The object store. */
  remote: MediaStorage;
  /** The local folder of a video, to find one left behind by a stopped run. */
  videoDir(videoId: string): string;
}

export interface MigrationOptions {
  /** Read every object back from the target and hash it (the bytes at rest), not only its head. */
  readBack?: boolean;
  signal?: AbortSignal;
  /** Each file's copy is tried again this way when the store fails in a way that may pass. */
  retry?: RetryOptions;
}

const PAGE = 200;

/** One object to move: where it is in the source, and its key in the target. */
interface Move {
  source: ObjectSummary;
  targetKey: string;
}

async function allObjects(storage: MediaStorage, prefix: string): Promise<ObjectSummary[]> {
  const items: ObjectSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await storage.list(prefix, cursor === undefined ? {} : { cursor });
    items.push(...page.items);
    cursor = page.cursor;
  } while (cursor !== undefined);
  return items;
}

async function exists(dir: string): Promise<boolean> {
  return fs.stat(dir).then(
    () => true,
    () => false,
  );
}

/** The ids to look at: every published video still at the source, and (to the store) left-behind folders. */
async function candidates(deps: MigrationDeps, to: MigrationTarget): Promise<string[]> {
  const from: MediaLocation = to === 's3' ? 'local' : 'object';
  const ids: string[] = [];
  const walk = async (location: MediaLocation, keep: (id: string) => Promise<boolean>) => {
    let after = '';
    for (;;) {
      const page = await deps.videos.publishedIdsAt(location, after, PAGE);
      for (const id of page) if (await keep(id)) ids.push(id);
      if (page.length < PAGE) return;
      after = page.at(-1) ?? after;
    }
  };
  await walk(from, () => Promise.resolve(true));
  if (to === 's3') {
    // Left behind by a run stopped between recording the move and removing the local copy.
    const leftBehind = async (id: string) =>
      (await exists(deps.videoDir(id))) || (await exists(localFileOf(deps.local, localOriginalKey(id))));
    await walk('object', leftBehind);
  }
  return ids.sort();
}

/**
 * A video's objects in the source, each with its key in the target: the same key, except an
 * uploaded video's original, kept at originals/<vid> on disk and at videos/<vid>/original in the
 * store (media-keys.ts).
 */
async function movesOf(deps: MigrationDeps, to: MigrationTarget, videoId: string): Promise<Move[]> {
  const storeKey = videoKey(videoId, ORIGINAL_FILE);
  const diskKey = localOriginalKey(videoId);
  if (to === 'local') {
    const objects = await allObjects(deps.remote, videoPrefix(videoId));
    return objects.map((source) => ({ source, targetKey: source.key === storeKey ? diskKey : source.key }));
  }
  const moves = (await allObjects(deps.local, videoPrefix(videoId))).map((source) => ({
    source,
    targetKey: source.key,
  }));
  const original = await deps.local.head(diskKey);
  if (original) moves.push({ source: { ...original, key: diskKey }, targetKey: storeKey });
  return moves;
}

/** A run killed mid-copy leaves its hidden temporary file (`.name.random.part`) behind. */
async function removeUnfinishedPuts(dir: string): Promise<void> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.isFile() && entry.name.startsWith('.') && entry.name.endsWith('.part')) {
      await fs.rm(path.join(entry.parentPath, entry.name), { force: true });
    }
  }
}

/** What a source object must be found as in the target: its size and SHA-256. */
async function expectedOf(
  deps: MigrationDeps,
  source: MediaStorage,
  object: ObjectSummary,
): Promise<Expected> {
  if (source === deps.local) return digestFile(localFileOf(deps.local, object.key));
  const info = await source.head(object.key);
  if (info?.sha256 !== undefined) return { size: info.size, sha256: info.sha256 };
  // Stored without a checksum (not by this program): hash it as it is now.
  const body = await source.get(object.key);
  if (!body) return { size: object.size, sha256: '' };
  return digestStream(body.body);
}

function localFileOf(local: LocalMediaStorage, key: string): string {
  return path.join(local.root, ...key.split('/'));
}

async function alreadyThere(deps: MigrationDeps, target: MediaStorage, key: string, expected: Expected) {
  const info = await target.head(key);
  if (info?.size !== expected.size) return false;
  if (info.sha256 !== undefined) return info.sha256 === expected.sha256;
  // The local store keeps no checksum: hash the file.
  return (await digestFile(localFileOf(deps.local, key))).sha256 === expected.sha256;
}

/** Copies one video's objects, verifies them, then removes the source and records the location. */
async function migrateVideo(
  deps: MigrationDeps,
  to: MigrationTarget,
  videoId: string,
  moves: Move[],
  events: MigrationEvents,
  options: MigrationOptions,
): Promise<VideoMigrated> {
  const source = to === 's3' ? deps.local : deps.remote;
  const target = to === 's3' ? deps.remote : deps.local;
  const prefix = videoPrefix(videoId);
  let sent = 0;
  let bytes = 0;
  const copy = async ({ source: object, targetKey }: Move): Promise<Expected> => {
    const expected = await expectedOf(deps, source, object);
    if (!(await alreadyThere(deps, target, targetKey, expected))) {
      const file = (to === 's3' ? targetKey : object.key).slice(prefix.length);
      const put = {
        sha256: expected.sha256,
        contentType: contentTypeOf(file),
        cacheControl: cacheControlOf(videoCacheRule(file)),
        ...(options.signal ? { signal: options.signal } : {}),
      };
      if (source === deps.local) {
        await target.putFile(targetKey, localFileOf(deps.local, object.key), put);
      } else {
        const body = await source.get(object.key, options.signal ? { signal: options.signal } : {});
        if (!body) throw new Error(`${object.key} went away from ${source.description} while it was moved`);
        await target.put(targetKey, body.body, put);
      }
      sent++;
    }
    await verifyStored(target, targetKey, expected, { readBack: options.readBack === true });
    return expected;
  };
  for (const move of moves) {
    options.signal?.throwIfAborted();
    const expected = await withRetry(() => copy(move), {
      ...(options.retry ?? { attempts: 5, baseDelayMs: 1_000 }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    bytes += expected.size;
    events.file?.(expected.size);
  }
  let empty = moves.length === 0;
  if (to === 's3') {
    if (empty) {
      // Nothing on disk: published without media, or nothing of it to move.
    } else if (await deps.videos.setMediaLocation(videoId, 'object')) {
      await deps.local.deletePrefix(prefix);
      await deps.local.delete(localOriginalKey(videoId));
    } else {
      await deps.remote.deletePrefix(prefix); // deleted meanwhile
    }
  } else {
    // A stopped run may have removed the store's copy already: the local one is then complete.
    if (empty) empty = (await deps.local.list(prefix, { limit: 1 })).items.length === 0;
    if (!empty) {
      await removeUnfinishedPuts(deps.videoDir(videoId));
      await deps.remote.deletePrefix(prefix);
      await deps.videos.setMediaLocation(videoId, 'local');
    }
  }
  return { videoId, files: moves.length, sent, bytes, empty };
}

/**
 * Moves every published video's media to `to`. Throws on the first failure (the store down, a
 * mismatch) with what was moved so far kept; running it again carries on from there.
 */
export async function migrateLibrary(
  deps: MigrationDeps,
  to: MigrationTarget,
  events: MigrationEvents = {},
  options: MigrationOptions = {},
): Promise<MigrationSummary> {
  const ids = await candidates(deps, to);
  const work: { videoId: string; moves: Move[] }[] = [];
  for (const videoId of ids) work.push({ videoId, moves: await movesOf(deps, to, videoId) });
  events.plan?.({
    videos: work.filter((item) => item.moves.length > 0).length,
    files: work.reduce((sum, item) => sum + item.moves.length, 0),
    bytes: work.reduce((sum, item) => sum + item.moves.reduce((n, move) => n + move.source.size, 0), 0),
  });
  const summary: MigrationSummary = { moved: 0, empty: 0, files: 0, sent: 0, bytes: 0 };
  for (const { videoId, moves } of work) {
    const result = await migrateVideo(deps, to, videoId, moves, events, options);
    if (result.empty) summary.empty++;
    else summary.moved++;
    summary.files += result.files;
    summary.sent += result.sent;
    summary.bytes += result.bytes;
    events.video?.(result);
  }
  return summary;
}
