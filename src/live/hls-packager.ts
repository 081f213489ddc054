// Packages one publish (one RTMP connection) as HLS: ffmpeg reads the publisher's FLV on stdin
// and copies audio and video into MPEG-TS segments without re-encoding. Segments are cut at
// keyframes, every `segmentSeconds` (SEGMENT_SECONDS, or 1 for a low-latency stream) where the
// source's keyframe interval allows. Each segment carries EXT-X-PROGRAM-DATE-TIME, so players
// can tell how far behind live they are.
//
// With a ladder (src/transcode/), the same ffmpeg also encodes the lower renditions; it is
// started once the publisher's sequence header says how large the picture is (the FLV is held
// until then), and reports each rendition's segments as well as the source's.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { Logger } from 'pino';
import { lastLines } from '../ffmpeg/ffmpeg.ts';
import { readPlaylist, type HlsSegment } from '../hls/hls-playlist.ts';
import type { BudgetTicket } from '../transcode/budget.ts';
import { progressSpeed } from '../transcode/budget.ts';
import { tagTimestamp } from './flv-relay.ts';
import {
  ladderOutputArgs,
  renditionPlaylist,
  SOURCE_RENDITION,
  transcodes,
  type LadderPlan,
} from '../transcode/ladder.ts';
import type { FlvSink } from '../rtmp/rtmp-server.ts';

export const SEGMENT_SECONDS = 2;
/** The segment length of a `low` latency_mode stream. */
export const LOW_LATENCY_SEGMENT_SECONDS = 1;
export const PUBLISH_PLAYLIST = 'live.m3u8';
/** How often the packager's playlist is checked for new segments. */
const POLL_MS = 200;
/** Unwritten input beyond this means ffmpeg cannot keep up; the publish is cut off. */
const MAX_BACKLOG_BYTES = 64 * 1024 * 1024;
/**
 * A transcoding ffmpeg with this much unwritten input is behind whatever its progress says:
 * far below MAX_BACKLOG_BYTES, so transcoding hands over to fewer rungs long before that cut.
 */
const LADDER_BACKLOG_BYTES = 4 * 1024 * 1024;

/** What a ladder publish is made of, decided once the picture's size is known. */
export interface PackagerPlan {
  plan: LadderPlan;
  hasAudio: boolean;
  /** The CPU budget's admission of the encoded rungs (none for a copy-only plan). */
  ticket: BudgetTicket | undefined;
}

