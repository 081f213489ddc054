// The names of media objects, the same in every store. A key is a relative path of segments
// (letters, digits, `.`, `_`, `-`; none starting with a dot) joined by `/`. The local store
// maps a key onto DATA_DIR/media/<key>; the S3 store onto S3_PREFIX + key in its bucket.
//
// Layout (see docs/architecture.md, "Media storage"):
//
//   videos/<vid_…>/…          everything of one video: playlists, segments, renditions'
//                             folders, the thumbnail, and (once uploads move) its original
//   streams/<str_…>/…         a live stream's media (live segments stay on the ingest machine)
//   storage-check/<random>    the start check's object, there for a fraction of a second
//
// `videos/<vid_…>/` is the same folder as today's DATA_DIR/media/videos/<vid_…> (see
// src/media/media-paths.ts), so the local store reads today's files under these keys. A video is
// deleted, moved or audited as its one prefix, videoPrefix(id).

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;
const MAX_KEY_LENGTH = 900;
const VIDEO_ID = /^vid_[0-9A-Za-z]{1,64}$/;
const STREAM_ID = /^str_[0-9A-Za-z]{1,64}$/;

export const VIDEOS_PREFIX = 'videos/';
export const STREAMS_PREFIX = 'streams/';
export const CHECK_PREFIX = 'storage-check/';

function validSegments(text: string): boolean {
  return text.split('/').every((segment) => SEGMENT.test(segment));
}

/** Whether `key` names an object: segments as above, no empty segment, no leading slash. */
export function isValidKey(key: string): boolean {
  return key.length > 0 && key.length <= MAX_KEY_LENGTH && validSegments(key);
}

/**
 * Whether `prefix` may be listed: empty (everything), or whole segments each followed by `/`,
 * optionally ending with the start of a segment (`videos/vid_` lists every video's objects).
 */
export function isValidListPrefix(prefix: string): boolean {
  if (prefix === '') return true;
  if (prefix.length > MAX_KEY_LENGTH) return false;
  const parts = prefix.split('/');
  const last = parts.pop() ?? '';
  return (parts.length === 0 || validSegments(parts.join('/'))) && (last === '' || SEGMENT.test(last));
}

/** Whether `prefix` may be deleted as a whole: one or more whole segments ending in `/`. */
export function isValidDeletePrefix(prefix: string): boolean {
  return prefix.endsWith('/') && prefix.length > 1 && validSegments(prefix.slice(0, -1));
}

export function videoPrefix(videoId: string): string {
  if (!VIDEO_ID.test(videoId)) throw new Error(`not a video id: ${videoId}`);
  return `${VIDEOS_PREFIX}${videoId}/`;
}

/**
 * The original a video was made from when it was uploaded: in the store beside its media (never
 * served: no media route answers this name); on local disk at DATA_DIR/media/originals/<vid>.
 */
export const ORIGINAL_FILE = 'original';
export const ORIGINALS_PREFIX = 'originals/';

/** The local store's key of a video's original (originals/<vid>, as media-paths.ts places it). */
export function localOriginalKey(videoId: string): string {
  videoPrefix(videoId);
  return `${ORIGINALS_PREFIX}${videoId}`;
}

/** A file of a video: `index.m3u8`, `720p/seg_00001.ts`, `thumbnail.jpg`. */
export function videoKey(videoId: string, file: string): string {
  const key = videoPrefix(videoId) + file;
  if (!isValidKey(key)) throw new Error(`not a media file name: ${file}`);
  return key;
}

export function streamPrefix(streamId: string): string {
  if (!STREAM_ID.test(streamId)) throw new Error(`not a stream id: ${streamId}`);
  return `${STREAMS_PREFIX}${streamId}/`;
}

export function streamKey(streamId: string, file: string): string {
  const key = streamPrefix(streamId) + file;
  if (!isValidKey(key)) throw new Error(`not a media file name: ${file}`);
  return key;
}
