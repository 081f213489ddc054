// What a watch page shows: a stream or a video, its creator's name, its status and how to play
// it. Anyone with the link may watch (private means unlisted); a video still being processed
// has no page yet.
import fs from 'node:fs/promises';
import path from 'node:path';
import { findUser } from '../accounts/account.repository.ts';
import type { Db } from '../db/database.ts';
import { toIso } from '../shared/clock.ts';
import type { PublicUrls } from '../shared/public-urls.ts';
import { findShownStream } from '../streams/stream.repository.ts';
import { findMediaFacts, findShownVideo } from '../videos/video.repository.ts';
import type { LiveOrigins } from './live-origin.ts';
import { PLAYLIST_FILE, RECONNECTING_MARKER, type MediaPaths } from './media-paths.ts';

export interface WatchInfo {
  kind: 'stream' | 'video';
  id: string;
  title: string;
  description: string | null;
  creator: { id: string; name: string };
  /** Private means unlisted: the page plays for anyone with its link, but oEmbed answers only for public ones. */
  privacy: 'public' | 'private';
  /** A stream's status, or `published` for a video. */
  status: 'scheduled' | 'live' | 'ended' | 'published';
  /**
   * A live stream whose publisher dropped and may come back (the reconnect window): the page
   * says so instead of showing a frozen frame as live. False during the short grace after a
   * clean stop (Stop Streaming): nobody lost a connection, and the stream stays live until it
   * ends. Always false for a video.
   */
  reconnecting: boolean;
  viewer_count: number | null;
  peak_viewer_count: number | null;
  duration_seconds: number | null;
  started_at: string | null;
  /** The HLS playlist, once media exists. */
  playback_url: string | null;
  thumbnail_url: string | null;
  /** A stream's latency mode, which tunes the player (public/watch.js playerConfigFor); null for a video. */
  latency_mode: 'normal' | 'low' | 'realtime' | null;
}

export class WatchService {
  private readonly db: Db;
  private readonly urls: PublicUrls;
  private readonly paths: MediaPaths;

  /** Many ingest processes: where a live stream not on this disk is, and whether it waits. */
  private readonly live: LiveOrigins | undefined;

  constructor(db: Db, urls: PublicUrls, paths: MediaPaths, live?: LiveOrigins) {
    this.db = db;
    this.urls = urls;
    this.paths = paths;
    this.live = live;
  }

  async find(id: string): Promise<WatchInfo | undefined> {
    if (id.startsWith('str_')) return this.stream(id);
    if (id.startsWith('vid_')) return this.video(id);
    return undefined;
  }

  private async stream(id: string): Promise<WatchInfo | undefined> {
    const stream = await findShownStream(this.db, id);
    if (!stream) return undefined;
    let [hasMedia, reconnecting] = await Promise.all([
      exists(this.paths.streamFile(id, PLAYLIST_FILE)),
      stream.status === 'live' && exists(path.join(this.paths.streamDir(id), RECONNECTING_MARKER)),
    ]);
    if (!hasMedia && this.live && stream.status === 'live') {
      // Held by another machine (streamed through from it), or by none right now: its holder
      // died and the encoder has not reconnected elsewhere yet. Either way the URL stays.
      const holder = await this.live.locate(id);
      hasMedia = stream.started_at !== null;
      reconnecting = holder === undefined || holder.waiting;
    }
    return {
      kind: 'stream',
      id,
      title: stream.title,
      description: stream.description,
      creator: await this.creator(stream.creator_id),
      privacy: stream.privacy,
      status: stream.status,
      reconnecting,
      viewer_count: stream.status === 'live' ? (stream.viewer_count ?? 0) : null,
      peak_viewer_count: stream.peak_viewer_count,
      duration_seconds: null,
      started_at: toIso(stream.started_at),
      playback_url: hasMedia ? this.urls.streamPlayback(id) : null,
      thumbnail_url: stream.thumbnail_at === null ? null : this.urls.streamThumbnail(id, stream.thumbnail_at),
      latency_mode: stream.latency_mode,
    };
  }

  private async video(id: string): Promise<WatchInfo | undefined> {
    const video = await findShownVideo(this.db, id);
    if (!video || video.published_at === null) return undefined;
    // On local disk, or moved to the object store (MEDIA_STORAGE=s3, src/media/video-store.ts).
    const facts = await findMediaFacts(this.db, id);
    const hasMedia =
      (await exists(this.paths.videoFile(id, PLAYLIST_FILE))) || facts?.media_location === 'object';
    // A video whose picture could not be made yet (thumbnail-backlog.ts retries) names no image:
    // the page, og:image and oEmbed would otherwise point at a 404. The version busts caches.
    const thumbnailAt = hasMedia ? (facts?.thumbnail_at ?? null) : null;
    return {
      kind: 'video',
      id,
      title: video.title,
      description: video.description,
      creator: await this.creator(video.creator_id),
      privacy: video.privacy,
      status: 'published',
      reconnecting: false,
      viewer_count: null,
      peak_viewer_count: null,
      duration_seconds: video.duration_seconds,
      started_at: null,
      playback_url: hasMedia ? this.urls.videoPlayback(id) : null,
      thumbnail_url: thumbnailAt === null ? null : `${this.urls.videoThumbnail(id)}?v=${thumbnailAt}`,
      latency_mode: null,
    };
  }

  private async creator(userId: string): Promise<{ id: string; name: string }> {
    const user = await findUser(this.db, userId);
    return { id: userId, name: user?.name ?? userId };
  }
}

/** A file that cannot be read shows when a player fetches it (media-files.ts logs that). */
async function exists(file: string | undefined): Promise<boolean> {
  if (file === undefined) return false;
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}
