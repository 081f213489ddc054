// One simulcast destination: the publisher's FLV sent on, by stream copy, to another platform's
// RTMP or RTMPS ingest (YouTube, Twitch, Kick, Facebook, any server URL with a key), through an
// ffmpeg of its own. It is an FlvSink like the packager, so the ingest feeds it the same chunks
// (the FLV header, then one tag per chunk).
//
// A destination never disturbs the stream or the other destinations: writes never wait (a
// destination that cannot keep up has its backlog dropped up to the next keyframe), and a
// destination that refuses or drops is tried again with back-off, starting from the header,
// the sequence headers and the next keyframe, as a new encoder connection would. Its state
// (connecting, live, failing with the reason, stopped) is emitted as it changes. The stream key
// is a secret: it never appears in a reason or a log line.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import type { Logger } from 'pino';
import type { FlvSink } from '../rtmp/rtmp-server.ts';
import { tagKind } from '../rtmp/flv.ts';

export type RelayState =
  | { state: 'connecting' }
  | { state: 'live' }
  | { state: 'failing'; reason: string; retryInMs: number }
  | { state: 'stopped' };

export interface RtmpRelayOptions {
  ffmpegPath: string;
  /** The destination's server URL, `rtmp://` or `rtmps://`, without the key. */
  serverUrl: string;
  /** The stream key the destination gave the creator; appended to the server URL. */
  streamKey: string;
  logger: Logger;
  /** Names the destination in log lines (its id), never its key. */
  label: string;
  /** Delays before each reconnection, the last repeated; reset once live for `stableMs`. */
  backoffMs?: number[];
  stableMs?: number;
  /** Bytes waiting for a slow destination before its backlog is dropped to the next keyframe. */
  maxBacklogBytes?: number;
}

// At most 2 s between tries: a destination back from an outage is sent to within about 2 s.
const DEFAULT_BACKOFF_MS = [500, 1000, 2000];
const DEFAULT_STABLE_MS = 10_000;
const DEFAULT_MAX_BACKLOG = 8 * 1024 * 1024;
/** The media since the last keyframe kept for a reconnection, at most this much (then none). */
const MAX_GOP_BYTES = 8 * 1024 * 1024;

type Ffmpeg = ChildProcessByStdio<Writable, Readable, Readable>;

export class RtmpRelay extends EventEmitter<{ state: [RelayState] }> implements FlvSink {
  private readonly options: RtmpRelayOptions;
  private readonly backoffMs: number[];
  private current: RelayState = { state: 'connecting' };
  private ffmpeg: Ffmpeg | undefined;
  private header: Buffer | undefined;
  private videoConfig: Buffer | undefined;
  private audioConfig: Buffer | undefined;
  /** After a (re)connection or a dropped backlog, media resumes at a video keyframe. */
  private awaitingKeyframe = true;
  /**
   * The media since the latest video keyframe: a (re)connection starts with it instead of
   * waiting up to a keyframe interval for the next one (the destination gets that much as a
   * burst). Empty when it outgrew MAX_GOP_BYTES.
   */
  private gop: Buffer[] = [];
  private gopBytes = 0;
  private failures = 0;
  private liveSince = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private resolveClosed: () => void = () => undefined;
  /** Settles once the relay is stopped and its ffmpeg has exited. */
  readonly closed: Promise<void> = new Promise((resolve) => {
    this.resolveClosed = resolve;
  });

  constructor(options: RtmpRelayOptions) {
    super();
    this.options = options;
    this.backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
    this.connect();
  }

  get state(): RelayState {
    return this.current;
  }

  /** The ffmpeg sending to the destination now (its CPU is what a destination costs). */
  get pid(): number | undefined {
    return this.ffmpeg?.pid;
  }

  write(chunk: Buffer): void {
    if (this.stopped) return;
    const kind = tagKind(chunk);
    if (kind === 'header') this.header = chunk;
    else if (kind === 'video-config') this.videoConfig = chunk;
    else if (kind === 'audio-config') this.audioConfig = chunk;
    if (kind === 'keyframe') {
      this.gop = [chunk];
      this.gopBytes = chunk.length;
    } else if (kind === 'other' && this.gop.length > 0) {
      this.gopBytes += chunk.length;
      if (this.gopBytes <= MAX_GOP_BYTES) this.gop.push(chunk);
      else this.gop = [];
    }
    const input = this.ffmpeg?.stdin;
    if (!input?.writable) return;
    if (kind === 'header' || kind === 'video-config' || kind === 'audio-config') {
      input.write(chunk);
      return;
    }
    if (input.writableLength > (this.options.maxBacklogBytes ?? DEFAULT_MAX_BACKLOG)) {
      if (!this.awaitingKeyframe) {
        this.options.logger.warn(
          { destination: this.options.label },
          'simulcast destination is not keeping up; skipping to the next keyframe',
        );
      }
      this.awaitingKeyframe = true;
      return;
    }
    if (this.awaitingKeyframe) {
      if (kind !== 'keyframe') return;
      this.awaitingKeyframe = false;
    }
    input.write(chunk);
  }

