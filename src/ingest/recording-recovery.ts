// After a restart: a stream whose end was under way when the process stopped. Its folder's
// playlist is finished (the first step of an end), but the stream may still be live in the
// database, and its recording may be missing or a draft nobody will publish. Each is finished
// here, as the end would have, so no recording stays hidden. Once done (or when there is
// nothing to do) the folder is marked, so later starts skip it without asking the database.
import type { Logger } from 'pino';
import type { VideoMediaDeps } from '../media/video-publishing.ts';
import { isStateConflict } from '../shared/errors.ts';
import type { StreamService } from '../streams/stream.service.ts';
import type { StreamRow } from '../streams/stream.table.ts';
import { finishRecording, recordStreamAsVideo } from './recording.ts';
import type { StreamFolder } from '../live/stream-folder.ts';

export interface RecordingRecoveryDeps {
  streams: StreamService;
  logger: Logger;
  recordings: VideoMediaDeps;
}

/** `folder`'s playlist is finished and `stream` is its row: end it and publish its recording. */
export async function finishInterruptedEnd(
  deps: RecordingRecoveryDeps,
  folder: StreamFolder,
  found: StreamRow,
): Promise<void> {
  const { streams, logger, recordings } = deps;
  let stream = found;
  if (stream.status === 'live') {
    // Stopped between finishing the playlist and ending the stream.
    try {
      stream = await streams.end(stream.id);
    } catch (error) {
      if (!isStateConflict(error)) throw error;
      stream = await streams.get(stream.id);
    }
    logger.info({ streamId: stream.id }, 'ended a stream a restart interrupted at its end');
  }
  if (stream.status !== 'ended') return;
  if (stream.record !== 1) {
    await folder.removeAllButThumbnail();
    await folder.markRecorded();
    return;
  }
  const videos = await recordings.videos.fromStream(stream.id);
  if (videos.some((video) => video.published_at !== null)) {
    await folder.markRecorded();
    return;
  }
  // The oldest draft is finished; any other (a retry's, left by the same stop) is dropped.
  const [draft, ...extra] = videos;
  for (const other of extra) await recordings.videos.discardDraft(other.id);
  const publishes = await folder.readPublishes();
  const ladder = await folder.readLadder(publishes.length);
  const video = draft
    ? await finishRecording(recordings, stream, draft, publishes, ladder)
    : await recordStreamAsVideo(recordings, stream, publishes, ladder);
  logger.info(
    { streamId: stream.id, videoId: video.id, draftFound: draft !== undefined },
    'recording a restart interrupted published as a video',
  );
  await folder.markRecorded();
}
