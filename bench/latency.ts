// Live latency as a viewer sees it, per latency_mode: `measureLatency({ mode, seconds })` runs
// the service as `npm start` runs it (bin/tributary.js serve, on a fresh SQLite file), pushes a
// 640x360 30 fps test pattern whose frames carry the wall-clock millisecond they were made
// (test/helpers/latency-probe.ts), plays the stream's watch page in headless Chromium and
// compares each shown frame's stamp with the moment Chromium presents it. The figures are
// percentiles over every frame shown during `seconds` (30 a second), after playback started.
//
// A bench that already runs a server (`npm run bench -- --ingest`) passes `server` instead:
// its base URL (PUBLIC_URL) and a write-scoped key; the stream is created through its API.
//
// Error bars: stamps are taken as frames leave the pattern generator, before a zero-latency
// x264 encode (under a frame) and a loopback RTMP send, so a figure is at most ~35 ms above the
// ingest-to-screen latency; presentation times are within a 16 ms vsync.
//
// `ingest: 'whip'` publishes the same stamped pattern over WHIP instead of RTMP (a realtime
// stream published as OBS 30 publishes over WHIP). Debian's ffmpeg 5.1 has no WHIP muxer, so
// the publisher is test/helpers/whip-client.ts: the same ffmpeg x264 encode (same settings,
// same stamps) sent as RTP through a node-datachannel peer connection, with the stream key as
// the bearer token, the POST, the Location and the DELETE at the end. Chosen over Chromium
// publishing a stamped canvas because the encoder then stays the one the RTMP figure is
// measured with (x264, zero-latency, a 1 s GOP), so the two figures differ only by the ingest
// path; Chromium's encoder would adapt its resolution and rate to the loaded machine (the
// 16-pixel stamp squares may not survive a downscale) and add canvas capture to the figure.
// libdatachannel is also what OBS's WHIP output is built on.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import nodeDataChannel from 'node-datachannel';
import { chromium, type Page } from 'playwright-core';
import {
  percentile,
  pushClockPattern,
  readLatencySamples,
  startLatencyProbe,
  type LatencySample,
} from '../test/helpers/latency-probe.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH, WEBRTC_LOOPBACK_ARGS } from '../test/helpers/media-browser.ts';
import { publishClockPatternOverWhip } from '../test/helpers/whip-client.ts';
import { startBenchService } from './processes.ts';

export type LatencyMode = 'normal' | 'low' | 'realtime';

/** The issues' targets for the p50, in ms (issue 30's for realtime, played over WebRTC). */
export const LATENCY_TARGET_MS: Record<LatencyMode, number> = { normal: 6000, low: 3500, realtime: 500 };
/** And for the p90, where an issue set one. */
export const LATENCY_P90_TARGET_MS: Partial<Record<LatencyMode, number>> = { realtime: 800 };

/** How the stamped pattern reaches the service. */
export type LatencyIngest = 'rtmp' | 'whip';

export interface LatencyFigures {
  mode: LatencyMode;
  ingest: LatencyIngest;
  method: 'burned-in wall clock, read per shown frame in Chromium';
  seconds: number;
  frames: number;
  /** Frames whose stamp could not be read (should be 0). */
  unreadable: number;
  p50Ms: number;
  p90Ms: number;
  minMs: number;
  maxMs: number;
  targetMs: number;
  p90TargetMs: number | undefined;
  /** How the page played: `webrtc` (WHEP) for realtime, `hls` otherwise. */
  transport: string;
  /** The p50 (and the p90, where set) is under the target. */
  met: boolean;
}

export interface MeasureLatencyOptions {
  mode: LatencyMode;
  /** RTMP (the default) or WHIP (a realtime stream, as OBS 30 publishes over WebRTC). */
  ingest?: LatencyIngest;
  /** How long to measure once playback has started (the bench's figure uses 120). */
  seconds: number;
  /** A running service to measure instead of starting one. */
  server?: { baseUrl: string; writeKey: string };
  log?: (line: string) => void;
}

const SERVICE_PORT = 18_095;
const RTMP_PORT = 19_395;

