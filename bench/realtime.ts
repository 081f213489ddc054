// Realtime (issue 30) capacity: WebRTC viewers per core, and the CPU of the AAC-to-Opus step.
//
// - Viewers per core: the service (`bin/tributary.js serve`, a fresh SQLite file) pinned to one
//   core, a realtime stream pushed to it at 1280x720 30 fps, 2 Mb/s, no B-frames (so the H.264 is
//   copied, as a creator following the advice sends it) with AAC; WHEP viewers are node-datachannel
//   peer connections in this process, pinned with the pusher to the other core. At each viewer
//   count the service's CPU (utime + stime) is read over a window, and every viewer must have
//   received media during it. Viewers per core = viewers / cores busy at the largest count.
// - AAC to Opus: one ffmpeg transcoding a stream's AAC (128 kb/s, 48 kHz stereo) to Opus as the
//   realtime path does (96 kb/s, 20 ms frames, RTP to loopback), in real time: its CPU over the
//   window, as a share of one core.
import { execFile, spawn } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { joinOverWhep, type WhepViewer } from '../test/helpers/whep-viewer.ts';
import { GENERATOR_CORE, pinned, startBenchService } from './processes.ts';

const run = promisify(execFile);
const SERVICE_PORT = 18_097;
const RTMP_PORT = 19_397;
const CLOCK_TICKS_PER_SECOND = 100;

export interface RealtimeFigures {
  method: string;
  viewerSteps: {
    viewers: number;
    receiving: number;
    serviceCores: number;
    packetsPerSecondPerViewer: number;
  }[];
  viewersPerCore: number;
  /** The largest viewer count at which every viewer still got the whole stream (the figure's range). */
  fullRateUpTo: number;
  opus: { cpuShareOfOneCore: number; seconds: number };
  /** The stream's own realtime ffmpeg in the service (H.264 copy and AAC to Opus), in cores. */
  realtimeFfmpegCores: number;
  caveat: string;
}

type Viewer = WhepViewer;

function cpuMsOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** The service's processes by kind: its Node processes (bin/tributary.js may relaunch itself) and ffmpegs. */
async function serviceProcesses(
  root: number,
): Promise<{ node: number[]; ffmpeg: { pid: number; args: string }[] }> {
  const { stdout } = await run('ps', ['-eo', 'pid=,ppid=,args=']);
  const rows = stdout
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] ?? '' }));
  const tree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const row of rows)
      if (tree.has(row.ppid) && !tree.has(row.pid)) {
        tree.add(row.pid);
        grew = true;
      }
  }
  const inTree = rows.filter((row) => tree.has(row.pid));
  return {
    node: inTree.filter((row) => !/\bffmpeg\b/.test(row.args.split(' ')[0] ?? '')).map((row) => row.pid),
    ffmpeg: inTree.filter((row) => /\bffmpeg\b/.test(row.args.split(' ')[0] ?? '')),
  };
}

function cpuMsOfAll(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      total += cpuMsOf(pid);
    } catch {
      // gone
    }
  }
  return total;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function join(baseUrl: string, streamId: string, index: number): Promise<Viewer> {
  return joinOverWhep(baseUrl, streamId, { label: `bench-${index}` });
}

/** The Opus step alone: AAC in, Opus RTP out, in real time, for `seconds`. */
async function measureOpus(dir: string, seconds: number): Promise<number> {
  const input = path.join(dir, 'tone.flv');
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i'],
    `sine=frequency=440:sample_rate=48000:duration=${seconds + 5}`,
    ...['-ac', '2', '-c:a', 'aac', '-b:a', '128k', input],
  ]);
  const sink = dgram.createSocket('udp4');
  sink.bind(0, '127.0.0.1');
  await new Promise((resolve) => sink.once('listening', resolve));
  const port = sink.address().port;
  const [command, ...args] = pinned(0, [
    'ffmpeg',
    ...['-hide_banner', '-loglevel', 'error', '-re', '-i', input],
    ...['-c:a', 'libopus', '-application', 'lowdelay', '-frame_duration', '20', '-b:a', '96k'],
    ...['-ar', '48000', '-ac', '2', '-f', 'rtp', `rtp://127.0.0.1:${port}?rtcpport=${port}&pkt_size=1200`],
  ]);
  const child = spawn(command ?? 'taskset', args, { stdio: 'ignore' });
  await pause(2000);
  const pid = child.pid ?? 0;
  const before = cpuMsOf(pid);
  const started = Date.now();
  await pause(seconds * 1000);
  const share = (cpuMsOf(pid) - before) / (Date.now() - started);
  child.kill('SIGKILL');
  sink.close();
  return share;
}

