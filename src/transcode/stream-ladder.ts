// A live stream's renditions across its publishes. The stream's first publish decides its
// shape for good: when its picture has rungs below it, it is a ladder stream (a master
// index.m3u8, one media playlist per rendition at the stream's root), whether the CPU budget
// admitted them at once or not (then they are planned: filled with the source until the
// publish gains them); without rungs it keeps the single playlist of a copy-only stream. A
// later publish of a ladder stream makes the same rungs when it may (budget, picture size); a
// rung a publish lacks is filled, for that publish, with the publish's source segments, so
// every rendition's playlist stays whole and the discontinuity between publishes is where
// players expect one.
import type { HlsSegment } from '../hls/hls-playlist.ts';

export interface PictureSize {
  width: number;
  height: number;
}

export class StreamLadder {
  /** The encoded rungs (`720p`...), highest first, as the first publish made them. */
  readonly rungs: readonly string[];
  /** Per rung, per publish index: its segments (URIs relative to the stream's folder). */
  private readonly segments = new Map<string, (HlsSegment[] | undefined)[]>();
  /** Written once every rendition of the first publish has a segment. */
  masterWritten = false;
  /** Each rung's picture as planned, for a master written before the rung was encoded. */
  private readonly sizes: ReadonlyMap<string, PictureSize>;

  constructor(rungs: readonly string[], sizes: ReadonlyMap<string, PictureSize> = new Map()) {
    this.rungs = rungs;
    this.sizes = sizes;
    for (const rung of rungs) this.segments.set(rung, []);
  }

  plannedSize(rung: string): PictureSize | undefined {
    return this.sizes.get(rung);
  }

  /** The rungs some publish has encoded segments of (what a recording keeps). */
  madeRungs(): string[] {
    return this.rungs.filter((rung) => this.segments.get(rung)?.some((list) => (list?.length ?? 0) > 0));
  }

  /** Publish `index` makes `rung` (an empty list until its first segment). */
  expect(rung: string, index: number): void {
    const list = this.segments.get(rung);
    if (list && list[index] === undefined) list[index] = [];
  }

  set(rung: string, index: number, segments: HlsSegment[]): void {
    const list = this.segments.get(rung);
    if (list) list[index] = segments;
  }

  /** What `rung` made in publish `index`, undefined when that publish does not make it. */
  made(rung: string, index: number): HlsSegment[] | undefined {
    return this.segments.get(rung)?.[index];
  }

  /**
   * The rung's playlist content: its own segments where its publishes made it, the source's
   * elsewhere. `ended`: a publish whose rung made nothing (too short to finish a segment) is
   * filled with its source too.
   */
  publishesOf(rung: string, source: readonly HlsSegment[][], ended: boolean): HlsSegment[][] {
    return source.map((sourceSegments, index) => {
      const own = this.made(rung, index);
      if (own === undefined || (ended && own.length === 0 && sourceSegments.length > 0))
        return sourceSegments;
      return own;
    });
  }
}

/** The media playlist of a rendition at a stream's or video's root. */
export function renditionIndex(name: string): string {
  return `${name}.m3u8`;
}
