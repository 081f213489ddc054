// Builds the master playlist of a stream or video with renditions from the media itself: each
// rendition's picture, frame rate and codecs from ffprobe of its first segment (the copied
// source's are the publisher's), its bandwidth from the sizes of its segments on disk.
import path from 'node:path';
import type { HlsSegment } from '../hls/hls-playlist.ts';
import { renderMasterPlaylist, type VariantInfo } from '../hls/master-playlist.ts';
import { measureBandwidth, probeRendition } from '../ffmpeg/rendition-probe.ts';
import { renditionIndex } from './stream-ladder.ts';

export interface MasterEntry {
  /** `source`, `720p`...: the media playlist is `<name>.m3u8` beside the master. */
  name: string;
  /** URIs relative to `rootDir`. */
  segments: readonly HlsSegment[];
  /** An encoded rung's configured peak (bits per second); its segments may not have shown it yet. */
  peakBps?: number | undefined;
}

export async function buildMasterPlaylist(
  ffprobePath: string,
  rootDir: string,
  entries: readonly MasterEntry[],
): Promise<string> {
  const variants: VariantInfo[] = [];
  for (const entry of entries) {
    const first = entry.segments[0];
    if (!first) continue;
    const fileOf = (segment: HlsSegment) => path.join(rootDir, segment.uri);
    const facts = await probeRendition(ffprobePath, fileOf(first));
    const measured = await measureBandwidth(entry.segments, fileOf);
    variants.push({
      uri: renditionIndex(entry.name),
      ...facts,
      bandwidth: Math.max(measured.bandwidth, entry.peakBps ?? 0),
      averageBandwidth: measured.averageBandwidth,
    });
  }
  if (variants.length === 0) throw new Error('no rendition has a segment');
  return renderMasterPlaylist(variants);
}
