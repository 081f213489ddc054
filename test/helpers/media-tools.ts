// Real media tools for tests: ffmpeg pushing a test pattern over RTMP the way OBS would,
// ffprobe reading what the service produced, and polling for a condition with a deadline.
import { spawn, type ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { waitFor as waitForCondition } from './wait.ts';

const run = promisify(execFile);

export interface Push {
  process: ChildProcess;
  /** Resolves when ffmpeg exits, with its code and the end of its error output. */
  exited: Promise<{ code: number | null; stderr: string; at: number }>;
  /** When ffmpeg was started (epoch ms). */
  startedAt: number;
  /** Kills ffmpeg outright, as a crashed encoder or a pulled cable would end a stream. */
  stop(): void;
  /**
   * Ends the stream as an encoder's Stop button does (SIGINT: ffmpeg finishes and closes the
   * stream as when its `-t` runs out), for a test that pushes until it has seen what it needs.
   */
  end(): void;
}

/**
 * Pushes `seconds` of a 720p30 test pattern with a tone, in real time, with a keyframe every
 * 2 s (as streaming software is told to for 2-second segments). With `progress`, ffmpeg also
 * reports how much it has sent (`secondsPushed` reads it from the error output).
 */
export function pushTestPattern(
  url: string,
  seconds: number,
  options: { size?: string; progress?: boolean } = {},
): Push {
  const size = options.size ?? '1280x720';
  return startPush([
    '-re',
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=${size}:rate=30`,
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000',
    '-t',
    String(seconds),
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-pix_fmt',
    'yuv420p',
    '-g',
    '60',
    '-keyint_min',
    '60',
    '-sc_threshold',
    '0',
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    ...(options.progress === true ? ['-progress', 'pipe:2'] : []),
    '-f',
    'flv',
    url,
  ]);
}

/**
 * How many seconds of media a push made with `progress` sent, from the last progress report
 * in its error output: for a push the test ends when it chooses rather than after `seconds`.
 */
export function secondsPushed(stderr: string): number {
  const last = [...stderr.matchAll(/^out_time_us=(\d+)$/gm)].at(-1);
  if (!last) throw new Error(`ffmpeg reported no progress: ${stderr.slice(-500)}`);
  return Number(last[1]) / 1_000_000;
}

/** Starts an ffmpeg push with these arguments (after the quiet, non-interactive ones). */
export function startPush(args: string[]): Push {
  const child = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; stderr: string; at: number }>((resolve) => {
    child.once('close', (code) => {
      resolve({ code, stderr, at: Date.now() });
    });
  });
  return {
    process: child,
    exited,
    startedAt: Date.now(),
    stop: () => {
      child.kill('SIGKILL');
    },
    end: () => {
      child.kill('SIGINT');
    },
  };
}

/** Makes a short H.264/AAC MP4 file (not in real time). */
export async function makeTestFile(file: string, seconds: number): Promise<void> {
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=640x360:rate=25:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=330:duration=${seconds}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-g',
    '50',
    '-c:a',
    'aac',
    '-shortest',
    file,
  ]);
}

export interface Probe {
  durationSeconds: number;
  streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
}

/** ffprobe of a file or URL (an HLS playlist over HTTP included). */
export async function probe(input: string): Promise<Probe> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_format',
    '-show_streams',
    input,
  ]);
  const parsed = JSON.parse(stdout);
  return { durationSeconds: Number(parsed.format?.duration), streams: parsed.streams ?? [] };
}

/**
 * Decodes the whole video track of `input` and returns how many frames came out: the media
 * really plays, and for how long. (Tolerates the timestamp reset at an HLS discontinuity,
 * which players handle and ffmpeg's HLS reader reports as a corrupt packet.)
 */
export async function countVideoFrames(input: string): Promise<number> {
  const { stdout } = await run(
    'ffprobe',
    [
      '-v',
      'quiet',
      '-count_frames',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=nb_read_frames',
      '-of',
      'csv=p=0',
      input,
    ],
    { timeout: 120_000 },
  );
  // HLS input lists the stream under its program too: the first number is the count.
  return Number(stdout.trim().split(/\s+/)[0]);
}

/** waitFor of wait.ts with the description first and a default interval of 100 ms. */
export function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  return waitForCondition(check, { intervalMs: 100, ...options, what });
}

export function countSegments(playlist: string): number {
  return (playlist.match(/#EXTINF:/g) ?? []).length;
}
