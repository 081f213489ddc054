// The adaptive-bitrate ladder: which renditions a live publish (or an imported video) gets,
// and the one ffmpeg command that makes them all. The source is kept by stream copy (no
// quality lost, no CPU spent); each lower rung is encoded from the decoded source with its
// keyframes forced where the source has them, so every rendition is cut at the same instants
// and a player switches between them without a stall.
import path from 'node:path';
import type { ProcReader } from './machine-load.ts';

export type TranscodeMode = 'auto' | 'off';

/** One encoded rung: its picture height and video bitrate. */
export interface Rung {
  height: number;
  videoKbps: number;
}

export interface TranscodeConfig {
  /** TRANSCODE: `off` packages by stream copy only, as before the ladder existed. */
  mode: TranscodeMode;
  /** TRANSCODE_LADDER, highest first. */
  rungs: Rung[];
  /** TRANSCODE_PRESET: x264's speed/quality trade-off for every rung. */
  preset: string;
  /** TRANSCODE_CPU_CORES: the cores transcoding may count on (the machine's unless set). */
  cpuCores: number;
  /** TRANSCODE_HEADROOM_PERCENT: share of those cores kept free for copy-only streams and the API. */
  headroomPercent: number;
  /**
   * Media seconds a transcoder may fall behind before rungs are dropped (live-ladder.ts's
   * MAX_LAG_SECONDS unless set). Not a variable: tests set it to 0 to force the hand-over.
   */
  maxLagSeconds?: number;
  /**
   * Reads /proc for the CPU budget (the real files unless set). Not a variable: tests give one
   * that shows the machine as only their own processes use it.
   */
  procReader?: ProcReader;
}

export const DEFAULT_LADDER = '720:2800,480:1400,360:800';
export const X264_PRESETS = [
  'ultrafast',
  'superfast',
  'veryfast',
  'faster',
  'fast',
  'medium',
  'slow',
  'slower',
  'veryslow',
] as const;

/** `720:2800,480:1400` (height:kb/s, comma-separated), or undefined when malformed. */
export function parseLadder(text: string): Rung[] | undefined {
  const rungs: Rung[] = [];
  for (const part of text.split(',')) {
    const match = /^(\d{2,4}):(\d{2,6})$/.exec(part.trim());
    if (!match) return undefined;
    const height = Number(match[1]);
    const videoKbps = Number(match[2]);
    // Even heights only: H.264 with 4:2:0 chroma cannot have odd dimensions.
    if (height < 90 || height > 4320 || height % 2 !== 0 || videoKbps < 50) return undefined;
    rungs.push({ height, videoKbps });
  }
  const heights = rungs.map((rung) => rung.height);
  if (rungs.length === 0 || new Set(heights).size !== heights.length) return undefined;
  return rungs.sort((a, b) => b.height - a.height);
}

/** A rendition of one publish: the copied source or an encoded rung. */
export interface Rendition {
  /** `source`, or the rung's height and `p` (`720p`): its playlist and segment names. */
  name: string;
  copy: boolean;
  width: number;
  height: number;
  /** Target video bitrate of an encoded rung; undefined for the copied source. */
  videoKbps: number | undefined;
}

export const SOURCE_RENDITION = 'source';

export interface LadderPlan {
  /** The copied source first, then the encoded rungs, highest first. */
  renditions: Rendition[];
}

/** The renditions for a source picture: every rung strictly below its height. */
export function planLadder(
  source: { width: number; height: number },
  rungs: readonly Rung[],
  allowed?: ReadonlySet<string>,
): LadderPlan {
  const renditions: Rendition[] = [
    { name: SOURCE_RENDITION, copy: true, width: source.width, height: source.height, videoKbps: undefined },
  ];
  for (const rung of rungs) {
    if (rung.height >= source.height) continue;
    const name = `${rung.height}p`;
    if (allowed && !allowed.has(name)) continue;
    renditions.push({
      name,
      copy: false,
      width: evenWidth((source.width * rung.height) / source.height),
      height: rung.height,
      videoKbps: rung.videoKbps,
    });
  }
  return { renditions };
}

