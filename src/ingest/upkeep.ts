// Periodic upkeep of live streams (ingest.ts runs tick() every couple of seconds): noticing a
// stream an operator ended while it was published (its encoder is cut off), viewer counts
// into the database, live thumbnails about every THUMBNAIL_INTERVAL_MS, and a warn line for
// each encoder health warning as it begins (health/health-board.ts).
import type { Logger } from 'pino';
import type { LiveViewers } from '../viewers/live-viewers.ts';
import { isStateConflict } from '../shared/errors.ts';
import type { StreamService } from '../streams/stream.service.ts';
import type { ViewerSamples } from '../streams/viewer-samples.ts';
import type { IngestHealthBoard } from './health/health-board.ts';
import type { ThumbnailBacklog } from '../media/thumbnail-backlog.ts';
import type { LiveThumbnails } from './live-thumbnails.ts';
import type { StreamLifecycle } from './stream-lifecycle.ts';

export interface UpkeepDeps {
  streams: StreamService;
  viewers: LiveViewers;
  logger: Logger;
  lifecycle: StreamLifecycle;
  thumbnails: LiveThumbnails;
  health?: IngestHealthBoard;
  /** Recorded videos whose thumbnail failed at publication, tried again here. */
  thumbnailBacklog?: ThumbnailBacklog;
  /** Viewer counts over time, for the creator's chart (one sample per stream per interval). */
  samples?: ViewerSamples;
}

export class IngestUpkeep {
  private readonly deps: UpkeepDeps;
  /** The viewer count last written per stream, so unchanged counts are not rewritten. */
  private readonly flushedCounts = new Map<string, number>();

  constructor(deps: UpkeepDeps) {
    this.deps = deps;
  }

  async tick(): Promise<void> {
    await this.deps.lifecycle.renewLeases();
    await this.deps.lifecycle.endOrphans();
    await this.stopStreamsEndedElsewhere();
    await this.flushViewerCounts();
    this.refreshThumbnails();
    this.deps.lifecycle.offerTranscodingRoom();
    this.deps.health?.logOnsets(this.deps.logger);
    // Not awaited: a slow ffmpeg must not hold up viewer counts; it never runs twice at once.
    void this.deps.thumbnailBacklog?.retryDue();
  }

  private async stopStreamsEndedElsewhere(): Promise<void> {
    const { streams, logger, lifecycle } = this.deps;
    for (const state of lifecycle.activeStates()) {
      const current = await streams.get(state.streamId).catch((error: unknown) => {
        // Asked again on the next tick; a database that stays unreachable shows in these lines.
        logger.warn(
          { err: error, streamId: state.streamId },
          'could not check whether a live stream was ended',
        );
        return undefined;
      });
      if (current?.status === 'ended') {
        void state.media.enqueue(async () => {
          lifecycle.stopBecauseEnded(state);
        });
      }
    }
  }

  private async flushViewerCounts(): Promise<void> {
    const { streams, viewers, logger, lifecycle } = this.deps;
    const ids = new Set([...lifecycle.streamIds(), ...viewers.streamIds(), ...this.flushedCounts.keys()]);
    for (const id of ids) {
      const state = lifecycle.state(id);
      if (state && !state.active) continue;
      const count = await viewers.count(id);
      if (state) await this.sample(id, count);
      else this.deps.samples?.forget(id);
      if (this.flushedCounts.get(id) === count) {
        if (count === 0 && !state) this.flushedCounts.delete(id);
        continue;
      }
      this.flushedCounts.set(id, count);
      try {
        await streams.setViewerCount(id, count);
      } catch (error) {
        // A stream that is not live (any more) has no viewer count to keep.
        if (!isStateConflict(error)) logger.error({ err: error, streamId: id }, 'viewer count failed');
      }
    }
  }

  /** Where the count is written, a sample of it too: the chart shows what the stream showed. */
  private async sample(id: string, count: number): Promise<void> {
    const { samples, logger } = this.deps;
    if (!samples) return;
    try {
      await samples.offer(id, count);
      await samples.pruneIfDue();
    } catch (error) {
      logger.warn({ err: error, streamId: id }, 'viewer sample failed');
    }
  }

  private refreshThumbnails(): void {
    const { lifecycle, thumbnails } = this.deps;
    for (const state of lifecycle.activeStates()) {
      if (!state.publish || !thumbnails.claimRefresh(state.media)) continue;
      void state.media.enqueue(() => thumbnails.take(state.media));
    }
  }
}
