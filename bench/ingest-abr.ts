// The adaptive-bitrate part of `npm run bench -- --ingest` (issue 13), with the real service
// (HTTP app with media routes, RTMP ingest with the default ladder and CPU budget) on a fresh
// SQLite file and ffmpeg publishing a pre-encoded 720p30 source in real time:
//
// - efficiency: CPU (cores) of one transcoded stream in the project (its ladder ffmpeg plus
//   this Node process) against the same ladder command run by hand on the same source; the
//   project must reach 0.9 of the hand-run's efficiency (hand cores / project cores);
// - capacity: 720p30 publishers added one at a time under the default budget; how many are
//   transcoded, how many the budget publishes copy-only beside them, and whether every one
//   keeps real time (lag within a segment, not growing) with no rung dropped;
// - priority: a 720p `videos import` with the ladder runs beside them; no live stream may fall
//   behind meanwhile.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createServices } from '../src/container.ts';
import { migrateToLatest, openDatabase } from '../src/db/database.ts';
import { MemoryRateLimitStore } from '../src/http/rate-limit-store.ts';
import { startIngest } from '../src/ingest/ingest.ts';
import { createLogger } from '../src/shared/logger.ts';
import { readPlaylist, totalDuration } from '../src/hls/hls-playlist.ts';
import { MediaPaths } from '../src/media/media-paths.ts';
import { mediaPlugin } from '../src/media/media.plugin.ts';
import { importVideo } from '../src/media/video-import.ts';
import { MemoryLiveViewers } from '../src/viewers/live-viewers.ts';
import { systemClock } from '../src/shared/clock.ts';
import { processTicks } from '../src/transcode/budget.ts';
import { ladderOutputArgs, planLadder } from '../src/transcode/ladder.ts';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface AbrFigures {
  cpus: number;
  efficiency: { projectCores: number; handCores: number; ratio: number; target: 0.9 };
  capacity: {
    publishers: number;
    transcoded: number;
    copyOnly: number;
    keptUp: boolean;
    worstLagSeconds: number;
  }[];
  maxTranscodedKeptUp: number;
  copyOnlyBeside: number;
  importBesideLive: {
    importSeconds: number;
    liveKeptUp: boolean;
    worstLagGrowthSeconds: number;
    rungsDropped: number;
  };
}

/** Pids of this process's ffmpeg children making a ladder. */
function ladderChildren(): number[] {
  const pids: number[] = [];
  for (const task of fs.readdirSync(`/proc/${process.pid}/task`)) {
    let children: string;
    try {
      children = fs.readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const pid of children.trim().split(/\s+/).filter(Boolean).map(Number)) {
      try {
        if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('-var_stream_map')) pids.push(pid);
      } catch {
        // Gone meanwhile.
      }
    }
  }
  return pids;
}

/**
 * Cores used over `seconds` by the processes `pids()` names (asked again each second, so a
 * process that starts or ends inside the window counts for the time it ran), plus this
 * process when `self`.
 */
async function coresOver(pids: () => number[], seconds: number, self: boolean): Promise<number> {
  const last = new Map<number, number>();
  let spentTicks = 0;
  const sample = () => {
    for (const pid of pids()) {
      const ticks = processTicks(pid);
      if (ticks === undefined) continue;
      const before = last.get(pid);
      if (before !== undefined) spentTicks += ticks - before;
      last.set(pid, ticks);
    }
  };
  const beforeSelf = process.cpuUsage();
  sample();
  for (let i = 0; i < seconds; i++) {
    await sleep(1000);
    sample();
  }
  const selfUsage = process.cpuUsage(beforeSelf);
  const selfSeconds = self ? (selfUsage.user + selfUsage.system) / 1e6 : 0;
  return (spentTicks / 100 + selfSeconds) / seconds;
}