/** Whether a plan encodes anything (a plan of the source alone is copy-only). */
export function transcodes(plan: LadderPlan): boolean {
  return plan.renditions.some((rendition) => !rendition.copy);
}

/** Picture pixels per second the plan encodes, the unit the CPU budget prices in. */
export function encodedMegapixelsPerSecond(plan: LadderPlan, frameRate: number): number {
  return plan.renditions
    .filter((rendition) => !rendition.copy)
    .reduce((sum, rendition) => sum + (rendition.width * rendition.height * frameRate) / 1e6, 0);
}

function evenWidth(width: number): number {
  return Math.max(2, Math.round(width / 2) * 2);
}

/** The media playlist ffmpeg writes for a rendition inside a publish folder. */
export function renditionPlaylist(name: string): string {
  return `live_${name}.m3u8`;
}

/**
 * The output half of the ladder's ffmpeg command (after the input): every rendition with the
 * source's audio copied beside its video, segmented as HLS into `dir`.
 */
export function ladderOutputArgs(
  plan: LadderPlan,
  options: {
    dir: string;
    segmentSeconds: number;
    preset: string;
    hasAudio: boolean;
    playlistType: 'event' | 'vod';
    /** Audio encoding arguments when the source's cannot be copied (AAC for HLS). */
    audioArgs?: string[];
    /** Playlist names, `%v` for the rendition (live_%v.m3u8 unless given). */
    playlistTemplate?: string;
  },
): string[] {
  // A source that is not copied (an imported file HLS cannot carry as it is) has no keyframes
  // to follow: every rendition gets one each segment's length instead, at the same instants.
  const sourceCopied = plan.renditions.some((rendition) => rendition.copy);
  const keyframes = sourceCopied ? 'source' : `expr:gte(t,n_forced*${options.segmentSeconds})`;
  const args: string[] = [];
  plan.renditions.forEach(() => {
    args.push('-map', '0:v:0');
    if (options.hasAudio) args.push('-map', '0:a:0');
  });
  if (options.hasAudio) args.push(...(options.audioArgs ?? ['-c:a', 'copy']));
  plan.renditions.forEach((rendition, index) => {
    const v = `v:${index}`;
    if (rendition.copy) {
      args.push(`-c:${v}`, 'copy');
      return;
    }
    const kbps = rendition.videoKbps;
    // The source encoded (not copied) keeps its quality by CRF; rungs get their bitrate.
    const rate =
      kbps === undefined
        ? [`-crf:${v}`, '21']
        : [
            `-b:${v}`,
            `${kbps}k`,
            `-maxrate:${v}`,
            `${Math.round(kbps * 1.1)}k`,
            `-bufsize:${v}`,
            `${kbps * 2}k`,
          ];
    args.push(
      `-c:${v}`,
      'libx264',
      `-filter:${v}`,
      `scale=${rendition.width}:${rendition.height}`,
      `-preset:${v}`,
      options.preset,
      `-pix_fmt:${v}`,
      'yuv420p',
      ...rate,
      // Keyframes exactly where the source has them and nowhere else (no scene cuts, no
      // GOP limit of the encoder's own), so every rendition's segments start together.
      `-force_key_frames:${v}`,
      keyframes,
      `-sc_threshold:${v}`,
      '0',
      `-g:${v}`,
      '100000',
    );
  });
  const streamMap = plan.renditions
    .map((rendition, index) => `v:${index}${options.hasAudio ? `,a:${index}` : ''},name:${rendition.name}`)
    .join(' ');
  args.push(
    '-f',
    'hls',
    '-hls_time',
    String(options.segmentSeconds),
    '-hls_playlist_type',
    options.playlistType,
    '-hls_flags',
    options.playlistType === 'event' ? '+temp_file+independent_segments' : 'independent_segments',
    '-var_stream_map',
    streamMap,
    '-hls_segment_filename',
    path.join(options.dir, 'seg_%v_%05d.ts'),
    path.join(options.dir, options.playlistTemplate ?? 'live_%v.m3u8'),
  );
  return args;
}
