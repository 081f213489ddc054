// Packages one publish (one RTMP connection) as HLS: ffmpeg reads the publisher's FLV on stdin
// and copies audio and video into MPEG-TS segments without re-encoding. Segments are cut at
// keyframes, every `segmentSeconds` (SEGMENT_SECONDS, or 1 for a low-latency stream) where the
// source's keyframe interval allows. Each segment carries EXT-X-PROGRAM-DATE-TIME, so players
// can tell how far behind live they are.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { Logger } from 'pino';
import { lastLines } from '../media/ffmpeg.ts';
import { readPlaylist, type HlsSegment } from '../media/hls-playlist.ts';
import type { FlvSink } from './rtmp-server.ts';

export const SEGMENT_SECONDS = 2;
/** The segment length of a `low` latency_mode stream. */
export const LOW_LATENCY_SEGMENT_SECONDS = 1;
export const PUBLISH_PLAYLIST = 'live.m3u8';
/** How often the packager's playlist is checked for new segments. */
const POLL_MS = 200;
/** Unwritten input beyond this means ffmpeg cannot keep up; the publish is cut off. */
const MAX_BACKLOG_BYTES = 64 * 1024 * 1024;

export interface PackagerExit {
  code: number | null;
  /** The end of ffmpeg's error output when it failed. */
  error: string | undefined;
}

export class HlsPackager {
  readonly dir: string;
  readonly input: FlvSink;
  /** Settles when ffmpeg has exited and the last segments have been reported. */
  readonly finished: Promise<PackagerExit>;
  private readonly child: ChildProcessByStdio<Writable, null, Readable>;
  private segmentCount = 0;
  private poller: NodeJS.Timeout | undefined;
  private polling = false;

  /**
   * `onSegments` hears the full segment list each time it grows; `logger` hears when the
   * playlist ffmpeg writes cannot be read.
   */
  constructor(
    ffmpegPath: string,
    dir: string,
    onSegments: (segments: HlsSegment[]) => void,
    logger: Logger,
    segmentSeconds: number = SEGMENT_SECONDS,
  ) {
    this.dir = dir;
    fs.mkdirSync(dir, { recursive: true });
    const playlist = path.join(dir, PUBLISH_PLAYLIST);
    this.child = spawn(
      ffmpegPath,
      [
        '-hide_banner',
        '-loglevel',
        'error',
        // Encoders announce their streams at once; a short analysis gets the first segment out sooner.
        '-analyzeduration',
        '1000000',
        '-f',
        'flv',
        '-i',
        'pipe:0',
        '-map',
        '0:v?',
        '-map',
        '0:a?',
        '-c',
        'copy',
        '-f',
        'hls',
        '-hls_time',
        String(segmentSeconds),
        '-hls_playlist_type',
        'event',
        '-hls_flags',
        // program_date_time: ffmpeg dates each segment from the wall clock when it started muxing.
        '+temp_file+independent_segments+program_date_time',
        '-hls_segment_filename',
        path.join(dir, 'seg%05d.ts'),
        playlist,
      ],
      { stdio: ['pipe', 'ignore', 'pipe'] },
    );
    let stderr = '';
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    // A publisher that drops mid-write leaves EPIPE here; the exit code tells the story.
    this.child.stdin.on('error', () => undefined);

    const stdin = this.child.stdin;
    this.input = {
      write: (chunk) => {
        if (stdin.writableLength > MAX_BACKLOG_BYTES) {
          this.child.kill('SIGKILL');
          return;
        }
        if (!stdin.destroyed) stdin.write(chunk);
      },
      end: () => {
        stdin.end();
      },
    };

    const check = async () => {
      if (this.polling) return;
      this.polling = true;
      try {
        const { segments } = await readPlaylist(playlist);
        if (segments.length > this.segmentCount) {
          this.segmentCount = segments.length;
          onSegments(segments);
        }
      } finally {
        this.polling = false;
      }
    };
    // A failing read is tried again at the next poll; one line for each run of failures.
    let failing = false;
    const poll = async () => {
      try {
        await check();
        failing = false;
      } catch (error) {
        if (!failing) logger.warn({ err: error, dir }, 'could not read the packager playlist');
        failing = true;
      }
    };
    this.poller = setInterval(() => void poll(), POLL_MS);

    this.finished = new Promise((resolve) => {
      let settled = false;
      const done = (code: number | null, spawnError?: Error) => {
        if (settled) return;
        settled = true;
        clearInterval(this.poller);
        this.poller = undefined;
        const finalCheck = async () => {
          // Wait out a poll in flight, then read what ffmpeg wrote last.
          while (this.polling) await new Promise((r) => setTimeout(r, 10));
          await check();
        };
        void finalCheck()
          .catch((error: unknown) => {
            // The publish still ends; the stream keeps the segments reported so far.
            logger.warn({ err: error, dir }, 'could not read the last segments of a publish');
          })
          .then(() => {
            resolve({
              code,
              error: spawnError?.message ?? (code === 0 ? undefined : lastLines(stderr, 3) || undefined),
            });
          });
      };
      this.child.once('error', (error) => {
        done(null, error);
      });
      this.child.once('close', (code) => {
        done(code);
      });
    });
  }

  /** Stops at once, for shutdown; normally ending the input lets ffmpeg finish the last segment. */
  kill(): void {
    this.child.kill('SIGKILL');
  }
}
