// Where media lives on disk, under DATA_DIR/media. Every path the HTTP routes serve goes
// through here, so a request can only ever name a file inside a stream's or video's folder.
// The folders are owner-only: created under the process's umask (main.ts), their roots
// tightened at start (runtime.ts).
import path from 'node:path';

/** A file inside a media folder: the playlist, the thumbnail, or a segment of one publish. */
const MEDIA_FILE = /^(?:p\d{1,4}\/)?[A-Za-z0-9_-]{1,64}\.(?:m3u8|ts|jpg)$/;
const STREAM_ID = /^str_[0-9A-Za-z]{1,64}$/;
const VIDEO_ID = /^vid_[0-9A-Za-z]{1,64}$/;

export const PLAYLIST_FILE = 'index.m3u8';
export const THUMBNAIL_FILE = 'thumbnail.jpg';
/** In a live stream's folder while its publisher is gone and ingest waits for a reconnect. */
export const RECONNECTING_MARKER = '.reconnecting';

export class MediaPaths {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'media');
  }

  get streamsRoot(): string {
    return path.join(this.root, 'streams');
  }

  streamDir(streamId: string): string {
    return path.join(this.streamsRoot, streamId);
  }

  /** The folder one publish (one RTMP connection) of a stream is packaged into. */
  publishDir(streamId: string, publishIndex: number): string {
    return path.join(this.streamDir(streamId), publishFolder(publishIndex));
  }

  get videosRoot(): string {
    return path.join(this.root, 'videos');
  }

  videoDir(videoId: string): string {
    return path.join(this.videosRoot, videoId);
  }

  /**
   * Where a video's media is assembled before it is renamed into place: on the same disk, so
   * the rename is atomic and a video folder, once it exists, is complete.
   */
  videoStagingDir(videoId: string): string {
    return path.join(this.stagingRoot, videoId);
  }

  /** The files creators uploaded, kept beside the videos made from them (not served). */
  get originalsRoot(): string {
    return path.join(this.root, 'originals');
  }

  /** The original a video was made from, when it was uploaded. */
  videoOriginal(videoId: string): string {
    return path.join(this.originalsRoot, videoId);
  }

  get stagingRoot(): string {
    return path.join(this.root, 'staging');
  }

  /** The absolute path of a servable file, or undefined when the request names anything else. */
  streamFile(streamId: string, file: string): string | undefined {
    if (!STREAM_ID.test(streamId) || !MEDIA_FILE.test(file)) return undefined;
    return path.join(this.streamDir(streamId), file);
  }

  videoFile(videoId: string, file: string): string | undefined {
    if (!VIDEO_ID.test(videoId) || !MEDIA_FILE.test(file)) return undefined;
    return path.join(this.videoDir(videoId), file);
  }
}

export function publishFolder(publishIndex: number): string {
  return `p${publishIndex}`;
}
