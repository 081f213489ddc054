// Debian's ffmpeg, spawned directly: checking that it is there, running it to completion, and
// reading media facts with its companion ffprobe. No npm package downloads or wraps binaries.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';

export type FfmpegStatus = { available: true; version: string } | { available: false; reason: string };

/** ffprobe ships beside ffmpeg (Debian's ffmpeg package installs both). */
export function ffprobePathFor(ffmpegPath: string): string {
  const base = path.basename(ffmpegPath);
  const probe = base.includes('ffmpeg') ? base.replace('ffmpeg', 'ffprobe') : 'ffprobe';
  return ffmpegPath.includes(path.sep) ? path.join(path.dirname(ffmpegPath), probe) : probe;
}

/** Whether ffmpeg runs at all, and its version line; never throws. */
export async function detectFfmpeg(ffmpegPath: string): Promise<FfmpegStatus> {
  try {
    const { stdout } = await runTool(ffmpegPath, ['-hide_banner', '-version'], { timeoutMs: 10_000 });
    return { available: true, version: stdout.split('\n')[0]?.trim() ?? 'ffmpeg' };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? `ffmpeg was not found at FFMPEG_PATH="${ffmpegPath}" (install Debian's ffmpeg package or set FFMPEG_PATH)`
        : `ffmpeg at FFMPEG_PATH="${ffmpegPath}" does not run: ${(error as Error).message}`;
    return { available: false, reason };
  }
}

export interface RunOptions {
  timeoutMs?: number;
  /** Called with each line ffmpeg writes to stdout (for -progress pipe:1). */
  onStdoutLine?: (line: string) => void;
  /** Stops the tool (SIGKILL) when aborted: a media job whose runner is stopping. */
  signal?: AbortSignal | undefined;
}

export interface RunResult {
  stdout: string;
  stderr: string;
}

/**
 * Runs a tool to completion. A non-zero exit rejects with the end of its stderr, which names
 * what went wrong; the arguments are not repeated in the message.
 */
export function runTool(command: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let partial = '';
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            child.kill('SIGKILL');
          }, options.timeoutMs);
    const stop = () => child.kill('SIGKILL');
    if (options.signal?.aborted) stop();
    options.signal?.addEventListener('abort', stop, { once: true });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < 1_000_000) stdout += chunk;
      if (!options.onStdoutLine) return;
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) options.onStdoutLine(line);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-8000);
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', stop);
      if (code === 0) resolve({ stdout, stderr });
      else {
        const why = signal ? `was stopped (${signal})` : `exited with code ${String(code)}`;
        reject(new Error(`${path.basename(command)} ${why}: ${lastLines(stderr, 3)}`));
      }
    });
  });
}

export function lastLines(text: string, count: number): string {
  return text.trim().split('\n').slice(-count).join(' | ');
}

export interface MediaFacts {
  durationSeconds: number;
  videoCodec: string | undefined;
  audioCodec: string | undefined;
  width: number | undefined;
  height: number | undefined;
}

/**
 * A local file as ffmpeg and ffprobe must be given it: absolute. A relative name could start
 * with `-` (read as an option) or `concat:`, `file:`, `pipe:`... (read as a protocol); a path
 * starting with `/` is always a plain file.
 */
export function localInput(file: string): string {
  return path.resolve(file);
}

/** Duration and codecs of a media file or playlist, from ffprobe's JSON. */
export async function probeMedia(ffprobePath: string, input: string): Promise<MediaFacts> {
  const { stdout } = await runTool(
    ffprobePath,
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '-i', localInput(input)],
    { timeoutMs: 60_000 },
  );
  const parsed = JSON.parse(stdout) as {
    format?: { duration?: string };
    streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number }[];
  };
  const video = parsed.streams?.find((stream) => stream.codec_type === 'video');
  const audio = parsed.streams?.find((stream) => stream.codec_type === 'audio');
  return {
    durationSeconds: Number(parsed.format?.duration ?? 'NaN'),
    videoCodec: video?.codec_name,
    audioCodec: audio?.codec_name,
    width: video?.width,
    height: video?.height,
  };
}

/**
 * Saves one frame as a JPEG (640 px wide), written beside the target and renamed into place
 * so the image served is never half written.
 */
export async function captureFrame(
  ffmpegPath: string,
  input: string,
  output: string,
  atSeconds = 0,
): Promise<void> {
  const temporary = path.join(path.dirname(output), `.${path.basename(output, '.jpg')}.tmp.jpg`);
  const { stderr } = await runTool(
    ffmpegPath,
    [
      '-hide_banner',
      '-loglevel',
      'warning',
      '-nostdin',
      '-y',
      '-ss',
      atSeconds.toFixed(3),
      '-i',
      localInput(input),
      '-frames:v',
      '1',
      '-update',
      '1',
      '-vf',
      'scale=640:-2',
      '-q:v',
      '4',
      temporary,
    ],
    { timeoutMs: 30_000 },
  );
  try {
    await fs.rename(temporary, output);
  } catch {
    // ffmpeg succeeds without writing anything when there is no frame at that time.
    throw new Error(`no frame at ${atSeconds.toFixed(3)} s of the media: ${lastLines(stderr, 2)}`);
  }
}
