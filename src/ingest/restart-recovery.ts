// After a restart: a stream that was live with media on disk gets its reconnect window, so an
// encoder that reconnects continues it and one that does not ends it (and its recording
// becomes a video as usual).
import fs from 'node:fs/promises';
import type { Logger } from 'pino';
import type { MediaPaths } from '../media/media-paths.ts';
import type { StreamService } from '../streams/stream.service.ts';
import type { StreamRow } from '../streams/stream.table.ts';
import { StreamFolder } from './stream-folder.ts';
import type { StreamLifecycle } from './stream-lifecycle.ts';

export interface RecoveryDeps {
  streams: StreamService;
  paths: MediaPaths;
  logger: Logger;
  lifecycle: Pick<StreamLifecycle, 'state' | 'adopt'>;
}

export async function adoptInterruptedStreams(deps: RecoveryDeps): Promise<void> {
  const { paths, streams, logger, lifecycle } = deps;
  let entries: string[];
  try {
    entries = await fs.readdir(paths.streamsRoot);
  } catch {
    return;
  }
  for (const id of entries) {
    if (!id.startsWith('str_') || lifecycle.state(id)) continue;
    const folder = new StreamFolder(paths, id);
    if ((await folder.readPlaylist()).ended) continue;
    let stream: StreamRow;
    try {
      stream = await streams.get(id);
    } catch {
      continue;
    }
    if (stream.status !== 'live') continue;
    const publishes = await folder.readPublishes();
    logger.info({ streamId: id }, 'resuming a stream interrupted by a restart');
    lifecycle.adopt(stream, publishes);
  }
}
