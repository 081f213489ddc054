// `node bench/ingest.ts [--quick]`: live ingest speed on this machine, with the real service
// (HTTP app with media routes, RTMP ingest, Debian's ffmpeg packaging by stream copy) on a
// fresh SQLite file, and ffmpeg publishing a pre-encoded 720p30 source (H.264 3 Mb/s with a
// 2 s keyframe interval, AAC) in real time, as OBS would.
//
// - time to live: first frame received by the ingest -> stream is `live` (the service logs it);
// - live latency: a segment's last frame pushed -> the segment listed in the served playlist;
// - concurrency: N publishers at once; an ingest keeps up when its lag (wall clock since its
//   first frame minus media packaged) stays within a segment and does not grow over a 20 s
//   window. The publishers run on the same machine (stream copy, cheap but not free), so the
//   figure is conservative.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { buildApp } from '../src/app.ts';
import { createServices } from '../src/container.ts';
import { migrateToLatest, openDatabase } from '../src/db/database.ts';
import { MemoryRateLimitStore } from '../src/http/rate-limit-store.ts';
import { startIngest } from '../src/ingest/ingest.ts';
import { createLogger } from '../src/shared/logger.ts';
import { readPlaylist, totalDuration } from '../src/hls/hls-playlist.ts';
import { mediaPlugin } from '../src/media/media.plugin.ts';
import { MemoryLiveViewers } from '../src/viewers/live-viewers.ts';
import { systemClock } from '../src/shared/clock.ts';

const run = promisify(execFile);

export interface IngestFigures {
  cpus: number;
  timeToLiveMs: { runs: number[]; median: number; max: number };
  segmentLatencyMs: { samples: number; median: number; max: number; segmentSeconds: number };
  concurrency: {
    streams: number;
    keptUp: boolean;
    worstLagSeconds: number;
    worstLagGrowthSeconds: number;
    cpuBusyPercent: number;
  }[];
  maxConcurrentKeptUp: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function benchIngest(options: { quick?: boolean; log?: (line: string) => void } = {}) {
  const log = options.log ?? (() => undefined);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-ingest-'));
  const source = path.join(work, 'source-720p30.flv');
  log('Encoding a 30 s 720p30 source (H.264 3 Mb/s, keyframe every 2 s, AAC) ...');
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440'],
    ...[
      '-t',
      '30',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-b:v',
      '3M',
      '-maxrate',
      '3M',
      '-bufsize',
      '6M',
    ],
    ...['-g', '60', '-keyint_min', '60', '-sc_threshold', '0', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-b:a', '128k', '-f', 'flv', source],
  ]);