export async function measureLatency(options: MeasureLatencyOptions): Promise<LatencyFigures> {
  const log = options.log ?? (() => undefined);
  const cleanups: (() => Promise<void> | void)[] = [];
  try {
    if (!options.server) log('Starting the service ...');
    const server =
      options.server ??
      (await startBenchService({
        name: 'latency',
        port: SERVICE_PORT,
        rtmpPort: RTMP_PORT,
        logLevel: 'info',
        cleanups,
      }));
    const auth = { authorization: `Bearer ${server.writeKey}`, 'content-type': 'application/json' };
    const response = await fetch(`${server.baseUrl}/v1/streams`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        title: `Latency bench (${options.mode}, ${options.ingest ?? 'rtmp'})`,
        latency_mode: options.mode,
      }),
    });
    const stream = (await response.json()) as {
      id: string;
      stream_url: string;
      ingest?: { rtmp_url: string; stream_key: string };
    };
    if (response.status !== 201 || !stream.ingest) {
      throw new Error(`could not create a stream (${response.status}): ${JSON.stringify(stream)}`);
    }
    const ingest = options.ingest ?? 'rtmp';
    const keyframeSeconds = options.mode === 'normal' ? 2 : 1;
    if (ingest === 'whip') {
      const publish = await publishClockPatternOverWhip(
        `${server.baseUrl}/v1/whip`,
        stream.ingest.stream_key,
        options.seconds + 120,
        { keyframeSeconds },
      );
      cleanups.push(async () => {
        await publish.stop();
        // node-datachannel's threads would keep the bench's process alive.
        nodeDataChannel.cleanup();
      });
    } else {
      const push = pushClockPattern(
        `${stream.ingest.rtmp_url}/${stream.ingest.stream_key}`,
        options.seconds + 120,
        { keyframeSeconds },
      );
      cleanups.push(() => {
        push.stop();
      });
    }
    await until(
      'the stream to go live',
      async () => {
        const read = await fetch(`${server.baseUrl}/v1/streams/${stream.id}`, { headers: auth });
        return ((await read.json()) as { status: string }).status === 'live';
      },
      30_000,
    );

    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-chromium-'));
    const browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      // WebRTC on loopback needs its candidates there (../shared/notes/webrtc.md).
      args: options.mode === 'realtime' ? [...CHROMIUM_ARGS, ...WEBRTC_LOOPBACK_ARGS] : CHROMIUM_ARGS,
    });
    cleanups.push(async () => {
      await browser.close();
      fs.rmSync(profile, { recursive: true, force: true });
    });
    const page = await browser.newPage();
    await page.goto(stream.stream_url);
    await page.waitForFunction(
      () => {
        const video = (globalThis as any).document.querySelector('#player');
        return video.currentTime > 1 && !video.paused;
      },
      undefined,
      { timeout: 30_000, polling: 200 },
    );
    const transport = String(
      await page.evaluate(() => (globalThis as any).document.getElementById('player-box').dataset.transport),
    );
    if (options.mode === 'realtime' && transport !== 'webrtc')
      throw new Error(`the realtime stream played over ${transport}, not WebRTC`);
    await startLatencyProbe(page);
    log(`Measuring ${options.mode} latency (${ingest} ingest) for ${options.seconds} s ...`);
    const { samples, unreadable } = await collect(page, options.seconds);
    const ms = samples.map((sample) => sample.ms);
    const p50Ms = Math.round(percentile(ms, 50));
    const targetMs = LATENCY_TARGET_MS[options.mode];
    const p90Ms = Math.round(percentile(ms, 90));
    const p90TargetMs = LATENCY_P90_TARGET_MS[options.mode];
    return {
      mode: options.mode,
      ingest,
      method: 'burned-in wall clock, read per shown frame in Chromium',
      seconds: options.seconds,
      frames: ms.length,
      unreadable,
      p50Ms,
      p90Ms,
      minMs: Math.round(Math.min(...ms)),
      maxMs: Math.round(Math.max(...ms)),
      targetMs,
      p90TargetMs,
      transport,
      met: p50Ms < targetMs && (p90TargetMs === undefined || p90Ms < p90TargetMs),
    };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

/** Samples until they span `seconds` of presentation time. */
async function collect(
  page: Page,
  seconds: number,
): Promise<{ samples: LatencySample[]; unreadable: number }> {
  const samples: LatencySample[] = [];
  let unreadable = 0;
  await until(
    `${seconds} s of frames`,
    async () => {
      const read = await readLatencySamples(page);
      samples.push(...read.samples);
      unreadable += read.rejected;
      const first = samples[0];
      const last = samples.at(-1);
      return first !== undefined && last !== undefined && last.at - first.at >= seconds * 1000;
    },
    (seconds + 30) * 1000,
  );
  return { samples, unreadable };
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // Not ready yet (the service still starting, say): try again.
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
