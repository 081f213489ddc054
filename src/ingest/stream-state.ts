// What ingest knows about one stream between its first publish and its end. All work for one
// stream runs in order on its queue, so the playlist and the stream's row are never written by
// two steps at once.
import type { Logger } from 'pino';
import type { HlsSegment } from '../hls/hls-playlist.ts';
import type { LatencyMode, StreamRow } from '../streams/stream.table.ts';
import type { StreamLadder } from '../transcode/stream-ladder.ts';
import type { HlsPackager } from '../live/hls-packager.ts';
import type { PublishConnection } from '../rtmp/rtmp-server.ts';

export class StreamState {
  readonly streamId: string;
  /** Segments of each publish, URIs relative to the stream's folder. */
  readonly publishes: HlsSegment[][] = [];
  live: boolean;
  record: boolean;
  /** Chooses each publish's segment length. */
  readonly latencyMode: LatencyMode;
  publisher: PublishConnection | undefined;
  readonly packagers = new Set<HlsPackager>();
  reconnectTimer: NodeJS.Timeout | undefined;
  finishing = false;
  /** Inside a reconnect window (the watch page says so). */
  reconnecting = false;
  /**
   * Set by the stream's first publish (src/transcode/stream-ladder.ts): `ladder` with
   * renditions, `single` for one copied playlist; `undecided` before.
   */
  layout: 'undecided' | 'single' | 'ladder' = 'undecided';
  ladder: StreamLadder | undefined;
  /** When the live thumbnail was last taken or tried (the injected clock's time). */
  thumbnailTakenAt = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(stream: StreamRow) {
    this.streamId = stream.id;
    this.live = stream.status === 'live';
    this.record = stream.record === 1;
    this.latencyMode = stream.latency_mode;
  }

  /** Runs `step` after every step queued before it; a failing step is logged, not fatal. */
  enqueue(step: () => Promise<void>, logger: Logger): Promise<void> {
    this.queue = this.queue.then(step).catch((error: unknown) => {
      logger.error({ err: error, streamId: this.streamId }, 'ingest step failed');
    });
    return this.queue;
  }

  /** Live and taking media: what upkeep looks after. */
  get active(): boolean {
    return this.live && !this.finishing;
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
}
