// Importing a video file: ffprobe says what it holds; H.264 with AAC or MP3 audio (what
// browsers play from HLS) is packaged by stream copy, anything else is encoded once to H.264
// and AAC; segments are 2 s where the keyframes allow. Then it is published like a recording.
import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Privacy } from '../streams/stream.table.ts';
import type { VideoRow } from '../videos/video.table.ts';
import { probeMedia, runTool, type MediaFacts } from './ffmpeg.ts';
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
}

export class ImportError extends Error {}

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

/** `onProgress` hears the fraction packaged so far (0 to 1). */
export async function importVideo(
  deps: ImportDeps,
  input: ImportInput,
  onProgress: (fraction: number) => void = () => undefined,
): Promise<{ video: VideoRow; copied: boolean }> {
  const file = await importableFile(input.file);
  let facts: MediaFacts;
  try {
    facts = await probeMedia(deps.ffprobePath, file);
  } catch {
    throw new ImportError(`${input.file} is not a media file ffmpeg can read.`);
  }
  if (facts.videoCodec === undefined) throw new ImportError(`${input.file} has no video track.`);
  const copied =
    facts.videoCodec === 'h264' && (facts.audioCodec === undefined || PLAYABLE_AUDIO.has(facts.audioCodec));

  const draft = await deps.videos.createDraft({
    creatorId: input.creatorId,
    title: input.title,
    description: input.description,
    category: input.category,
    privacy: input.privacy,
    tags: input.tags,
    sourceStreamId: null,
  });
  const video = await publishVideoMedia(deps, draft, async (stagingDir) => {
    const totalUs = Number.isFinite(facts.durationSeconds) ? facts.durationSeconds * 1e6 : 0;
    await runTool(deps.ffmpegPath, packagingArgs(file, stagingDir, copied), {
      onStdoutLine: (line) => {
        const match = /^out_time_us=(\d+)$/.exec(line.trim());
        if (match && totalUs > 0) onProgress(Math.min(1, Number(match[1]) / totalUs));
      },
    });
    onProgress(1);
  });
  return { video, copied };
}

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
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-nostats',
    '-progress',
    'pipe:1',
    '-i',
    file,
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
