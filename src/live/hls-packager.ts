// Packages one publish (or the part of it after a hand-over) as HLS: ffmpeg reads the
// publisher's FLV on stdin and copies audio and video into MPEG-TS segments without
// re-encoding. Segments are cut at keyframes, every `segmentSeconds` (SEGMENT_SECONDS, or 1
// for a low-latency stream) where the source's keyframe interval allows. Each segment carries
// EXT-X-PROGRAM-DATE-TIME, so players can tell how far behind live they are.
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
import { tagTimestamp } from '../rtmp/flv.ts';
import type { FlvSink } from '../rtmp/rtmp-server.ts';
import { progressSpeed, type BudgetTicket } from '../transcode/budget.ts';
import {
  ladderOutputArgs,
  renditionPlaylist,
  SOURCE_RENDITION,
  transcodes,
  type LadderPlan,
} from '../transcode/ladder.ts';

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
   * packaged): `onBehind` is told, once, so the publish moves to fewer rungs before the
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

export interface PackagerOptions {
  ffmpegPath: string;
  dir: string;
  /** Hears the full segment list each time it grows. */
  onSegments: (segments: HlsSegment[]) => void;
  /** Hears when the playlist ffmpeg writes cannot be read. */
  logger: Logger;
  segmentSeconds?: number;
  ladder?: PackagerLadder | undefined;
}

type Ffmpeg = ChildProcessByStdio<Writable, Readable, Readable>;

