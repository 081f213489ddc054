// Admission on an idle machine (issue 23): the real service at its defaults (the default ladder
// and CPU budget) on a fresh SQLite file, and ffmpeg publishing a pre-encoded 720p30 source in
// real time, one publish at a time: each publish is watched until the ladder decision is logged,
// then stopped, and the next one starts once its stream has ended. Reports how many publishes
// got the ladder and, for those refused, the figures admission logged.
//
//   node bench/admission.ts [publishes=10] [--own-tree] [--back-to-back]
//
// `--back-to-back`: recorded streams, and each publish starts as soon as the previous one's
// publisher is gone (its transcoder finishing, its stream waiting out the reconnect window and
// being recorded meanwhile), as a creator testing their encoder would.
//
// `--spike`: each publish starts 1.5 s into 2.5 s of three busy processes (children of this
// one, so `--own-tree` counts them): a start-up spike of the size, falling on the
// decision, made on purpose so that the decision's reading of it can be compared.
//
// `--own-tree`: on a machine shared with other work, /proc/stat (as the service reads it) is
// replaced by one that counts only this process and its descendants (the service, its
// packagers and the publisher's ffmpeg) on a machine of as many cores as this one has: the
// "otherwise idle server" of the issue, with the publish's own start-up still in it.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { createServices } from '../src/container.ts';
import { migrateToLatest, openDatabase } from '../src/db/database.ts';
import { startIngest } from '../src/ingest/ingest.ts';
import { createLogger } from '../src/shared/logger.ts';
import { MemoryLiveViewers } from '../src/viewers/live-viewers.ts';
import { systemClock } from '../src/shared/clock.ts';
import { ownTreeProc } from '../test/helpers/own-tree-proc.ts';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface LogLine {
  msg: string;
  streamId?: string;
  renditions?: string[];
  [key: string]: unknown;
}

/** Busy cores of the whole machine over `ms` (/proc/stat). */
async function machineBusy(ms: number): Promise<number> {
  const read = () => {
    const values = (fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const total = values.reduce((sum, value) => sum + value, 0);
    return { busy: total - (values[3] ?? 0) - (values[4] ?? 0), total };
  };
  const before = read();
  await sleep(ms);
  const after = read();
  return ((after.busy - before.busy) / (after.total - before.total)) * os.availableParallelism();
}

/** The service's /proc/stat as if this process tree were all the machine runs. */
function ownTreeOnly(): void {
  const read = ownTreeProc();
  const original = fs.readFileSync.bind(fs) as (...args: unknown[]) => unknown;
  // The budget reads /proc/stat through node:fs (a build before the budget took a reader, too).
  const patched = (file: unknown, ...rest: unknown[]): unknown =>
    file === '/proc/stat' ? read(file) : original(file, ...rest);
  (fs as unknown as { readFileSync: unknown }).readFileSync = patched;
}

export async function benchAdmission(
  publishes: number,
  log: (line: string) => void,
  options: { backToBack?: boolean; spike?: boolean } = {},
) {
  const backToBack = options.backToBack === true;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-admission-'));
  const source = path.join(work, 'source-720p30.flv');
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440'],
    ...['-t', '20', '-c:v', 'libx264', '-preset', 'veryfast', '-b:v', '3M', '-maxrate', '3M'],
    ...['-bufsize', '6M', '-g', '60', '-keyint_min', '60', '-sc_threshold', '0', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-b:a', '128k', '-f', 'flv', source],
  ]);
  const transcode = loadConfig({}).ingest.transcode;
  if (!transcode) throw new Error('no ladder configuration');
  const database = openDatabase(path.join(work, 'bench.db'));
  await migrateToLatest(database.db);
  const rtmpPort = 19_361;
  const ingestConfig = {
    rtmpPort,
    reconnectWindowSeconds: 1,
    ffmpegPath: 'ffmpeg',
    maxConnections: 64,
    bitrateLimitKbps: 12_000,
    channelKeyWindowHours: 12,
    cleanStopGraceSeconds: 5,
    transcode,
  };
  const services = createServices(
    { publicUrl: 'http://127.0.0.1:18092', dataDir: work, ingest: ingestConfig },
    database,
    Buffer.alloc(32, 1),
    systemClock,
  );
  const lines: LogLine[] = [];
  const logger = createLogger(
    'info',
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
          lines.push(JSON.parse(line) as LogLine);
        callback();
      },
    }),
  );
  const ingest = await startIngest({
    config: { ingest: ingestConfig, dataDir: work, host: '127.0.0.1' },
    services,
    logger,
    viewers: new MemoryLiveViewers(systemClock),
  });
  const user = await services.accounts.createUser('Bench');
  const results: { ladder: boolean; renditions: string[]; idleBefore: number; refusal?: LogLine }[] = [];
  try {
    for (let n = 0; n < publishes; n++) {
      const idleBefore = await machineBusy(backToBack ? 200 : 2000);
      if (options.spike === true) {
        for (let i = 0; i < 3; i++) {
          spawn(process.execPath, ['-e', 'const end = Date.now() + 2500; while (Date.now() < end);'], {
            stdio: 'ignore',
          });
        }
        await sleep(1500);
      }
      const { stream, streamKey } = await services.streams.create(user.id, {
        title: 'Bench',
        record: backToBack,
      });
      const child = spawn(
        'ffmpeg',
        [
          ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-re', '-i', source],
          ...['-c', 'copy', '-f', 'flv', `rtmp://127.0.0.1:${rtmpPort}/live/${streamKey}`],
        ],
        { stdio: 'ignore' },
      );
      const ofStream = (msg: string) => lines.find((line) => line.streamId === stream.id && line.msg === msg);
      let chosen: LogLine | undefined;
      while (!(chosen = ofStream('publish renditions chosen'))) await sleep(100);
      const refusal = lines.find(
        (line) => line.streamId === stream.id && line.msg.startsWith('no CPU room to transcode'),
      );
      const renditions = chosen.renditions ?? [];
      const result = {
        ladder: renditions.length > 1,
        renditions,
        idleBefore,
        ...(refusal ? { refusal } : {}),
      };
      results.push(result);
      log(`publish ${n + 1}: ${JSON.stringify(result)}`);
      // A few seconds of transcoding, as a creator's first moments would have.
      await sleep(4000);
      child.kill('SIGKILL');
      while (!lines.some((line) => line.streamId === stream.id && line.msg === 'publish stopped'))
        await sleep(100);
      if (backToBack) continue;
      if (ingest.enabled) await ingest.settle();
      await sleep(1500);
    }
    if (ingest.enabled) await ingest.settle();
  } finally {
    await ingest.close();
    await database.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
  return {
    publishes,
    ladder: results.filter((result) => result.ladder).length,
    copyOnly: results.filter((result) => !result.ladder).length,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const publishes = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 10);
  if (process.argv.includes('--own-tree')) ownTreeOnly();
  const log = (line: string) => {
    process.stdout.write(`${line}\n`);
  };
  log(
    JSON.stringify(
      await benchAdmission(publishes, log, {
        backToBack: process.argv.includes('--back-to-back'),
        spike: process.argv.includes('--spike'),
      }),
    ),
  );
}
