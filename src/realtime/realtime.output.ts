// The RTMP realtime path as an output of a live publish (src/live/publish-output.ts): for a
// `realtime` stream, the publisher's FLV also goes to an ffmpeg of its own that sends RTP to
// the stream's feed on loopback (src/realtime/realtime-feed.ts): H.264 (copied when the
// encoder's picture is Baseline or Main without B-frames, which WebRTC browsers decode; else
// re-encoded Baseline, no B-frames, a keyframe every second) and Opus (AAC transcoded).
//
// The copy-or-encode choice is made from the publish's first frames: the run holds them until
// it has seen the decoder configuration and a few frames' composition times (B-frames show as
// non-zero ones), about a third of a second, then starts ffmpeg with them. A re-encode is
// reported in the stream's ingest.health, with what to change in OBS.
//
// Like every output, it never disturbs the publish: writes never wait (past MAX_BACKLOG bytes
// unread by ffmpeg, media is dropped up to the next keyframe), and an ffmpeg that exits is
// started again from the next keyframe, a few times.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import type { Logger } from 'pino';
import type { IngestHealthBoard } from '../ingest/health/health-board.ts';
import type { OutputRun, PublishInfo, PublishOutput } from '../live/publish-output.ts';
import type { FlvSink } from '../rtmp/rtmp-server.ts';
import { tagKind } from '../rtmp/flv.ts';
import type { RealtimeHub } from './realtime-hub.ts';

/** Video frames whose composition times are read before the choice (B-frames show within a GOP's first few). */
const FRAMES_TO_JUDGE = 10;
const MAX_BACKLOG = 2 * 1024 * 1024;
/** Tags held at most before the choice (audio-only publishes). */
const MAX_HELD = 200;
const MAX_RESTARTS = 5;
const RESTART_DELAY_MS = 500;

/** Why the realtime picture is re-encoded (null: copied as sent). */
export type RealtimeVideoReason = 'b_frames' | 'profile' | 'codec';

export interface RealtimeVideoDecision {
  mode: 'copy' | 'encode';
  reason: RealtimeVideoReason | undefined;
  /** The H.264 profile_idc the encoder sent (66 Baseline, 77 Main, 100 High), if H.264. */
  profile: number | undefined;
}

type Ffmpeg = ChildProcessByStdio<Writable, null, Readable>;

export interface RealtimeOutputOptions {
  hub: RealtimeHub;
  health: IngestHealthBoard;
  ffmpegPath: string;
}

export class RealtimeOutput implements PublishOutput {
  readonly name = 'realtime';
  private readonly options: RealtimeOutputOptions;

  constructor(options: RealtimeOutputOptions) {
    this.options = options;
  }

  async open(publish: PublishInfo): Promise<OutputRun | undefined> {
    if (publish.latencyMode !== 'realtime') return undefined;
    const { hub } = this.options;
    const { feed, videoPort, audioPort } = await hub.attach(publish.streamId);
    const run = new RealtimeRun({
      ...this.options,
      logger: publish.logger.child({ output: 'realtime' }),
      streamId: publish.streamId,
      videoPort,
      audioPort,
      onRestart: () => {
        feed.restarted();
      },
      onSources: (ssrcs) => {
        feed.expect(ssrcs.video, ssrcs.audio);
      },
      onDecision: (decision) => {
        // Re-encoded pictures are Baseline; copied ones keep the encoder's profile.
        feed.profile = decision.mode === 'copy' ? decision.profile : 66;
      },
    });
    void run.finished.then(() => {
      hub.detach(publish.streamId, feed);
    });
    return run;
  }
}

/** Reads an FLV video tag: its codec, and for AVC its packet type and composition time. */
export function videoTagInfo(chunk: Buffer): { codec: number; packetType: number; cts: number } | undefined {
  if (chunk[0] !== 9 || chunk.length < 16) return undefined;
  const first = chunk[11] ?? 0;
  return { codec: first & 0x0f, packetType: chunk[12] ?? 0, cts: chunk.readIntBE(13, 3) };
}

