// When a recorded stream ends, its segments become an on-demand video without re-encoding:
// the segments are hard-linked (copied where the disk cannot link) into the video's folder
// under a finished VOD playlist, then published like any other video. Audio-only and
// video-only recordings are published the same way (an audio-only one gets a waveform poster).
// A stream with renditions keeps every one: each gets its VOD playlist and the video's
// index.m3u8 is a master naming them, so the video plays adaptively the moment it is published.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { HlsSegment } from '../hls/hls-playlist.ts';
import { renderPlaylist, writeFileAtomic } from '../hls/hls-playlist.ts';
import { PLAYLIST_FILE } from '../media/media-paths.ts';
import { publishVideoMedia, type VideoMediaDeps } from '../media/video-publishing.ts';
import type { StreamRow } from '../streams/stream.table.ts';
import { ffprobePathFor } from '../ffmpeg/ffmpeg.ts';
import { SOURCE_RENDITION } from '../transcode/ladder.ts';
import { buildMasterPlaylist } from '../transcode/master-writer.ts';
import { renditionIndex, type StreamLadder } from '../transcode/stream-ladder.ts';
import type { VideoRow } from '../videos/video.table.ts';
import type { LiveStream } from '../live/live-stream.ts';
import type { Logger } from 'pino';

/** Tries at publishing a recording before it is left to the next start's recovery. */
export const RECORDING_ATTEMPTS = 3;
const RECORDING_RETRY_MS = 1000;

/**
 * The recording is what must not be lost: a failed attempt is logged at error with the
 * stream id and tried again; after the last one (or when the process is closing), restart
 * recovery tries at the next start (the folder's playlist is finished and the stream has no
 * video). True once the recording is published.
 */
export async function recordWithRetries(
  deps: VideoMediaDeps & { logger: Logger },
  stream: StreamRow,
  media: LiveStream,
  closing: () => boolean,
): Promise<boolean> {
  const { logger } = deps;
  for (let attempt = 1; ; attempt++) {
    try {
      const video = await recordStreamAsVideo(deps, stream, media.publishes, media.ladder);
      logger.info({ streamId: stream.id, videoId: video.id }, 'recording published as a video');
      await media.folder.markRecorded();
      return true;
    } catch (error) {
      const last = attempt >= RECORDING_ATTEMPTS || closing();
      logger.error(
        { err: error, streamId: stream.id, attempt, of: RECORDING_ATTEMPTS },
        last ? 'recording failed; it is tried again at the next start' : 'recording failed; retrying',
      );
      if (last) return false;
      await new Promise((resolve) => setTimeout(resolve, RECORDING_RETRY_MS * attempt));
    }
  }
}

export async function recordStreamAsVideo(
  deps: VideoMediaDeps,
  stream: StreamRow,
  publishes: HlsSegment[][],
  ladder?: StreamLadder,
): Promise<VideoRow> {
  const draft = await deps.videos.createDraft({
    creatorId: stream.creator_id,
    title: stream.title,
    description: stream.description,
    category: stream.category,
    privacy: stream.privacy,
    sourceStreamId: stream.id,
  });
  return finishRecording(deps, stream, draft, publishes, ladder);
}

/** Makes `draft` (a video of `stream`) from the stream's segments and publishes it. */
export async function finishRecording(
  deps: VideoMediaDeps,
  stream: StreamRow,
  draft: VideoRow,
  publishes: HlsSegment[][],
  streamLadder?: StreamLadder,
): Promise<VideoRow> {
  const streamDir = deps.paths.streamDir(stream.id);
  // Rungs the stream planned but never encoded (no CPU room, ever) would only repeat the source.
  const rungs = streamLadder?.madeRungs() ?? [];
  const ladder = rungs.length > 0 ? streamLadder : undefined;
  return publishVideoMedia(
    deps,
    draft,
    async (stagingDir) => {
      const renditions = [
        { name: SOURCE_RENDITION, publishes },
        ...rungs.map((rung) => ({
          name: rung,
          publishes: ladder?.publishesOf(rung, publishes, true) ?? [],
        })),
      ];
      const linked = new Set<string>();
      for (const segment of renditions.flatMap((rendition) => rendition.publishes.flat())) {
        if (linked.has(segment.uri)) continue;
        linked.add(segment.uri);
        const target = path.join(stagingDir, segment.uri);
        await fs.mkdir(path.dirname(target), { recursive: true });
        await linkOrCopy(path.join(streamDir, segment.uri), target);
      }
      if (!ladder) {
        await writeFileAtomic(
          path.join(stagingDir, PLAYLIST_FILE),
          renderPlaylist({ publishes, type: 'VOD', ended: true }),
        );
        return;
      }
      for (const rendition of renditions) {
        await writeFileAtomic(
          path.join(stagingDir, renditionIndex(rendition.name)),
          renderPlaylist({ publishes: rendition.publishes, type: 'VOD', ended: true }),
        );
      }
      const master = await buildMasterPlaylist(
        ffprobePathFor(deps.ffmpegPath),
        stagingDir,
        renditions.map((rendition) => ({ name: rendition.name, segments: rendition.publishes.flat() })),
      );
      await writeFileAtomic(path.join(stagingDir, PLAYLIST_FILE), master);
    },
    { streamId: stream.id },
  );
}

async function linkOrCopy(source: string, target: string): Promise<void> {
  try {
    await fs.link(source, target);
  } catch {
    // Expected where the folders are on different file systems (EXDEV) or the file system has
    // no hard links: a copy does the same job, and a copy that fails is the error reported.
    await fs.copyFile(source, target);
  }
}
