// What a rendition's first segment really holds (ffprobe), for its master playlist entry:
// the copied source's profile, level, size and frame rate are the publisher's, so they are
// read from the media rather than assumed.
import fs from 'node:fs/promises';
import { runTool, localInput } from './ffmpeg.ts';
import type { HlsSegment } from '../hls/hls-playlist.ts';
import { audioCodecString, avcCodecString, type VariantInfo } from '../hls/master-playlist.ts';

export interface RenditionFacts {
  width: number;
  height: number;
  frameRate: number | undefined;
  codecs: string;
}

export async function probeRendition(ffprobePath: string, segmentFile: string): Promise<RenditionFacts> {
  const { stdout } = await runTool(
    ffprobePath,
    ['-v', 'error', '-print_format', 'json', '-show_streams', '-i', localInput(segmentFile)],
    { timeoutMs: 30_000 },
  );
  const parsed = JSON.parse(stdout) as {
    streams?: {
      codec_type?: string;
      codec_name?: string;
      profile?: string;
      level?: number;
      width?: number;
      height?: number;
      avg_frame_rate?: string;
      r_frame_rate?: string;
    }[];
  };
  const video = parsed.streams?.find((stream) => stream.codec_type === 'video');
  const audio = parsed.streams?.find((stream) => stream.codec_type === 'audio');
  if (!video?.width || !video.height) throw new Error(`no video picture in ${segmentFile}`);
  const codecs = [
    avcCodecString(video.profile, video.level),
    audioCodecString(audio?.codec_name, audio?.profile),
  ]
    .filter((codec) => codec !== undefined)
    .join(',');
  return {
    width: video.width,
    height: video.height,
    frameRate: frameRate(video.avg_frame_rate) ?? frameRate(video.r_frame_rate),
    codecs,
  };
}

function frameRate(ratio: string | undefined): number | undefined {
  const match = /^(\d+)\/(\d+)$/.exec(ratio ?? '');
  if (!match || Number(match[2]) === 0) return undefined;
  const rate = Number(match[1]) / Number(match[2]);
  return rate > 0 && rate <= 240 ? rate : undefined;
}

/** Peak and mean bits per second of segments on disk (`fileOf` finds each one's file). */
export async function measureBandwidth(
  segments: readonly HlsSegment[],
  fileOf: (segment: HlsSegment) => string,
): Promise<{ bandwidth: number; averageBandwidth: number }> {
  let peak = 0;
  let bits = 0;
  let seconds = 0;
  for (const segment of segments) {
    const size = (await fs.stat(fileOf(segment))).size * 8;
    bits += size;
    seconds += segment.duration;
    // A very short last segment says little about the rate: it is counted in the mean only.
    if (segment.duration >= 0.5) peak = Math.max(peak, size / segment.duration);
  }
  const averageBandwidth = seconds > 0 ? bits / seconds : 0;
  return { bandwidth: Math.max(peak, averageBandwidth), averageBandwidth };
}

export function variantOf(
  uri: string,
  facts: RenditionFacts,
  bandwidth: { bandwidth: number; averageBandwidth: number },
): VariantInfo {
  return { uri, ...facts, ...bandwidth };
}