const INPUT_ARGS = [
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

export class HlsPackager {
  readonly dir: string;
  /** Where the publisher's FLV goes. */
  readonly input: FlvSink;
  /** Settles when ffmpeg has exited and the last segments have been reported. */
  readonly finished: Promise<PackagerExit>;
  private readonly options: PackagerOptions;
  private readonly segmentSeconds: number;
  private child: Ffmpeg | undefined;
  /** The FLV held until a ladder publish has its plan (undefined once ffmpeg runs). */
  private held: Buffer[] | undefined;
  private chosen: PackagerPlan | undefined;
  private playlist: string;
  private stderr = '';
  private segmentCount = 0;
  private readonly renditionCounts = new Map<string, number>();
  private readonly poller: NodeJS.Timeout;
  /** The read of the playlists in progress, if any. */
  private polling: Promise<void> | undefined;
  private failingReads = false;
  // How far behind the publisher a transcoding ffmpeg is: media received vs packaged.
  private firstInputMs: number | undefined;
  private lastInputMs: number | undefined;
  private packagedSeconds = 0;
  private behind = false;
  private settled = false;
  private resolveFinished: (exit: PackagerExit) => void = () => undefined;

  constructor(options: PackagerOptions) {
    this.options = options;
    this.dir = options.dir;
    this.segmentSeconds = options.segmentSeconds ?? SEGMENT_SECONDS;
    fs.mkdirSync(this.dir, { recursive: true });
    this.playlist = path.join(this.dir, PUBLISH_PLAYLIST);
    this.finished = new Promise((resolve) => {
      this.resolveFinished = resolve;
    });
    this.input = {
      write: (chunk) => {
        this.write(chunk);
      },
      end: () => {
        this.begin(true);
        this.child?.stdin.end();
      },
    };
    this.poller = setInterval(() => void this.poll(), POLL_MS);
    // Without a ladder ffmpeg starts at once; with one, the FLV waits for the plan.
    if (options.ladder) this.held = [];
    else this.run(this.spawnFfmpeg());
  }

  /** Stops at once, for shutdown; normally ending the input lets ffmpeg finish the last segment. */
  kill(): void {
    if (this.child) this.child.kill('SIGKILL');
    // Killed before the plan was made: there is no ffmpeg to wait for.
    else this.settle(null);
  }

  private write(chunk: Buffer): void {
    if (this.held) {
      this.held.push(chunk);
      this.begin(false);
      return;
    }
    const stdin = this.child?.stdin;
    if (!stdin) return;
    const timestamp = tagTimestamp(chunk);
    if (timestamp !== undefined) {
      this.firstInputMs ??= timestamp;
      this.lastInputMs = timestamp;
    }
    if (stdin.writableLength > LADDER_BACKLOG_BYTES) this.checkLag();
    if (stdin.writableLength > MAX_BACKLOG_BYTES) {
      this.child?.kill('SIGKILL');
      return;
    }
    if (!stdin.destroyed) stdin.write(chunk);
  }

  /** A ladder publish's ffmpeg starts once the ladder has a plan; the held FLV goes first. */
  private begin(final: boolean): void {
    const { ladder } = this.options;
    if (!ladder || !this.held) return;
    this.chosen = ladder.choose(final);
    if (!this.chosen) return;
    const child = this.spawnFfmpeg();
    const held = this.held;
    this.held = undefined;
    this.run(child);
    for (const chunk of held) child.stdin.write(chunk);
  }

  private spawnFfmpeg(): Ffmpeg {
    const { ffmpegPath, ladder } = this.options;
    const chosen = this.chosen;
    if (!chosen || !transcodes(chosen.plan)) {
      return spawn(ffmpegPath, [...INPUT_ARGS, ...this.copyArgs()], { stdio: ['pipe', 'pipe', 'pipe'] });
    }
    this.playlist = path.join(this.dir, renditionPlaylist(SOURCE_RENDITION));
    const args = [
      ...INPUT_ARGS,
      '-progress',
      'pipe:1',
      ...ladderOutputArgs(chosen.plan, {
        dir: this.dir,
        segmentSeconds: this.segmentSeconds,
        preset: ladder?.preset ?? 'veryfast',
        hasAudio: chosen.hasAudio,
        playlistType: 'event',
      }),
    ];
    const child = spawn(ffmpegPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    if (child.pid !== undefined) chosen.ticket?.attach(child.pid);
    return child;
  }

  private copyArgs(): string[] {
    return [
      '-map',
      '0:v?',
      '-map',
      '0:a?',
      '-c',
      'copy',
      '-f',
      'hls',
      '-hls_time',
      String(this.segmentSeconds),
      '-hls_playlist_type',
      'event',
      '-hls_flags',
      // program_date_time: ffmpeg dates each segment from the wall clock when it started muxing.
      '+temp_file+independent_segments+program_date_time',
      '-hls_segment_filename',
      path.join(this.dir, 'seg%05d.ts'),
      this.playlist,
    ];
  }

  private run(child: Ffmpeg): void {
    this.child = child;
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-4000);
    });
    let partial = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) this.progress(line.trim());
    });
    // A publisher that drops mid-write leaves EPIPE here; the exit code tells the story.
    child.stdin.on('error', () => undefined);
    child.once('error', (error) => {
      this.settle(null, error);
    });
    child.once('close', (code) => {
      this.settle(code);
    });
  }

  /** One line of a transcoding ffmpeg's `-progress` report. */
  private progress(line: string): void {
    const speed = progressSpeed(line);
    if (speed !== undefined) this.chosen?.ticket?.reportSpeed(speed);
    const outTime = /^out_time_us=(\d+)$/.exec(line);
    if (outTime) this.packagedSeconds = Number(outTime[1]) / 1e6;
    if (line.startsWith('progress=')) this.checkLag();
  }

  private checkLag(): void {
    const { ladder, logger } = this.options;
    const chosen = this.chosen;
    if (this.behind || !ladder || !chosen || !transcodes(chosen.plan)) return;
    const received =
      this.firstInputMs === undefined || this.lastInputMs === undefined
        ? 0
        : (this.lastInputMs - this.firstInputMs) / 1000;
    const backlog = this.child?.stdin.writableLength ?? 0;
    if (received - this.packagedSeconds <= ladder.maxLagSeconds && backlog <= LADDER_BACKLOG_BYTES) return;
    this.behind = true;
    logger.warn(
      { lagSeconds: received - this.packagedSeconds, backlogBytes: backlog, speed: chosen.ticket?.speed },
      'the transcoder fell behind the publisher',
    );
    ladder.onBehind();
  }

  /** Reads the playlists once (one read at a time); a failing read is tried at the next poll. */
  private poll(): Promise<void> {
    this.polling ??= this.readPlaylists()
      .then(
        () => {
          this.failingReads = false;
        },
        (error: unknown) => {
          // One line for each run of failures.
          if (!this.failingReads) {
            this.options.logger.warn({ err: error, dir: this.dir }, 'could not read the packager playlist');
          }
          this.failingReads = true;
        },
      )
      .finally(() => {
        this.polling = undefined;
      });
    return this.polling;
  }

  private async readPlaylists(): Promise<void> {
    if (!this.child) return;
    const { segments } = await readPlaylist(this.playlist);
    if (segments.length > this.segmentCount) {
      this.segmentCount = segments.length;
      this.options.onSegments(segments);
    }
    const { ladder } = this.options;
    if (!this.chosen || !ladder) return;
    for (const rendition of this.chosen.plan.renditions) {
      if (rendition.copy) continue;
      const list = await readPlaylist(path.join(this.dir, renditionPlaylist(rendition.name)));
      if (list.segments.length > (this.renditionCounts.get(rendition.name) ?? 0)) {
        this.renditionCounts.set(rendition.name, list.segments.length);
        ladder.onRendition(rendition.name, list.segments);
      }
    }
  }

  private settle(code: number | null, spawnError?: Error): void {
    if (this.settled) return;
    this.settled = true;
    clearInterval(this.poller);
    this.chosen?.ticket?.release();
    // Wait out a read in flight, then read what ffmpeg wrote last.
    const lastRead = async () => {
      await this.polling;
      await this.readPlaylists();
    };
    void lastRead()
      .catch((error: unknown) => {
        // The publish still ends; the stream keeps the segments reported so far.
        this.options.logger.warn(
          { err: error, dir: this.dir },
          'could not read the last segments of a publish',
        );
      })
      .then(() => {
        this.resolveFinished({
          code,
          error: spawnError?.message ?? (code === 0 ? undefined : lastLines(this.stderr, 3) || undefined),
        });
      });
  }
}