export async function benchIngestAbr(
  options: { quick?: boolean; log?: (line: string) => void } = {},
): Promise<AbrFigures> {
  const log = options.log ?? (() => undefined);
  const quick = options.quick === true;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-abr-'));
  const source = path.join(work, 'source-720p30.flv');
  const seconds = quick ? 20 : 60;
  log(`Encoding a ${seconds} s 720p30 source (H.264 3 Mb/s, keyframe every 2 s, AAC) ...`);
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440'],
    ...['-t', String(seconds), '-c:v', 'libx264', '-preset', 'veryfast', '-b:v', '3M', '-maxrate', '3M'],
    ...['-bufsize', '6M', '-g', '60', '-keyint_min', '60', '-sc_threshold', '0', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-b:a', '128k', '-f', 'flv', source],
  ]);
  const importFile = path.join(work, 'import-720p30.mp4');
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-i',
    source,
    '-t',
    quick ? '10' : '30',
    '-c',
    'copy',
    importFile,
  ]);

  // The service with the configuration `serve` gets from an empty environment: the default
  // ladder (TRANSCODE=auto, veryfast) and budget (all cores, 25% headroom).
  const defaults = loadConfig({});
  const transcode = defaults.ingest.transcode;
  if (!transcode) throw new Error('no ladder configuration');
  const database = openDatabase(path.join(work, 'bench.db'));
  await migrateToLatest(database.db);
  const rtmpPort = 19_360;
  const ingestConfig = {
    rtmpPort,
    reconnectWindowSeconds: 2,
    cleanStopGraceSeconds: 2,
    ffmpegPath: 'ffmpeg',
    maxConnections: 64,
    bitrateLimitKbps: 12_000,
    channelKeyWindowHours: 12,
    transcode,
  };
  const services = createServices(
    { publicUrl: 'http://127.0.0.1:18091', dataDir: work, ingest: ingestConfig },
    database,
    Buffer.alloc(32, 1),
    systemClock,
  );
  const logLines: { msg: string; streamId?: string; renditions?: string[] }[] = [];
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
    plugins: [mediaPlugin({ services, dataDir: work, playlistFetchesPerMinute: Number.POSITIVE_INFINITY })],
  });
  await app.listen({ port: 18091, host: '127.0.0.1' });
  const ingest = await startIngest({
    config: { ingest: ingestConfig, dataDir: work, host: '127.0.0.1' },
    services,
    logger,
    viewers,
  });
  const user = await services.accounts.createUser('Bench');
  const pushes: ChildProcess[] = [];
  const push = async () => {
    const { stream, streamKey } = await services.streams.create(user.id, { title: 'Bench', record: false });
    const child = spawn(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-re', '-stream_loop', '-1'],
        ...['-i', source, '-c', 'copy', '-f', 'flv', `rtmp://127.0.0.1:${rtmpPort}/live/${streamKey}`],
      ],
      { stdio: 'ignore' },
    );
    pushes.push(child);
    const startedAt = Date.now();
    for (;;) {
      const chosen = logLines.find(
        (line) => line.msg === 'publish renditions chosen' && line.streamId === stream.id,
      );
      const live = logLines.find((line) => line.msg === 'stream is live' && line.streamId === stream.id);
      if (chosen && live)
        return { id: stream.id, transcoded: (chosen.renditions?.length ?? 1) > 1, startedAt };
      if (Date.now() - startedAt > 60_000) throw new Error(`stream ${stream.id} did not go live`);
      await sleep(50);
    }
  };
  const stopPushes = async () => {
    for (const child of pushes.splice(0)) child.kill('SIGKILL');
    await sleep(4000);
  };
  /** Seconds each stream's source is behind the wall clock since it went live. */
  const lagsOf = async (streams: { id: string }[], base: Map<string, { at: number; media: number }>) =>
    Promise.all(
      streams.map(async (stream) => {
        const dir = path.join(work, 'media', 'streams', stream.id);
        let playlist = await readPlaylist(path.join(dir, 'source.m3u8'));
        if (playlist.segments.length === 0) playlist = await readPlaylist(path.join(dir, 'index.m3u8'));
        const media = totalDuration(playlist.segments);
        const now = Date.now();
        const start = base.get(stream.id) ?? { at: now, media };
        base.set(stream.id, start);
        return (now - start.at) / 1000 - (media - start.media);
      }),
    );
  const dropped = () => logLines.filter((line) => line.msg.startsWith('rungs dropped')).length;

  try {
    // 1. Efficiency: one transcoded stream, then the same ladder command by hand.
    const window = quick ? 8 : 30;
    log('Efficiency: one transcoded stream in the project ...');
    await push();
    await sleep(3000);
    const projectCores = await coresOver(ladderChildren, window, true);
    await stopPushes();
    log('Efficiency: the same ladder command by hand ...');
    const handDir = path.join(work, 'by-hand');
    fs.mkdirSync(handDir);
    const plan = planLadder({ width: 1280, height: 720 }, transcode.rungs);
    const hand = spawn(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-re', '-stream_loop', '-1', '-i', source],
        ...ladderOutputArgs(plan, {
          dir: handDir,
          segmentSeconds: 2,
          preset: transcode.preset,
          hasAudio: true,
          playlistType: 'event',
        }),
      ],
      { stdio: 'ignore' },
    );
    await sleep(3000);
    const handCores = await coresOver(() => (hand.pid === undefined ? [] : [hand.pid]), window, false);
    hand.kill('SIGKILL');
    const ratio = handCores / projectCores;
    log(
      `  project ${projectCores.toFixed(2)} cores, by hand ${handCores.toFixed(2)} cores -> efficiency ${ratio.toFixed(2)} (target >= 0.9)`,
    );

    // 2. Capacity under the default budget.
    const capacity: AbrFigures['capacity'] = [];
    const streams: { id: string; transcoded: boolean }[] = [];
    const maxPublishers = quick ? 3 : 12;
    const base = new Map<string, { at: number; media: number }>();
    for (let count = 1; count <= maxPublishers; count++) {
      streams.push(await push());
      base.clear();
      await sleep(3000);
      const droppedBefore = dropped();
      await lagsOf(streams, base);
      await sleep((quick ? 6 : 20) * 1000);
      const lags = await lagsOf(streams, base);
      const worstLag = Math.max(...lags);
      const keptUp = worstLag <= 2.5 && dropped() === droppedBefore;
      const transcoded = streams.filter((stream) => stream.transcoded).length;
      capacity.push({
        publishers: count,
        transcoded,
        copyOnly: count - transcoded,
        keptUp,
        worstLagSeconds: Math.round(worstLag * 100) / 100,
      });
      log(
        `  ${count} publishers: ${transcoded} transcoded, ${count - transcoded} copy-only, worst lag growth ${worstLag.toFixed(2)} s -> ${keptUp ? 'real time' : 'behind'}`,
      );
      if (!keptUp) break;
    }

    // 3. An import beside the live streams.
    log('A 720p import with the ladder beside the live streams ...');
    base.clear();
    await lagsOf(streams, base);
    const droppedBefore = dropped();
    const importStart = Date.now();
    await importVideo(
      {
        videos: services.videos,
        paths: new MediaPaths(work),
        ffmpegPath: 'ffmpeg',
        ffprobePath: 'ffprobe',
        transcode: { ...transcode, cpuCores: os.availableParallelism() * 4 },
      },
      { file: importFile, creatorId: user.id, title: 'Import' },
    );
    const importSeconds = (Date.now() - importStart) / 1000;
    const growth = Math.max(...(await lagsOf(streams, base)));
    const importBesideLive = {
      importSeconds: Math.round(importSeconds * 10) / 10,
      liveKeptUp: growth <= 2.5 && dropped() === droppedBefore,
      worstLagGrowthSeconds: Math.round(growth * 100) / 100,
      rungsDropped: dropped() - droppedBefore,
    };
    log(
      `  import took ${importSeconds.toFixed(1)} s; live streams ${importBesideLive.liveKeptUp ? 'kept real time' : 'fell behind'} (worst lag growth ${growth.toFixed(2)} s)`,
    );

    const kept = capacity.filter((step) => step.keptUp);
    return {
      cpus: os.availableParallelism(),
      efficiency: {
        projectCores: Math.round(projectCores * 1000) / 1000,
        handCores: Math.round(handCores * 1000) / 1000,
        ratio: Math.round(ratio * 100) / 100,
        target: 0.9,
      },
      capacity,
      maxTranscodedKeptUp: Math.max(0, ...kept.map((step) => step.transcoded)),
      copyOnlyBeside: Math.max(0, ...kept.map((step) => step.copyOnly)),
      importBesideLive,
    };
  } finally {
    for (const child of pushes.splice(0)) child.kill('SIGKILL');
    await ingest.close();
    await app.close();
    await database.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const log = (line: string) => process.stdout.write(`${line}\n`);
  log(JSON.stringify(await benchIngestAbr({ quick: process.argv.includes('--quick'), log }), null, 2));
}
