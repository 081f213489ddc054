// Importing a video file: ffprobe says what it holds; H.264 with AAC or MP3 audio (what
// browsers play from HLS) is packaged by stream copy, anything else is encoded once to H.264
// and AAC; segments are 2 s where the keyframes allow. Then it is published like a recording.
// With the ladder on (TRANSCODE=auto), the same ffmpeg also encodes the rungs below the
// picture's height, under `nice` and only once the machine has room (live work comes first),
// and the video's index.m3u8 is a master naming every rendition. The video stays a draft
// (unpublished) until all of it is ready.
import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Privacy } from '../streams/stream.table.ts';
import type { VideoRow } from '../videos/video.table.ts';
import { probeMedia, runTool, type MediaFacts } from '../ffmpeg/ffmpeg.ts';
import os from 'node:os';
import {
  encodedMegapixelsPerSecond,
  ladderOutputArgs,
  planLadder,
  transcodes,
  type LadderPlan,
  type TranscodeConfig,
} from '../transcode/ladder.ts';
import { buildMasterPlaylist } from '../transcode/master-writer.ts';
import { renditionIndex } from '../transcode/stream-ladder.ts';
import { VOD_NICE, vodEstimateCores, waitForVodRoom } from '../transcode/vod-room.ts';
import { readPlaylist, writeFileAtomic } from '../hls/hls-playlist.ts';
import { PLAYLIST_FILE } from './media-paths.ts';
import { publishVideoMedia, type VideoMediaDeps } from './video-publishing.ts';

export interface ImportInput {
  file: string;
  creatorId: string;
  title: string;
  description?: string | undefined;
  category?: string | undefined;
  privacy?: Privacy | undefined;
  tags?: string[] | undefined;
}

export interface ImportDeps extends VideoMediaDeps {
  ffprobePath: string;
  /** The ladder; a single rendition, as before it existed, without it or with TRANSCODE=off. */
  transcode?: TranscodeConfig | undefined;
  /** Hears when the import waits for CPU room (the machine's live work comes first). */
  onWaiting?: (busyCores: number) => void;
}

/** Why a file cannot become a video, with a code a creator's client can act on. */
export type ImportErrorCode = 'file_unreadable' | 'invalid_media' | 'no_video_track';

export class ImportError extends Error {
  readonly code: ImportErrorCode;
  constructor(message: string, code: ImportErrorCode = 'file_unreadable') {
    super(message);
    this.name = 'ImportError';
    this.code = code;
  }
}

/** What ffprobe found, and whether it can be packaged as it is (H.264 with AAC or MP3). */
export interface InspectedMedia {
  facts: MediaFacts;
  copied: boolean;
}

const PLAYABLE_AUDIO = new Set(['aac', 'mp3']);

/**
 * The absolute path of the regular, readable file an operator named, or an ImportError saying
 * why not. ffmpeg is only ever given this path: a name given as is could start with `-` (an
 * option) or `concat:`, `file:`, `http:`, `pipe:` (a protocol), and a directory, a device or
 * a fifo would not be media (ffmpeg would wait on a fifo for ever).
 */
