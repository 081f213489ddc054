// After a restart: a stream that was live with media on disk gets its reconnect window, so an
// encoder that reconnects continues it and one that does not ends it (and its recording
// becomes a video as usual). A stream whose end was under way is finished, its recording
// included (recording-recovery.ts).
import fs from 'node:fs/promises';
import type { Logger } from 'pino';
import type { MediaPaths } from '../media/media-paths.ts';
import { AppError } from '../shared/errors.ts';
import type { StreamService } from '../streams/stream.service.ts';
import type { StreamRow } from '../streams/stream.table.ts';
import type { VideoMediaDeps } from '../media/video-publishing.ts';
import { finishInterruptedEnd } from './recording-recovery.ts';
import { StreamFolder } from '../live/stream-folder.ts';
import type { StreamLifecycle } from './stream-lifecycle.ts';
import type { StreamLeases } from './stream-leases.ts';

export interface RecoveryDeps {
  streams: StreamService;
  paths: MediaPaths;
  logger: Logger;
  lifecycle: Pick<StreamLifecycle, 'state' | 'adopt'>;
  /** Many ingest processes: a stream another process holds now is its, not resumed here. */
  leases?: Pick<StreamLeases, 'acquire'> | undefined;
  /** What finishing an interrupted end publishes recordings with; without it those are left. */
  recordings?: VideoMediaDeps;
}

export async function adoptInterruptedStreams(deps: RecoveryDeps): Promise<void> {
  const { paths, logger, lifecycle } = deps;
  let entries: string[];
  try {
    entries = await fs.readdir(paths.streamsRoot);
  } catch (error) {
    // No folder yet: nothing was ever published with this DATA_DIR.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    logger.error({ err: error, dir: paths.streamsRoot }, 'could not look for streams a restart interrupted');
    return;
  }
  for (const id of entries) {
    if (!id.startsWith('str_') || lifecycle.state(id)) continue;
    // One stream's trouble (an unreadable folder, a database error) is logged and left for the
    // operator; the others are still resumed and the service starts.
    try {
      await resume(deps, id);
    } catch (error) {
      logger.error({ err: error, streamId: id }, 'could not resume a stream interrupted by a restart');
    }
  }
}

async function resume(deps: RecoveryDeps, id: string): Promise<void> {
  const { paths, streams, logger, lifecycle } = deps;
  const folder = new StreamFolder(paths, id);
  const ended = (await folder.readPlaylist()).ended;
  if (ended && (!deps.recordings || (await folder.isRecorded()))) return;
  let stream: StreamRow;
  try {
    stream = await streams.get(id);
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'resource_not_found')) throw error;
    // Media of a stream no database row knows (a database restored from an older backup).
    logger.warn({ streamId: id, dir: folder.dir }, 'stream folder without a stream; left as it is');
    return;
  }
  if (ended && deps.recordings) {
    await finishInterruptedEnd({ streams, logger, recordings: deps.recordings }, folder, stream);
    return;
  }
  if (stream.status !== 'live') return;
  if (deps.leases && !(await deps.leases.acquire(id))) {
    logger.info({ streamId: id }, 'stream interrupted by a restart is held by another ingest process now');
    return;
  }
  const publishes = await folder.readPublishes();
  const ladder = await folder.readLadder(publishes.length);
  logger.info({ streamId: id }, 'resuming a stream interrupted by a restart');
  lifecycle.adopt(stream, publishes, ladder);
}
