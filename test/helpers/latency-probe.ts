// Glass-to-glass latency with a clock burned into the frames: the publisher (ffmpeg) stamps
// each frame with the wall-clock millisecond it was made, as 24 black or white 16x16 squares
// along the top edge (the time modulo 2^24 ms, about 4.6 hours, in binary), and the watch
// page in Chromium reads them back from each frame as it is shown (requestVideoFrameCallback,
// a canvas, a few pixels) and subtracts the stamp from the moment of display. Publisher,
// service and browser run on one machine, so they share one clock.
//
// Why not EXT-X-PROGRAM-DATE-TIME and hls.js's playingDate: ffmpeg dates segments from the
// moment its HLS muxer started (after probing the input) plus media time, so it says when the
// packager started, not when a frame reached the ingest, and it never sees what the browser
// really displays. The burned clock measures exactly what a viewer sees.
//
// Error bars: the stamp is taken when the frame is generated (timestamps at 1 ms resolution),
// before a zero-latency x264 encode (no lookahead, no B-frames: under a frame) and a loopback
// RTMP send, so the figure is at most a frame (~35 ms) above the ingest-to-screen latency;
// display times are Chromium's expected presentation times (within a 16 ms vsync).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { startPush, type Push } from './media-tools.ts';

export const CLOCK_BITS = 24;
const BIT_SIZE = 16;

/**
 * Pushes `seconds` of a 640x360 30 fps pattern with a tone in real time, each frame carrying
 * its wall-clock stamp, with a keyframe every `keyframeSeconds` (1 for low latency, as OBS's
 * keyframe interval should be set; 2 otherwise).
 */
export function pushClockPattern(url: string, seconds: number, options: { keyframeSeconds: number }): Push {
  const fps = 30;
  const gop = String(Math.round(fps * options.keyframeSeconds));
  const squares = Array.from(
    { length: CLOCK_BITS },
    (_, bit) =>
      `drawbox=x=${bit * BIT_SIZE}:y=0:w=${BIT_SIZE}:h=${BIT_SIZE}:color=white:t=fill:` +
      `enable='mod(floor(t*1000/${2 ** bit}),2)'`,
  );
  return startPush([
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
    `testsrc=size=640x360:rate=${fps},settb=1/1000,realtime`,
    // The tone is not paced itself (a second realtime filter halves the frame rate: ffmpeg
    // reads its inputs in one thread): ffmpeg reads it only as far as the video has got.
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000',
    '-t',
    String(seconds),
    '-vf',
    [
      `drawbox=x=0:y=0:w=${CLOCK_BITS * BIT_SIZE}:h=${BIT_SIZE}:color=black:t=fill`,
      ...squares,
      `setpts=N/(${fps}*TB)`,
    ].join(','),
    '-af',
    'asetpts=N/SR/TB',
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
    '-c:a',
    'aac',
    '-b:a',
    '96k',
    '-f',
    'flv',
    url,
  ]);
}

/**
 * Starts reading the stamp of every frame the page's player shows; samples (display time and
 * latency in ms) pile up in the page until `readLatencySamples` takes them.
 */
export async function startLatencyProbe(page: Page): Promise<void> {
  await page.evaluate(
    ({ bits, size }) => {
      const g = globalThis as any;
      if (g.__latencySamples) return;
      const samples: { at: number; ms: number }[] = [];
      g.__latencySamples = samples;
      g.__latencyRejected = 0;
      const video = g.document.querySelector('#player');
      const canvas = g.document.createElement('canvas');
      canvas.width = bits * size;
      canvas.height = size;
      const context = canvas.getContext('2d', { willReadFrequently: true });
      const modulo = 2 ** bits;
      const onFrame = (_now: number, metadata: { expectedDisplayTime: number }) => {
        video.requestVideoFrameCallback(onFrame);
        if (video.videoWidth < bits * size) return;
        context.drawImage(video, 0, 0, bits * size, size, 0, 0, bits * size, size);
        const pixels = context.getImageData(0, 0, bits * size, size).data as Uint8ClampedArray;
        let stamp = 0;
        for (let bit = 0; bit < bits; bit++) {
          const offset = ((size / 2) * bits * size + bit * size + size / 2) * 4;
          const luma = (pixels[offset]! + pixels[offset + 1]! + pixels[offset + 2]!) / 3;
          // Neither black nor white: not a stamped frame (or a damaged one); never guess.
          if (luma > 70 && luma < 185) {
            g.__latencyRejected++;
            return;
          }
          if (luma >= 185) stamp += 2 ** bit;
        }
        const shown = (g.performance.timeOrigin as number) + metadata.expectedDisplayTime;
        let latency = (((shown - stamp) % modulo) + modulo) % modulo;
        if (latency > modulo / 2) latency -= modulo;
        samples.push({ at: shown, ms: latency });
      };
      video.requestVideoFrameCallback(onFrame);
    },
    { bits: CLOCK_BITS, size: BIT_SIZE },
  );
}

export interface LatencySample {
  /** When the frame was shown (epoch ms). */
  at: number;
  /** How long after it was stamped. */
  ms: number;
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
