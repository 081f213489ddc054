// What one simulcast destination costs (`npm run bench -- --ingest`): a real-time 720p H.264/AAC
// publish (encoded by a source ffmpeg, not measured) fed, tag by tag as the ingest would, to N
// RtmpRelays, each sending by stream copy to an ffmpeg receiving on loopback. Reported: the CPU
// of each relay's ffmpeg, in cores, over the measured seconds.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { RtmpRelay } from '../src/simulcast/rtmp-relay.ts';
import { FlvTagSplitter } from '../test/helpers/flv-splitter.ts';

export interface SimulcastFigures {
  destinations: number;
  seconds: number;
  /** Cores each relay's ffmpeg used on average (stream copy). */
  coresPerDestination: number[];
  meanCoresPerDestination: number;
}

export async function benchSimulcast(options: {
  quick: boolean;
  log: (line: string) => void;
}): Promise<SimulcastFigures> {
  const destinations = 3;
  const seconds = options.quick ? 8 : 30;
  const ports = await Promise.all(Array.from({ length: destinations }, freePort));
  // Receivers: ffmpeg listening for one RTMP publish each, reading and discarding it.
  const receivers = ports.map((port) =>
    spawn(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-listen',
        '1',
        '-i',
        `rtmp://127.0.0.1:${port}/live/bench`,
        '-c',
        'copy',
        '-f',
        'null',
        '-',
      ],
      { stdio: 'ignore' },
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  const relays = ports.map(
    (port, index) =>
      new RtmpRelay({
        ffmpegPath: 'ffmpeg',
        serverUrl: `rtmp://127.0.0.1:${port}/live`,
        streamKey: 'bench',
        logger: pino({ level: 'silent' }),
        label: `bench_${index}`,
        backoffMs: [200],
      }),
  );
  const source = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-re'],
      ...['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440'],
      ...['-t', String(seconds + 10), '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '3000k', '-g', '60'],
      ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'flv', 'pipe:1'],
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  source.stdout.pipe(new FlvTagSplitter()).pipe(
    new Writable({
      objectMode: true,
      write(chunk: Buffer, _encoding, done) {
        for (const relay of relays) relay.write(chunk);
        done();
      },
    }),
  );
  try {
    const deadline = Date.now() + 20_000;
    while (relays.some((relay) => relay.state.state !== 'live')) {
      if (Date.now() > deadline) throw new Error('the simulcast destinations did not go live');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const before = relays.map((relay) => cpuSeconds(relay.pid));
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const elapsed = (performance.now() - started) / 1000;
    const cores = relays.map((relay, index) => (cpuSeconds(relay.pid) - (before[index] ?? 0)) / elapsed);
    const figures = {
      destinations,
      seconds: Math.round(elapsed),
      coresPerDestination: cores.map((value) => Math.round(value * 1000) / 1000),
      meanCoresPerDestination:
        Math.round((cores.reduce((sum, value) => sum + value, 0) / cores.length) * 1000) / 1000,
    };
    options.log(
      `  ${destinations} destinations of a 720p30 3 Mb/s publish: ${figures.meanCoresPerDestination} cores each (stream copy)`,
    );
    return figures;
  } finally {
    for (const relay of relays) relay.stop();
    source.kill('SIGKILL');
    for (const receiver of receivers) receiver.kill('SIGKILL');
  }
}

function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  return port;
}