export interface PackagerLadder {
  /**
   * Asked at each FLV tag until it returns a plan (`final`: the publisher is gone, decide
   * now). A copy-only plan packages exactly as without a ladder.
   */
  choose(final: boolean): PackagerPlan | undefined;
  /** An encoded rendition's segments, each time its list grows. */
  onRendition(name: string, segments: HlsSegment[]): void;
  preset: string;
  /**
   * The encoder has fallen this far behind the publisher (media seconds received but not yet
   * packaged): `onBehind` is told, once, so ingest moves the publish to fewer rungs before the
   * backlog grows into a stall.
   */
  maxLagSeconds: number;
  onBehind(): void;
}

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
  private child: ChildProcessByStdio<Writable, Readable, Readable> | undefined;
  private settle: (code: number | null, spawnError?: Error) => void = () => undefined;
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
    segmentSeconds = SEGMENT_SECONDS,
    ladder?: PackagerLadder,
  ) {
    this.dir = dir;
    fs.mkdirSync(dir, { recursive: true });
    let playlist = path.join(dir, PUBLISH_PLAYLIST);
    const renditionCounts = new Map<string, number>();
    const copyArgs = [
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
    ];
    const inputArgs = [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostats',
      // Encoders announce their streams at once; a short analysis gets the first segment out sooner.
      '-analyzeduration',
      '1000000',
      '-f',
      'flv',
      '-i',
      'pipe:0',
    ];
    let chosen: PackagerPlan | undefined;
    // How far behind the publisher a transcoding ffmpeg is: media received vs packaged.
    let firstInputMs: number | undefined;
    let lastInputMs: number | undefined;
    let packagedSeconds = 0;
    let behind = false;
    const checkLag = () => {
      if (behind || !ladder || !chosen || !transcodes(chosen.plan)) return;
      const received =
        firstInputMs === undefined || lastInputMs === undefined ? 0 : (lastInputMs - firstInputMs) / 1000;
      const backlog = this.child?.stdin.writableLength ?? 0;
      if (received - packagedSeconds <= ladder.maxLagSeconds && backlog <= LADDER_BACKLOG_BYTES) return;
      behind = true;
      logger.warn(
        { lagSeconds: received - packagedSeconds, backlogBytes: backlog, speed: chosen.ticket?.speed },
        'the transcoder fell behind the publisher',
      );
      ladder.onBehind();
    };
    const start = (): ChildProcessByStdio<Writable, Readable, Readable> => {
      if (!chosen || !transcodes(chosen.plan)) {
        return spawn(ffmpegPath, [...inputArgs, ...copyArgs], { stdio: ['pipe', 'pipe', 'pipe'] });
      }
      playlist = path.join(dir, renditionPlaylist(SOURCE_RENDITION));
      const args = [
        ...inputArgs,
        '-progress',
        'pipe:1',
        ...ladderOutputArgs(chosen.plan, {
          dir,
          segmentSeconds,
          preset: ladder?.preset ?? 'veryfast',
          hasAudio: chosen.hasAudio,
          playlistType: 'event',
        }),
      ];
      const child = spawn(ffmpegPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
      if (child.pid !== undefined) chosen.ticket?.attach(child.pid);
      return child;
    };

    // Without a ladder ffmpeg starts at once; with one, the FLV waits for the plan.
    let held: Buffer[] | undefined;
    if (ladder) held = [];
    else this.child = start();
    let stderr = '';
    const wire = (child: ChildProcessByStdio<Writable, Readable, Readable>) => {
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr = (stderr + chunk).slice(-4000);
      });
      let partial = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        const lines = (partial + chunk).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          const speed = progressSpeed(line);
          if (speed !== undefined) chosen?.ticket?.reportSpeed(speed);
          const outTime = /^out_time_us=(\d+)$/.exec(line.trim());
          if (outTime) packagedSeconds = Number(outTime[1]) / 1e6;
          if (line.startsWith('progress=')) checkLag();
        }
      });
      // A publisher that drops mid-write leaves EPIPE here; the exit code tells the story.
      child.stdin.on('error', () => undefined);
    };
    if (this.child) wire(this.child);
    const begin = (final: boolean) => {
      if (!ladder || !held) return;
      chosen = ladder.choose(final);
      if (!chosen) return;
      const child = start();
      this.child = child;
      wire(child);
      this.started(child);
      for (const chunk of held) child.stdin.write(chunk);
      held = undefined;
    };

    this.input = {
      write: (chunk) => {
        if (held) {
          held.push(chunk);
          begin(false);
          return;
        }
        const stdin = this.child?.stdin;
        if (!stdin) return;
        const timestamp = tagTimestamp(chunk);
        if (timestamp !== undefined) {
          firstInputMs ??= timestamp;
          lastInputMs = timestamp;
        }
        if (stdin.writableLength > LADDER_BACKLOG_BYTES) checkLag();
        if (stdin.writableLength > MAX_BACKLOG_BYTES) {
          this.child?.kill('SIGKILL');
          return;
        }
        if (!stdin.destroyed) stdin.write(chunk);
      },
      end: () => {
        begin(true);
        this.child?.stdin.end();
      },
    };

    const check = async () => {
      if (this.polling) return;
      this.polling = true;
      try {
        if (!this.child) return;
        const { segments } = await readPlaylist(playlist);
        if (segments.length > this.segmentCount) {
          this.segmentCount = segments.length;
          onSegments(segments);
        }
        if (!chosen || !ladder) return;
        for (const rendition of chosen.plan.renditions) {
          if (rendition.copy) continue;
          const list = await readPlaylist(path.join(dir, renditionPlaylist(rendition.name)));
          if (list.segments.length > (renditionCounts.get(rendition.name) ?? 0)) {
            renditionCounts.set(rendition.name, list.segments.length);
            ladder.onRendition(rendition.name, list.segments);
          }
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

    let settled = false;
    let resolveFinished: (exit: PackagerExit) => void = () => undefined;
    this.finished = new Promise((resolve) => {
      resolveFinished = resolve;
    });
    this.settle = (code: number | null, spawnError?: Error) => {
      if (settled) return;
      settled = true;
      clearInterval(this.poller);
      this.poller = undefined;
      chosen?.ticket?.release();
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
          resolveFinished({
            code,
            error: spawnError?.message ?? (code === 0 ? undefined : lastLines(stderr, 3) || undefined),
          });
        });
    };
    if (this.child) this.started(this.child);
  }

  private started(child: ChildProcessByStdio<Writable, Readable, Readable>): void {
    child.once('error', (error) => {
      this.settle(null, error);
    });
    child.once('close', (code) => {
      this.settle(code);
    });
  }

  /** Stops at once, for shutdown; normally ending the input lets ffmpeg finish the last segment. */
  kill(): void {
    if (this.child) this.child.kill('SIGKILL');
    // Killed before the plan was made: there is no ffmpeg to wait for.
    else this.settle(null);
  }
}
