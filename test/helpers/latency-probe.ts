// Glass-to-glass latency with a clock burned into the frames: the publisher (ffmpeg) stamps
// each frame with the wall-clock millisecond it was made, as 24 black or white 16x16 squares
// along the top edge (the time modulo 2^24 ms, about 4.6 hours, in binary), and its frame
// number as 16 more squares below them; the watch page in Chromium reads them back from each
// frame as it is shown (requestVideoFrameCallback, a canvas, a few pixels) and subtracts the
// stamp from the moment of display. Publisher, service and browser run on one machine, so
// they share one clock.
//
// Why not EXT-X-PROGRAM-DATE-TIME and hls.js's playingDate: ffmpeg dates segments from the
// moment its HLS muxer started (after probing the input) plus media time, so it says when the
// packager started, not when a frame reached the ingest, and it never sees what the browser
// really displays. The burned clock measures exactly what a viewer sees.
//
// Error bars: the stamp is taken when the frame is generated (timestamps at 1 ms resolution),
// before a zero-latency x264 encode (no lookahead, no B-frames: under a frame) and a loopback
// RTMP send, so on an idle machine the figure is at most a frame (~35 ms) above the
// ingest-to-screen latency; display times are Chromium's expected presentation times (within
// a 16 ms vsync). On a machine that other work keeps busy the publisher's encode falls behind,
// by a second and more: that is the test's encoder, not the service. `relayClockPattern`
// therefore hands each frame to the ingest itself and notes when (ffmpeg encodes into a pipe,
// the test sends its FLV tags over RTMP as they come), so a frame shown can be measured from
// when it reached the ingest too: the frame number burned into it says which one it is.
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { FlvTagSplitter } from './flv-splitter.ts';
import { startPush, type Push } from './media-tools.ts';
import { RtmpTestClient, setChunkSizeMessage } from './rtmp-client.ts';

export const CLOCK_BITS = 24;
/** Frame numbers are burned modulo 2^16: 36 minutes at 30 fps. */
export const FRAME_BITS = 16;
const BIT_SIZE = 16;
const FPS = 30;

/**
 * Pushes `seconds` of a 640x360 30 fps pattern with a tone in real time, each frame carrying
 * its wall-clock stamp and its number, with a keyframe every `keyframeSeconds` (1 for low
 * latency, as OBS's keyframe interval should be set; 2 otherwise).
 */
export function pushClockPattern(url: string, seconds: number, options: { keyframeSeconds: number }): Push {
  return startPush([...clockPattern(seconds, options.keyframeSeconds), '-f', 'flv', url]);
}

/** The stamped pattern's ffmpeg arguments, up to the output: video and AAC audio. */
function clockPattern(seconds: number, keyframeSeconds: number): string[] {
  const parts = clockPatternParts(keyframeSeconds);
  return [
    ...parts.inputs,
    '-t',
    String(seconds),
    ...parts.video,
    ...parts.audio,
    '-c:a',
    'aac',
    '-b:a',
    '96k',
  ];
}

/**
 * The stamped pattern in parts, for a caller that sends video and audio apart (a WHIP
 * publisher's two RTP streams, test/helpers/whip-client.ts): the two inputs (0: the stamped
 * video, 1: the tone), the video's filters and x264 settings, and the audio's filter (its
 * codec is the caller's).
 */