/** The choice for what the first frames showed. */
export function decideVideo(
  profile: number | undefined,
  codec: number,
  sawBFrames: boolean,
): RealtimeVideoDecision {
  if (codec !== 7) return { mode: 'encode', reason: 'codec', profile };
  if (sawBFrames) return { mode: 'encode', reason: 'b_frames', profile };
  // Baseline (66), Main (77) and High (100) without B-frames are what browsers decode; High
  // 10, 4:2:2 and 4:4:4 encodes (110, 122, 244) are not offered for receiving by all of them.
  if (profile !== 66 && profile !== 77 && profile !== 100)
    return { mode: 'encode', reason: 'profile', profile };
  return { mode: 'copy', reason: undefined, profile };
}

/** ffmpeg's arguments for one run: FLV on stdin, RTP to the feed's two loopback ports. */
export function realtimeArgs(
  decision: RealtimeVideoDecision,
  ports: { video: number; audio: number },
  audio: boolean,
  ssrcs: { video: number; audio: number },
): string[] {
  const rtp = (port: number) => `rtp://127.0.0.1:${port}?rtcpport=${port}&pkt_size=1200`;
  const video =
    decision.mode === 'copy'
      ? ['-c:v', 'copy', '-bsf:v', 'h264_mp4toannexb']
      : [
          '-vf',
          "scale=-2:'min(720,ih)':flags=fast_bilinear",
          '-c:v',
          'libx264',
          '-preset',
          'veryfast',
          '-tune',
          'zerolatency',
          '-profile:v',
          'baseline',
          '-bf',
          '0',
          '-pix_fmt',
          'yuv420p',
          '-force_key_frames',
          'expr:gte(t,n_forced*1)',
          '-b:v',
          '2500k',
          '-maxrate',
          '2500k',
          '-bufsize',
          '1250k',
          '-x264-params',
          'repeat-headers=1',
        ];
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-fflags',
    'nobuffer',
    '-flags',
    'low_delay',
    '-probesize',
    '65536',
    '-analyzeduration',
    '300000',
    '-f',
    'flv',
    '-i',
    'pipe:0',
    '-map',
    '0:v:0',
    ...video,
    '-ssrc',
    String(ssrcs.video),
    '-f',
    'rtp',
    rtp(ports.video),
    ...(audio
      ? [
          '-map',
          '0:a:0',
          '-c:a',
          'libopus',
          '-application',
          'lowdelay',
          '-frame_duration',
          '20',
          '-b:a',
          '96k',
          '-ar',
          '48000',
          '-ac',
          '2',
          '-ssrc',
          String(ssrcs.audio),
          '-f',
          'rtp',
          rtp(ports.audio),
        ]
      : []),
  ];
}

class RealtimeRun implements OutputRun {
  readonly sink: FlvSink;
  readonly finished: Promise<void>;
  private resolveFinished: () => void = () => undefined;
  private readonly options: RealtimeOutputOptions & {
    logger: Logger;
    streamId: string;
    videoPort: number;
    audioPort: number;
    onRestart: () => void;
    onDecision: (decision: RealtimeVideoDecision) => void;
    onSources: (ssrcs: { video: number; audio: number }) => void;
  };
  private header: Buffer | undefined;
  private videoConfig: Buffer | undefined;
  private audioConfig: Buffer | undefined;
  /** Tags held until the choice is made. */
  private held: Buffer[] | undefined = [];
  private framesJudged = 0;
  private sawBFrames = false;
  private decision: RealtimeVideoDecision | undefined;
  private ffmpeg: Ffmpeg | undefined;
  private awaitingKeyframe = false;
  private restarts = 0;
  private stopped = false;

  constructor(options: RealtimeRun['options']) {
    this.options = options;
    this.finished = new Promise((resolve) => {
      this.resolveFinished = resolve;
    });
    this.sink = {
      write: (chunk) => {
        this.write(chunk);
      },
      end: () => {
        this.end(false);
      },
    };
  }

  stop(): void {
    this.end(true);
  }

  private write(chunk: Buffer): void {
    if (this.stopped) return;
    const kind = tagKind(chunk);
    if (kind === 'header') this.header = chunk;
    else if (kind === 'video-config') this.videoConfig = chunk;
    else if (kind === 'audio-config') this.audioConfig = chunk;
    if (this.held) {
      this.held.push(chunk);
      const info = videoTagInfo(chunk);
      if (info && (info.codec !== 7 || info.packetType === 1)) {
        this.framesJudged++;
        if (info.cts !== 0) this.sawBFrames = true;
      }
      // An encoder sending no video (or a codec other than H.264) is judged at once or soon.
      if (this.framesJudged >= FRAMES_TO_JUDGE || (info && info.codec !== 7) || this.held.length > MAX_HELD)
        this.decide(info?.codec ?? 7);
      return;
    }
    this.send(chunk, kind);
  }

