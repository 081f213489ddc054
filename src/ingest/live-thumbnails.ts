// A live stream's thumbnail: a frame of its latest segment (a waveform poster when it has only
// audio), taken when the stream goes live and then about every `intervalMs` while it is
// published. A failure never holds up the stream: it is logged at error and tried again.
import type { Logger } from 'pino';
import type { MediaPaths } from '../media/media-paths.ts';
import { makeThumbnail } from '../media/poster.ts';
import type { Clock } from '../shared/clock.ts';
import type { StreamService } from '../streams/stream.service.ts';
import type { LiveStream } from '../live/live-stream.ts';

export interface LiveThumbnailDeps {
  streams: StreamService;
  paths: MediaPaths;
  clock: Clock;
  logger: Logger;
  ffmpegPath: string;
  intervalMs: number;
}

export class LiveThumbnails {
  private readonly deps: LiveThumbnailDeps;

  constructor(deps: LiveThumbnailDeps) {
    this.deps = deps;
  }

  /**
   * True when the stream's thumbnail is older than the interval; the attempt is counted from
   * now, so a thumbnail already queued is not queued again by the next tick.
   */
  claimRefresh(state: LiveStream): boolean {
    const now = this.deps.clock.now();
    if (now - state.thumbnailTakenAt < this.deps.intervalMs) return false;
    state.thumbnailTakenAt = now;
    return true;
  }

  async take(state: LiveStream): Promise<void> {
    const segment = state.latestSegment();
    if (!segment) return;
    const folder = state.folder;
    try {
      await makeThumbnail(this.deps.ffmpegPath, folder.file(segment), folder.thumbnail);
      const now = this.deps.clock.now();
      state.thumbnailTakenAt = now;
      await this.deps.streams.recordThumbnail(state.streamId, now);
    } catch (error) {
      // A missed thumbnail is retried on the next tick; it never holds up the stream.
      state.thumbnailTakenAt = this.deps.clock.now();
      this.deps.logger.error({ err: error, streamId: state.streamId }, 'thumbnail failed; retrying later');
    }
  }
}