export async function benchRealtime(options: {
  quick: boolean;
  log: (line: string) => void;
}): Promise<RealtimeFigures> {
  const { log } = options;
  // This process (the viewers) on the load core, every thread of it.
  await run('taskset', ['-a', '-cp', String(GENERATOR_CORE), String(process.pid)]);
  const cleanups: (() => Promise<void> | void)[] = [];
  const viewers: Viewer[] = [];
  try {
    log('Starting the service on one core ...');
    const { baseUrl, writeKey, service, dataDir } = await startBenchService({
      name: 'realtime',
      port: SERVICE_PORT,
      rtmpPort: RTMP_PORT,
      logLevel: 'warn',
      env: { REALTIME_MAX_VIEWERS: '10000' },
      cleanups,
    });
    const auth = { authorization: `Bearer ${writeKey}`, 'content-type': 'application/json' };
    const created = await fetch(`${baseUrl}/v1/streams`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ title: 'Realtime bench', latency_mode: 'realtime', record: false }),
    });
    const stream = (await created.json()) as { id: string; ingest: { rtmp_url: string; stream_key: string } };
    const push = spawn(
      'taskset',
      [
        ...['--cpu-list', String(GENERATOR_CORE), 'ffmpeg', '-hide_banner', '-loglevel', 'error', '-re'],
        ...[
          '-f',
          'lavfi',
          '-i',
          'testsrc=size=1280x720:rate=30',
          '-f',
          'lavfi',
          '-i',
          'sine=frequency=440:sample_rate=48000',
        ],
        ...[
          '-c:v',
          'libx264',
          '-preset',
          'ultrafast',
          '-tune',
          'zerolatency',
          '-pix_fmt',
          'yuv420p',
          '-g',
          '30',
        ],
        ...['-b:v', '2000k', '-maxrate', '2000k', '-bufsize', '1000k', '-c:a', 'aac', '-b:a', '128k'],
        ...['-f', 'flv', `${stream.ingest.rtmp_url}/${stream.ingest.stream_key}`],
      ],
      { stdio: 'ignore' },
    );
    cleanups.push(() => {
      push.kill('SIGKILL');
    });
    const deadline = Date.now() + 40_000;
    for (;;) {
      const read = await fetch(`${baseUrl}/v1/streams/${stream.id}`, { headers: auth });
      if (((await read.json()) as { status: string }).status === 'live') break;
      if (Date.now() > deadline) throw new Error('the stream did not go live');
      await pause(250);
    }
    await pause(2000);
    const steps = options.quick ? [1, 10, 25] : [1, 10, 25, 50, 100];
    const windowMs = options.quick ? 5_000 : 10_000;
    const viewerSteps: RealtimeFigures['viewerSteps'] = [];
    /** The stream's realtime ffmpeg (H.264 copied, AAC to Opus), in cores. */
    let realtimeFfmpegCores = 0;
    for (const target of steps) {
      while (viewers.length < target) {
        // Joins go four at a time: the service lets one address have four connecting at once.
        const batch = Math.min(4, target - viewers.length);
        viewers.push(
          ...(await Promise.all(
            Array.from({ length: batch }, (_, i) => join(baseUrl, stream.id, viewers.length + i)),
          )),
        );
      }
      await pause(2000);
      const bytesBefore = viewers.map((v) => v.received.bytes);
      const processes = await serviceProcesses(service.pid);
      const realtimeFfmpeg = processes.ffmpeg.filter((p) => p.args.includes('libopus')).map((p) => p.pid);
      const cpuBefore = cpuMsOfAll(processes.node);
      const ffmpegBefore = cpuMsOfAll(realtimeFfmpeg);
      const started = Date.now();
      await pause(windowMs);
      const elapsed = Date.now() - started;
      const serviceCores = (cpuMsOfAll(processes.node) - cpuBefore) / elapsed;
      realtimeFfmpegCores = (cpuMsOfAll(realtimeFfmpeg) - ffmpegBefore) / elapsed;
      const received = viewers.map((v, i) => v.received.bytes - (bytesBefore[i] ?? 0));
      const receiving = received.filter((bytes) => bytes > 100_000).length;
      // About 2.1 Mb/s of RTP per viewer: packets of at most 1,200 bytes.
      const packetsPerSecondPerViewer = Math.round(
        received.reduce((a, b) => a + b, 0) / viewers.length / 1100 / (elapsed / 1000),
      );
      viewerSteps.push({
        viewers: target,
        receiving,
        serviceCores: Math.round(serviceCores * 1000) / 1000,
        packetsPerSecondPerViewer,
      });
      log(`${target} viewers: service ${(serviceCores * 100).toFixed(1)}% of a core, ${receiving} receiving`);
    }
    for (const viewer of viewers.splice(0)) viewer.close();
    // Only steps where every viewer got the whole stream count: past them the viewers' core (or
    // the service) no longer keeps up, and CPU per viewer would flatter the service.
    const fullRate = (viewerSteps[0]?.packetsPerSecondPerViewer ?? 0) * 0.9;
    const counted = viewerSteps.filter(
      (step) => step.packetsPerSecondPerViewer >= fullRate && step.receiving === step.viewers,
    );
    const last = counted.at(-1);
    const first = counted[0];
    // The marginal cost per viewer, from the first to the last full-rate step (the stream's own
    // cost, ingest and packaging, apart).
    const perViewer =
      last && first && last.viewers > first.viewers
        ? (last.serviceCores - first.serviceCores) / (last.viewers - first.viewers)
        : 0;
    log('Measuring the AAC-to-Opus step ...');
    const opusSeconds = options.quick ? 10 : 20;
    const opusShare = await measureOpus(dataDir, opusSeconds);
    return {
      method:
        'service pinned to core 0 (taskset), node-datachannel WHEP viewers and the 720p30 2 Mb/s pusher on core 1; service utime+stime over the window',
      viewerSteps,
      viewersPerCore: perViewer > 0 ? Math.round(1 / perViewer) : 0,
      fullRateUpTo: last?.viewers ?? 0,
      opus: { cpuShareOfOneCore: Math.round(opusShare * 1000) / 1000, seconds: opusSeconds },
      realtimeFfmpegCores: Math.round(realtimeFfmpegCores * 1000) / 1000,
      caveat: 'measured on a shared 2-core machine (another helper and test runs): figures are lower bounds',
    };
  } finally {
    for (const viewer of viewers) viewer.close();
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}