  private decide(codec: number): void {
    const held = this.held ?? [];
    this.held = undefined;
    // AVCDecoderConfigurationRecord: version, then AVCProfileIndication (tag body offset 5 + 1).
    const profile = this.videoConfig && this.videoConfig.length > 17 ? this.videoConfig[17] : undefined;
    const decision = decideVideo(profile, codec, this.sawBFrames);
    this.decision = decision;
    this.options.health.realtime(this.options.streamId, decision);
    this.options.onDecision(decision);
    this.options.logger.info(
      { video: decision.mode, reason: decision.reason, profile },
      decision.mode === 'copy'
        ? 'realtime: H.264 sent to WebRTC viewers as the encoder made it'
        : `realtime: the picture is re-encoded for WebRTC viewers (${decision.reason ?? ''})`,
    );
    this.start();
    for (const chunk of held) this.send(chunk, tagKind(chunk));
  }

  private start(): void {
    if (!this.decision) return;
    // Each run's own SSRCs: the feed takes only these (nothing else sending to its ports).
    const ssrcs = { video: positiveSsrc(), audio: positiveSsrc() };
    this.options.onSources(ssrcs);
    const ffmpeg = spawn(
      this.options.ffmpegPath,
      realtimeArgs(
        this.decision,
        { video: this.options.videoPort, audio: this.options.audioPort },
        this.audioConfig !== undefined,
        ssrcs,
      ),
      { stdio: ['pipe', 'ignore', 'pipe'] },
    );
    this.ffmpeg = ffmpeg;
    let stderr = '';
    ffmpeg.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr = (stderr + text).slice(-2000);
    });
    // A broken pipe is the exit's to report.
    ffmpeg.stdin.on('error', () => undefined);
    ffmpeg.on('error', (error) => {
      stderr = error.message;
    });
    ffmpeg.on('close', (code) => {
      if (this.ffmpeg === ffmpeg) this.ffmpeg = undefined;
      if (this.stopped) {
        this.resolveFinished();
        return;
      }
      this.options.logger.warn(
        { code, stderr: stderr.trim().split('\n').slice(-3).join(' | ') },
        'realtime ffmpeg exited during the publish',
      );
      if (this.restarts >= MAX_RESTARTS) return;
      this.restarts++;
      setTimeout(() => {
        if (this.stopped) return;
        this.options.onRestart();
        this.start();
        this.awaitingKeyframe = true;
        for (const config of [this.header, this.videoConfig, this.audioConfig])
          if (config) this.writeToFfmpeg(config);
      }, RESTART_DELAY_MS).unref();
    });
  }

  private send(chunk: Buffer, kind: ReturnType<typeof tagKind>): void {
    const stdin = this.ffmpeg?.stdin;
    if (!stdin) return;
    if (this.awaitingKeyframe) {
      if (kind !== 'keyframe' && kind !== 'header' && kind !== 'video-config' && kind !== 'audio-config')
        return;
      if (kind === 'keyframe') this.awaitingKeyframe = false;
    }
    if (stdin.writableLength > MAX_BACKLOG && kind !== 'keyframe') {
      this.awaitingKeyframe = true;
      return;
    }
    this.writeToFfmpeg(chunk);
  }

  private writeToFfmpeg(chunk: Buffer): void {
    const stdin = this.ffmpeg?.stdin;
    if (stdin && !stdin.destroyed) stdin.write(chunk);
  }

  private end(abrupt: boolean): void {
    if (this.stopped) return;
    this.stopped = true;
    const ffmpeg = this.ffmpeg;
    if (!ffmpeg) {
      this.resolveFinished();
      return;
    }
    if (abrupt) ffmpeg.kill('SIGKILL');
    else {
      ffmpeg.stdin.end();
      setTimeout(() => ffmpeg.kill('SIGKILL'), 3000).unref();
    }
  }
}

/** An SSRC ffmpeg's -ssrc takes (a positive int). */
function positiveSsrc(): number {
  return 1 + (randomBytes(4).readUInt32BE(0) % 0x7ffffffe);
}