export async function importableFile(file: string): Promise<string> {
  const absolute = path.resolve(file);
  let stat: Stats;
  try {
    stat = await fs.stat(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new ImportError(`${file} does not exist.`);
    throw new ImportError(`Cannot read ${file}.`);
  }
  if (stat.isDirectory()) throw new ImportError(`${file} is a directory, not a regular file.`);
  if (!stat.isFile()) throw new ImportError(`${file} is not a regular file (a device, fifo or socket).`);
  try {
    await fs.access(absolute, fs.constants.R_OK);
  } catch {
    throw new ImportError(`Cannot read ${file}.`);
  }
  return absolute;
}

/**
 * Probes a file: a file ffprobe cannot read (text renamed .mp4, a truncated file), one with no
 * video track or no duration is an ImportError with its code. `name` is how messages call it.
 */
export async function inspectMedia(ffprobePath: string, file: string, name: string): Promise<InspectedMedia> {
  let facts: MediaFacts;
  try {
    facts = await probeMedia(ffprobePath, file);
  } catch (error) {
    // ffprobe missing or not runnable is the machine's fault, not the file's: retried.
    if ((error as NodeJS.ErrnoException).code !== undefined) throw error;
    throw new ImportError(
      `${name} is not a video file we can read: it may be damaged, incomplete, or not a video at all. Upload an MP4, MOV, MKV or WebM file.`,
      'invalid_media',
    );
  }
  if (facts.videoCodec === undefined) {
    throw new ImportError(
      `${name} has no video track (an audio file or a picture?). Upload a video file.`,
      'no_video_track',
    );
  }
  if (!(facts.durationSeconds > 0)) {
    throw new ImportError(
      `${name} has no playable length: it may be a single picture or a damaged video.`,
      'invalid_media',
    );
  }
  const copied =
    facts.videoCodec === 'h264' && (facts.audioCodec === undefined || PLAYABLE_AUDIO.has(facts.audioCodec));
  return { facts, copied };
}

/**
 * Packages an inspected file into `draft`'s media (stream copy, or encoded, with the ladder
 * when TRANSCODE=auto) and publishes the draft. `onProgress` hears the fraction done (0 to 1);
 * `signal` stops ffmpeg.
 */
export async function packageVideo(
  deps: ImportDeps,
  file: string,
  { facts, copied }: InspectedMedia,
  draft: VideoRow,
  onProgress: (fraction: number) => void = () => undefined,
  signal?: AbortSignal,
): Promise<VideoRow> {
  const plan =
    deps.transcode?.mode === 'auto' && facts.width !== undefined && facts.height !== undefined
      ? planLadder({ width: facts.width, height: facts.height }, deps.transcode.rungs)
      : undefined;
  return publishVideoMedia(deps, draft, async (stagingDir) => {
    const totalUs = Number.isFinite(facts.durationSeconds) ? facts.durationSeconds * 1e6 : 0;
    const progress = {
      signal,
      onStdoutLine: (line: string) => {
        const match = /^out_time_us=(\d+)$/.exec(line.trim());
        if (match && totalUs > 0) onProgress(Math.min(1, Number(match[1]) / totalUs));
      },
    };
    if (plan && deps.transcode && transcodes(plan)) {
      await importLadder(deps, deps.transcode, file, stagingDir, plan, copied, facts, progress);
    } else {
      await runTool(deps.ffmpegPath, packagingArgs(file, stagingDir, copied), progress);
    }
    onProgress(1);
  });
}

/** Inspects, drafts and packages a file in one go (the ABR bench's import beside live streams). */
export async function importVideo(
  deps: ImportDeps,
  input: ImportInput,
  onProgress: (fraction: number) => void = () => undefined,
): Promise<{ video: VideoRow; copied: boolean }> {
  const file = await importableFile(input.file);
  const inspected = await inspectMedia(deps.ffprobePath, file, input.file);
  const draft = await deps.videos.createDraft({ ...input, sourceStreamId: null });
  const video = await packageVideo(deps, file, inspected, draft, onProgress);
  return { video, copied: inspected.copied };
}

async function importLadder(
  deps: ImportDeps,
  config: TranscodeConfig,
  file: string,
  stagingDir: string,
  ladder: LadderPlan,
  copied: boolean,
  facts: MediaFacts,
  progress: { onStdoutLine: (line: string) => void; signal?: AbortSignal | undefined },
): Promise<void> {
  // A source HLS cannot carry as it is becomes an encoded rendition at its own size.
  const plan: LadderPlan = {
    renditions: ladder.renditions.map((rendition) =>
      rendition.copy && !copied ? { ...rendition, copy: false } : rendition,
    ),
  };
  const cost = vodEstimateCores(encodedMegapixelsPerSecond(plan, ASSUMED_FRAME_RATE));
  await waitForVodRoom(config, os.availableParallelism(), cost, deps.onWaiting ?? (() => undefined));
  const hasAudio = facts.audioCodec !== undefined;
  const audioCopied = facts.audioCodec !== undefined && PLAYABLE_AUDIO.has(facts.audioCodec) && copied;
  const args = [
    ...importInputArgs(file),
    ...ladderOutputArgs(plan, {
      dir: stagingDir,
      segmentSeconds: 2,
      preset: config.preset,
      hasAudio,
      playlistType: 'vod',
      audioArgs: audioCopied ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', '128k'],
      playlistTemplate: renditionIndex('%v'),
    }),
  ];
  // Niced: on a machine with live streams, their transcoders get the CPU first.
  const [nice, ...niceArgs] = VOD_NICE;
  await runTool(nice ?? 'nice', [...niceArgs, deps.ffmpegPath, ...args], progress);
  const entries = [];
  for (const rendition of plan.renditions) {
    const { segments } = await readPlaylist(path.join(stagingDir, renditionIndex(rendition.name)));
    entries.push({ name: rendition.name, segments });
  }
  await writeFileAtomic(
    path.join(stagingDir, PLAYLIST_FILE),
    await buildMasterPlaylist(deps.ffprobePath, stagingDir, entries),
  );
}

/** Frame rate the CPU estimate assumes (ffprobe's facts here do not carry one). */
const ASSUMED_FRAME_RATE = 30;

function packagingArgs(file: string, dir: string, copy: boolean): string[] {
  const codecs = copy
    ? ['-c', 'copy']
    : [
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-crf',
        '21',
        '-pix_fmt',
        'yuv420p',
        // A keyframe every 2 s, so segments are 2 s.
        '-force_key_frames',
        'expr:gte(t,n_forced*2)',
        '-c:a',
        'aac',
        '-b:a',
        '128k',
      ];
  return [
    ...importInputArgs(file),
    '-map',
    '0:v:0',
    '-map',
    '0:a:0?',
    ...codecs,
    '-f',
    'hls',
    '-hls_time',
    '2',
    '-hls_playlist_type',
    'vod',
    '-hls_flags',
    'independent_segments',
    '-hls_segment_filename',
    path.join(dir, 'seg%05d.ts'),
    path.join(dir, PLAYLIST_FILE),
  ];
}

/** ffmpeg reading the file to import, reporting its progress on stdout (the progress bar). */
function importInputArgs(file: string): string[] {
  return ['-hide_banner', '-loglevel', 'error', '-nostdin', '-nostats', '-progress', 'pipe:1', '-i', file];
}