  /** The publish ended: the destination is told (ffmpeg finishes its output) and not retried. */
  end(): void {
    this.stop();
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.retryTimer);
    const ffmpeg = this.ffmpeg;
    this.ffmpeg = undefined;
    if (ffmpeg) {
      // A destination that does not let go is not waited for.
      const kill = setTimeout(() => ffmpeg.kill('SIGKILL'), 5000).unref();
      ffmpeg.once('close', () => {
        clearTimeout(kill);
        this.resolveClosed();
      });
      ffmpeg.stdin.end();
    } else {
      this.resolveClosed();
    }
    this.setState({ state: 'stopped' });
  }

  private connect(): void {
    this.setState({ state: 'connecting' });
    const target = `${this.options.serverUrl.replace(/\/+$/, '')}/${this.options.streamKey}`;
    const ffmpeg = spawn(
      this.options.ffmpegPath,
      [
        ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-nostats'],
        ...['-progress', 'pipe:1', '-stats_period', '0.5'],
        ...['-f', 'flv', '-i', 'pipe:0', '-map', '0', '-c', 'copy', '-f', 'flv', target],
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    this.ffmpeg = ffmpeg;
    this.awaitingKeyframe = true;
    // A destination gone away closes the pipe; its exit says why, and the stream carries on.
    ffmpeg.stdin.on('error', () => undefined);
    let stderr = '';
    ffmpeg.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr = (stderr + text).slice(-2000);
    });
    ffmpeg.stdout.setEncoding('utf8').on('data', (text: string) => {
      // ffmpeg has opened the destination and written media to it.
      const sent = /total_size=(\d+)/.exec(text);
      if (sent && Number(sent[1]) > 0 && this.current.state !== 'live' && this.ffmpeg === ffmpeg) {
        this.liveSince = Date.now();
        this.setState({ state: 'live' });
      }
    });
    ffmpeg.once('error', (error) => {
      stderr = error.message;
    });
    ffmpeg.once('close', (code, signal) => {
      if (this.ffmpeg !== ffmpeg || this.stopped) return;
      this.ffmpeg = undefined;
      const wasStable =
        this.current.state === 'live' &&
        Date.now() - this.liveSince >= (this.options.stableMs ?? DEFAULT_STABLE_MS);
      this.failures = wasStable ? 1 : this.failures + 1;
      const retryInMs = this.backoffMs[Math.min(this.failures - 1, this.backoffMs.length - 1)] ?? 3000;
      const why =
        lastLine(stderr) ||
        (signal ? `ffmpeg was stopped (${signal})` : `ffmpeg exited with code ${String(code)}`);
      const reason = this.redact(why);
      this.options.logger.warn(
        { destination: this.options.label, reason, retryInMs },
        'simulcast destination failed; reconnecting',
      );
      this.setState({ state: 'failing', reason, retryInMs });
      this.retryTimer = setTimeout(() => {
        if (!this.stopped) this.connect();
      }, retryInMs);
    });
    // Whatever the destination was sent last time, a new connection starts like a new encoder:
    // the headers, then the media from the latest keyframe (or, without it, the next one).
    for (const start of [this.header, this.videoConfig, this.audioConfig]) {
      if (start) ffmpeg.stdin.write(start);
    }
    if (this.header && this.gop.length > 0) {
      for (const chunk of this.gop) ffmpeg.stdin.write(chunk);
      this.awaitingKeyframe = false;
    }
  }

  private setState(state: RelayState): void {
    this.current = state;
    this.emit('state', state);
  }

  /** The key must not reach a log line or an API answer, in any spelling ffmpeg may give it. */
  private redact(text: string): string {
    const key = this.options.streamKey;
    if (key === '') return text;
    return text.split(key).join('[key]').split(encodeURIComponent(key)).join('[key]');
  }
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1)?.trim().slice(0, 300) ?? '';
}