export function clockPatternParts(keyframeSeconds: number): {
  inputs: string[];
  video: string[];
  audio: string[];
} {
  const gop = String(Math.round(FPS * keyframeSeconds));
  const row = (y: number, bits: number, lit: (bit: number) => string) => [
    `drawbox=x=0:y=${y}:w=${bits * BIT_SIZE}:h=${BIT_SIZE}:color=black:t=fill`,
    ...Array.from(
      { length: bits },
      (_, bit) =>
        `drawbox=x=${bit * BIT_SIZE}:y=${y}:w=${BIT_SIZE}:h=${BIT_SIZE}:color=white:t=fill:enable='${lit(bit)}'`,
    ),
  ];
  return {
    inputs: [
      // Frames are stamped with the wall clock (in ms: settb) when they leave the paced source;
      // -copyts keeps that stamp as the filters' `t`. The output's timestamps then count frames
      // (setpts), so a late read on a busy machine delays a frame, as a busy encoder would,
      // without bending the media's timeline.
      '-copyts',
      '-use_wallclock_as_timestamps',
      '1',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=640x360:rate=${FPS},settb=1/1000,realtime`,
      // The tone is not paced itself (a second realtime filter halves the frame rate: ffmpeg
      // reads its inputs in one thread): ffmpeg reads it only as far as the video has got.
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=48000',
    ],
    video: [
      '-vf',
      [
        ...row(0, CLOCK_BITS, (bit) => `mod(floor(t*1000/${2 ** bit}),2)`),
        ...row(BIT_SIZE, FRAME_BITS, (bit) => `mod(floor(n/${2 ** bit}),2)`),
        `setpts=N/(${FPS}*TB)`,
      ].join(','),
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-tune',
      'zerolatency',
      '-pix_fmt',
      'yuv420p',
      '-g',
      gop,
      '-keyint_min',
      gop,
      '-sc_threshold',
      '0',
      '-b:v',
      '1500k',
    ],
    audio: ['-af', 'asetpts=N/SR/TB'],
  };
}

export interface RelayedPush {
  /** When the push was started (epoch ms). */
  startedAt: number;
  /** When frame `frame` (as burned, modulo 2^FRAME_BITS) was handed to the ingest (epoch ms). */
  sentAt(frame: number): number | undefined;
  /** Kills the encoder and drops the connection, as a crashed encoder or a pulled cable would. */
  stop(): void;
}

/**
 * The stamped pattern of `pushClockPattern`, encoded by ffmpeg into a pipe and published to
 * `url` (rtmp://host:port/app/key) by the test itself, which notes when each frame went out.
 */
export async function relayClockPattern(
  url: string,
  seconds: number,
  options: { keyframeSeconds: number },
): Promise<RelayedPush> {
  const startedAt = Date.now();
  const target = new URL(url);
  const [, app, key] = target.pathname.split('/');
  const client = await RtmpTestClient.open(Number(target.port), { host: target.hostname });
  client.write(setChunkSizeMessage(65_536));
  client.outChunkSize = 65_536;
  client.startPublish(app!, key!);
  const encoder = spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      ...clockPattern(seconds, options.keyframeSeconds),
      // Each packet as soon as it is muxed, not when the pipe's buffer is full.
      '-flush_packets',
      '1',
      '-f',
      'flv',
      'pipe:1',
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const sent = new Map<number, number>();
  let firstPicture: number | undefined;
  encoder.stdout.pipe(new FlvTagSplitter()).on('data', (chunk: Buffer) => {
    if (chunk.length < 15) return; // the file header
    const type = chunk[0]! & 0x1f;
    if (type !== 8 && type !== 9) return; // metadata: the ingest reads the streams from the media
    const payload = chunk.subarray(11, 11 + chunk.readUIntBE(1, 3));
    const timestamp = (chunk.readUIntBE(4, 3) | (chunk[7]! << 24)) >>> 0;
    client.sendMessage(type, payload, { streamId: 1, timestamp, csid: type === 8 ? 4 : 6 });
    // An AVC picture (not the decoder configuration). The timestamps count frames, from
    // where the muxer put the first (after the audio encoder's delay).
    if (type === 9 && payload[1] === 1) {
      firstPicture ??= timestamp;
      sent.set(Math.round(((timestamp - firstPicture) * FPS) / 1000) % 2 ** FRAME_BITS, Date.now());
    }
  });
  return {
    startedAt,
    sentAt: (frame) => sent.get(frame),
    stop: () => {
      encoder.kill('SIGKILL');
      client.close();
    },
  };
}

/**
 * Before the watch page loads: keeps its hls.js player where `readPlayer` finds it, and counts
 * the stalls hls.js reports. (The page makes its player in a closure; this wraps the Hls class
 * the page's script defines.)
 */
export async function exposePlayer(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const g = globalThis as any;
    let wrapped: any;
    g.__playerStalls = 0;
    Object.defineProperty(g, 'Hls', {
      configurable: true,
      get: () => wrapped,
      set: (Hls: any) => {
        wrapped = class extends Hls {
          constructor(config: unknown) {
            super(config);
            g.__player = this;
            this.on(Hls.Events.ERROR, (_event: unknown, data: { details: string }) => {
              if (data.details === Hls.ErrorDetails.BUFFER_STALLED_ERROR) g.__playerStalls++;
            });
          }
        };
      },
    });
  });
}

export interface PlayerState {
  /** hls.js's target distance behind the live edge (s): liveSyncDuration plus its stall increases. */
  targetLatency: number;
  /** Stalls hls.js reported since the page loaded. */
  stalls: number;
}

/** The exposed player's target latency and stall count (see exposePlayer). */
export async function readPlayer(page: Page): Promise<PlayerState> {
  return page.evaluate(() => {
    const g = globalThis as any;
    return { targetLatency: g.__player.targetLatency as number, stalls: g.__playerStalls as number };
  });
}

/**
 * Starts reading the stamp of every frame the page's player shows; samples (display time and
 * latency in ms) pile up in the page until `readLatencySamples` takes them.
 */
export async function startLatencyProbe(page: Page): Promise<void> {
  await page.evaluate(
    ({ bits, frameBits, size }) => {
      const g = globalThis as any;
      if (g.__latencySamples) return;
      const samples: { at: number; ms: number; frame: number }[] = [];
      g.__latencySamples = samples;
      g.__latencyRejected = 0;
      const video = g.document.querySelector('#player');
      const canvas = g.document.createElement('canvas');
      canvas.width = bits * size;
      canvas.height = 2 * size;
      const context = canvas.getContext('2d', { willReadFrequently: true });
      const modulo = 2 ** bits;
      const onFrame = (_now: number, metadata: { expectedDisplayTime: number }) => {
        video.requestVideoFrameCallback(onFrame);
        if (video.videoWidth < bits * size) return;
        context.drawImage(video, 0, 0, bits * size, 2 * size, 0, 0, bits * size, 2 * size);
        const pixels = context.getImageData(0, 0, bits * size, 2 * size).data as Uint8ClampedArray;
        // The number a row of squares spells; undefined when a square is neither black nor
        // white: not a stamped frame (or a damaged one); never guess.
        const read = (row: number, count: number): number | undefined => {
          let value = 0;
          for (let bit = 0; bit < count; bit++) {
            const offset = ((row * size + size / 2) * bits * size + bit * size + size / 2) * 4;
            const luma = (pixels[offset]! + pixels[offset + 1]! + pixels[offset + 2]!) / 3;
            if (luma > 70 && luma < 185) return undefined;
            if (luma >= 185) value += 2 ** bit;
          }
          return value;
        };
        const stamp = read(0, bits);
        const frame = read(1, frameBits);
        if (stamp === undefined || frame === undefined) {
          g.__latencyRejected++;
          return;
        }
        const shown = (g.performance.timeOrigin as number) + metadata.expectedDisplayTime;
        let latency = (((shown - stamp) % modulo) + modulo) % modulo;
        if (latency > modulo / 2) latency -= modulo;
        samples.push({ at: shown, ms: latency, frame });
      };
      video.requestVideoFrameCallback(onFrame);
    },
    { bits: CLOCK_BITS, frameBits: FRAME_BITS, size: BIT_SIZE },
  );
}

export interface LatencySample {
  /** When the frame was shown (epoch ms). */
  at: number;
  /** How long after it was stamped: glass to glass, the publisher's encode included. */
  ms: number;
  /** The frame's number in its push (modulo 2^FRAME_BITS). */
  frame: number;
}

/** Takes the samples gathered since the last call. */
export async function readLatencySamples(
  page: Page,
): Promise<{ samples: LatencySample[]; rejected: number }> {
  return page.evaluate(() => {
    const g = globalThis as any;
    const samples = g.__latencySamples.splice(0) as LatencySample[];
    const rejected = g.__latencyRejected as number;
    g.__latencyRejected = 0;
    return { samples, rejected };
  });
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * The wall-clock stamp (epoch ms) of the first frame of a media file or URL, decoded with
 * ffmpeg: when that frame was made, which a segment's program date should match.
 */
export async function firstFrameStamp(input: string): Promise<number> {
  const width = CLOCK_BITS * BIT_SIZE;
  const raw = await promisify(execFile)(
    'ffmpeg',
    [
      ...['-v', 'error', '-i', input, '-frames:v', '1'],
      ...['-vf', `crop=${width}:${BIT_SIZE}:0:0,format=gray`, '-f', 'rawvideo', '-'],
    ],
    { encoding: 'buffer', maxBuffer: 1 << 20 },
  );
  const row = raw.stdout.subarray((BIT_SIZE / 2) * width, (BIT_SIZE / 2 + 1) * width);
  let stamp = 0;
  for (let bit = 0; bit < CLOCK_BITS; bit++) {
    const luma = row[bit * BIT_SIZE + BIT_SIZE / 2]!;
    if (luma > 70 && luma < 185) throw new Error(`the first frame of ${input} carries no readable stamp`);
    if (luma >= 185) stamp += 2 ** bit;
  }
  const modulo = 2 ** CLOCK_BITS;
  const now = Date.now();
  return now - ((((now - stamp) % modulo) + modulo) % modulo);
}

/**
 * How far into a media file or URL its first video frame comes (ms from its first packet): a
 * segment's program date is that of its first packet, and the publisher's audio starts one
 * AAC frame (1024 samples, 21 ms) before its video, the encoder's delay.
 */
export async function firstFrameOffset(input: string): Promise<number> {
  const { stdout } = await promisify(execFile)('ffprobe', [
    ...['-v', 'error', '-show_entries', 'packet=codec_type,pts_time', '-of', 'csv=p=0', input],
  ]);
  // A segment interleaves its audio after the video it goes with: every packet is read.
  const packets = stdout
    .split('\n')
    .map((line) => line.split(','))
    .filter(([type, pts]) => (type === 'video' || type === 'audio') && pts !== undefined && pts !== '')
    .map(([type, pts]) => ({ type, pts: Number(pts) }));
  const video = packets.filter((packet) => packet.type === 'video').map((packet) => packet.pts);
  if (video.length === 0) throw new Error(`${input} has no video`);
  const start = Math.min(...packets.map((packet) => packet.pts));
  return Math.round((Math.min(...video) - start) * 1000);
}