  // The service, wired as `tributary serve` wires it.
  const database = openDatabase(path.join(work, 'bench.db'));
  await migrateToLatest(database.db);
  const rtmpPort = 19_350;
  const ingestConfig = {
    rtmpPort,
    reconnectWindowSeconds: 2,
    cleanStopGraceSeconds: 2,
    ffmpegPath: 'ffmpeg',
    maxConnections: 64,
    bitrateLimitKbps: 12_000,
    channelKeyWindowHours: 12,
  };
  const services = createServices(
    { publicUrl: 'http://127.0.0.1:18081', dataDir: work, ingest: ingestConfig },
    database,
    Buffer.alloc(32, 1),
    systemClock,
  );
  const logLines: { msg: string; time: string; msSinceFirstFrame?: number; streamId?: string }[] = [];
  const logger = createLogger(
    'info',
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
          logLines.push(JSON.parse(line));
        callback();
      },
    }),
  );
  const viewers = new MemoryLiveViewers(systemClock);
  const app = await buildApp({
    services,
    rateLimits: new MemoryRateLimitStore(),
    rateLimitPerKey: 1_000_000,
    rateLimitPerIp: 1_000_000,
    logger,
    // The segment-latency probe polls the playlist every 50 ms, far above a player's budget.
    plugins: [mediaPlugin({ services, dataDir: work, playlistFetchesPerMinute: Number.POSITIVE_INFINITY })],
  });
  await app.listen({ port: 18081, host: '127.0.0.1' });
  const ingest = await startIngest({
    config: { ingest: ingestConfig, dataDir: work, host: '127.0.0.1' },
    services,
    logger,
    viewers,
  });
  const user = await services.accounts.createUser('Bench');
  const pushes: ChildProcess[] = [];
  const newStream = async () => {
    const { stream, streamKey } = await services.streams.create(user.id, { title: 'Bench', record: false });
    return { id: stream.id, url: `rtmp://127.0.0.1:${rtmpPort}/live/${streamKey}` };
  };
  const push = (url: string, loop: boolean) => {
    const child = spawn(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-re'],
        ...(loop ? ['-stream_loop', '-1'] : []),
        ...['-i', source, '-c', 'copy', '-f', 'flv', url],
      ],
      { stdio: 'ignore' },
    );
    pushes.push(child);
    return child;
  };
  const waitLive = async (id: string, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const entry = logLines.find((line) => line.msg === 'stream is live' && line.streamId === id);
      if (entry) return entry;
      if (Date.now() > deadline) throw new Error(`stream ${id} did not go live in ${timeoutMs} ms`);
      await sleep(20);
    }
  };
  const stopPushes = async () => {
    for (const child of pushes.splice(0)) child.kill('SIGKILL');
    await sleep(4000); // reconnect windows close, streams end
  };

  try {
    // 1. Time to live, and 2. latency of each segment, on single streams.
    const runs = options.quick ? 2 : 5;
    const ttl: number[] = [];
    const latencies: number[] = [];
    for (let i = 0; i < runs; i++) {
      const stream = await newStream();
      push(stream.url, false);
      const live = await waitLive(stream.id);
      ttl.push(live.msSinceFirstFrame ?? Number.NaN);
      const firstFrameAt = Date.parse(live.time) - (live.msSinceFirstFrame ?? 0);
      // Watch the served playlist for ~12 s and note when each segment shows up.
      const seen = new Map<string, number>();
      const playlistUrl = `http://127.0.0.1:18081/media/streams/${stream.id}/index.m3u8`;
      const until = Date.now() + 12_000;
      let cumulative: { uri: string; end: number }[] = [];
      while (Date.now() < until) {
        const text = await (await fetch(playlistUrl)).text();
        const now = Date.now();
        let end = 0;
        cumulative = [];
        for (const match of text.matchAll(/#EXTINF:([\d.]+),\n(\S+)/g)) {
          end += Number(match[1]);
          cumulative.push({ uri: match[2] ?? '', end });
          if (!seen.has(match[2] ?? '')) seen.set(match[2] ?? '', now);
        }
        await sleep(50);
      }
      // The first segment was listed before polling began; it is timed by time-to-live instead.
      for (const segment of cumulative.slice(1)) {
        const listedAt = seen.get(segment.uri);
        if (listedAt !== undefined) latencies.push(listedAt - (firstFrameAt + segment.end * 1000));
      }
      await stopPushes();
      log(`  run ${i + 1}: live ${ttl.at(-1)} ms after the first frame`);
    }

    // 3. Concurrent ingests.
    const steps = options.quick ? [1, 5, 10] : [1, 5, 10, 20, 30, 40];
    const concurrency: IngestFigures['concurrency'] = [];
    for (const count of steps) {
      const streams = await Promise.all(Array.from({ length: count }, () => newStream()));
      for (const stream of streams) push(stream.url, true);
      const lives = await Promise.all(streams.map((stream) => waitLive(stream.id, 60_000)));
      const firstFrames = lives.map((live) => Date.parse(live.time) - (live.msSinceFirstFrame ?? 0));
      await sleep(3000);
      /** Per stream: seconds of wall clock since its first frame not yet packaged (its lag). */
      const lags = async () =>
        Promise.all(
          streams.map(async (stream, i) => {
            const playlist = await readPlaylist(path.join(work, 'media', 'streams', stream.id, 'index.m3u8'));
            return (Date.now() - (firstFrames[i] ?? 0)) / 1000 - totalDuration(playlist.segments);
          }),
        );
      const windowSeconds = options.quick ? 10 : 20;
      const cpuBefore = os.cpus().map((cpu) => cpu.times);
      const before = await lags();
      await sleep(windowSeconds * 1000);
      const after = await lags();
      const cpuAfter = os.cpus().map((cpu) => cpu.times);
      let busy = 0;
      let total = 0;
      cpuAfter.forEach((times, i) => {
        const was = cpuBefore[i];
        if (!was) return;
        const spent = (key: keyof typeof times) => times[key] - was[key];
        const all = spent('user') + spent('nice') + spent('sys') + spent('idle') + spent('irq');
        total += all;
        busy += all - spent('idle');
      });
      // Keeping up: the lag stays within a segment plus the write (it only ever steps between
      // ~0.1 s and ~2.1 s as segments land) and does not grow over the window.
      const worstLag = Math.max(...after);
      const worstGrowth = Math.max(...after.map((lag, i) => lag - (before[i] ?? 0)));
      const keptUp = worstLag <= 3 && worstGrowth <= 2.5;
      const cpuBusyPercent = Math.round((busy / total) * 100);
      concurrency.push({
        streams: count,
        keptUp,
        worstLagSeconds: Math.round(worstLag * 100) / 100,
        worstLagGrowthSeconds: Math.round(worstGrowth * 100) / 100,
        cpuBusyPercent,
      });
      log(
        `  ${count} concurrent: worst lag behind real time ${worstLag.toFixed(2)} s (grew ${worstGrowth.toFixed(2)} s ` +
          `in ${windowSeconds} s), CPU ${cpuBusyPercent}% busy -> ${keptUp ? 'keeps up' : 'falls behind'}`,
      );
      await stopPushes();
      if (!keptUp) break;
    }

    const figures: IngestFigures = {
      cpus: os.cpus().length,
      timeToLiveMs: { runs: ttl, median: median(ttl), max: Math.max(...ttl) },
      segmentLatencyMs: {
        samples: latencies.length,
        median: Math.round(median(latencies)),
        max: Math.round(Math.max(...latencies)),
        segmentSeconds: 2,
      },
      concurrency,
      maxConcurrentKeptUp: Math.max(0, ...concurrency.filter((c) => c.keptUp).map((c) => c.streams)),
    };
    return figures;
  } finally {
    for (const child of pushes.splice(0)) child.kill('SIGKILL');
    await ingest.close();
    await app.close();
    await database.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const quick = process.argv.includes('--quick');
  const log = (line: string) => process.stdout.write(`${line}\n`);
  const figures = await benchIngest({ quick, log });
  log('');
  log(`Machine: ${figures.cpus} CPUs (${os.cpus()[0]?.model ?? 'unknown'})`);
  log(
    `Time to live (first frame -> live): median ${figures.timeToLiveMs.median} ms, ` +
      `max ${figures.timeToLiveMs.max} ms (target < 5000 ms)`,
  );
  log(
    `Live latency (segment's last frame pushed -> listed in the playlist): median ` +
      `${figures.segmentLatencyMs.median} ms, max ${figures.segmentLatencyMs.max} ms over ` +
      `${figures.segmentLatencyMs.samples} segments of ${figures.segmentLatencyMs.segmentSeconds} s`,
  );
  log(`Concurrent 720p30 ingests kept in real time: ${figures.maxConcurrentKeptUp} (target >= 10)`);
  log(JSON.stringify(figures));
}
