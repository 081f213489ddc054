// The media of one live stream across its publishes: each publish's segments, the stream's
// shape (one copied playlist, or a ladder of renditions), its folder, and the queue every step
// that writes them runs on, so the playlists are never written by two steps at once. It knows
// nothing of the stream's row or its life (src/ingest/ holds those).
import type { Logger } from 'pino';
import type { HlsSegment } from '../hls/hls-playlist.ts';
import type { MediaPaths } from '../media/media-paths.ts';
import type { StreamLadder } from '../transcode/stream-ladder.ts';
import { StreamFolder } from './stream-folder.ts';

export type LatencyMode = 'normal' | 'low' | 'realtime';

export interface LiveStreamOptions {
  streamId: string;
  latencyMode: LatencyMode;
  paths: MediaPaths;
  ffprobePath: string;
  /** An encoded rung's configured peak (bits per second), for its master entry. */
  rungPeakBps: (rung: string) => number | undefined;
  logger: Logger;
}

export class LiveStream {
  readonly streamId: string;
  readonly latencyMode: LatencyMode;
  readonly folder: StreamFolder;
  /** Segments of each publish, URIs relative to the stream's folder. */
  readonly publishes: HlsSegment[][] = [];
  /**
   * Set by the stream's first publish (src/transcode/stream-ladder.ts): `ladder` with
   * renditions, `single` for one copied playlist; `undecided` before.
   */
  layout: 'undecided' | 'single' | 'ladder' = 'undecided';
  ladder: StreamLadder | undefined;
  /** When the live thumbnail was last taken or tried (the injected clock's time). */
  thumbnailTakenAt = 0;
  private readonly options: LiveStreamOptions;
  private queue: Promise<void> = Promise.resolve();

  constructor(options: LiveStreamOptions) {
    this.options = options;
    this.streamId = options.streamId;
    this.latencyMode = options.latencyMode;
    this.folder = new StreamFolder(options.paths, options.streamId);
  }

  /** Runs `step` after every step queued before it; a failing step is logged, not fatal. */
  enqueue(step: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(step).catch((error: unknown) => {
      this.options.logger.error({ err: error, streamId: this.streamId }, 'ingest step failed');
    });
    return this.queue;
  }

  /** The next publish's index: its folder is p<index>/. */
  addPublish(): number {
    this.publishes.push([]);
    return this.publishes.length - 1;
  }

  hasSegments(): boolean {
    return this.publishes.some((publish) => publish.length > 0);
  }

  latestSegment(): HlsSegment | undefined {
    for (let i = this.publishes.length - 1; i >= 0; i--) {
      const segment = this.publishes[i]?.at(-1);
      if (segment) return segment;
    }
    return undefined;
  }

  /** The stream's playlists; false while a ladder stream's master is not there yet. */
  async writePlaylists(ended: boolean): Promise<boolean> {
    if (!this.ladder) {
      await this.folder.writePlaylist(this.publishes, ended);
      return true;
    }
    return this.folder.writeLadderPlaylists(
      this.publishes,
      this.ladder,
      ended,
      this.options.ffprobePath,
      this.options.rungPeakBps,
    );
  }
}
