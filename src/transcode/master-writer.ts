// Builds the master playlist of a stream or video with renditions from the media itself: each
// rendition's picture, frame rate and codecs from ffprobe of its first segment (the copied
// source's are the publisher's), its bandwidth from the sizes of its segments on disk.
import path from 'node:path';
import type { HlsSegment } from '../hls/hls-playlist.ts';
import { avcCodecString, renderMasterPlaylist, type VariantInfo } from '../hls/master-playlist.ts';
import { measureBandwidth, probeRendition, type RenditionFacts } from '../ffmpeg/rendition-probe.ts';
import { renditionIndex, type PictureSize } from './stream-ladder.ts';

export interface MasterEntry {
  /** `source`, `720p`...: the media playlist is `<name>.m3u8` beside the master. */
  name: string;
  /** URIs relative to `rootDir`. */
  segments: readonly HlsSegment[];
  /** An encoded rung's configured peak (bits per second); its segments may not have shown it yet. */
  peakBps?: number | undefined;
  /**
   * A rung not encoded yet (the publish gains it later): its segments are the source's, so its
   * entry is described from the plan: this picture, the source's frame rate and audio, x264's
   * High profile at the level the picture needs, and the configured bitrate.
   */
  planned?: PictureSize | undefined;
}

/** Audio beside a planned rung's video, until its segments say (AAC at the usual rate). */
const PLANNED_AUDIO_BPS = 128_000;

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
    if (entry.planned) {
      variants.push(plannedVariant(entry, entry.planned, facts));
      continue;
    }
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

function plannedVariant(entry: MasterEntry, size: PictureSize, source: RenditionFacts): VariantInfo {
  const audio = source.codecs.split(',').filter((codec) => !codec.startsWith('avc1.'));
  const video = avcCodecString('High', avcLevel(size, source.frameRate ?? 30));
  const videoBps = entry.peakBps ?? 0;
  const bandwidth = videoBps + (audio.length > 0 ? PLANNED_AUDIO_BPS : 0);
  return {
    uri: renditionIndex(entry.name),
    width: size.width,
    height: size.height,
    frameRate: source.frameRate,
    codecs: [video, ...audio].join(','),
    bandwidth,
    averageBandwidth: Math.round(bandwidth / 1.1),
  };
}

/** The lowest H.264 level (×10) whose macroblock rates hold the picture (ITU-T H.264 table A-1). */
export function avcLevel(size: PictureSize, frameRate: number): number {
  const frameMbs = Math.ceil(size.width / 16) * Math.ceil(size.height / 16);
  const levels: [number, number, number][] = [
    [30, 1620, 40_500],
    [31, 3600, 108_000],
    [32, 5120, 216_000],
    [40, 8192, 245_760],
    [42, 8704, 522_240],
    [50, 22_080, 589_824],
    [51, 36_864, 983_040],
  ];
  for (const [level, maxFrame, maxRate] of levels) {
    if (frameMbs <= maxFrame && frameMbs * frameRate <= maxRate) return level;
  }
  return 52;
}
