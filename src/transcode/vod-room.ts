// VOD work (`tributary videos import`) runs in its own process, beside a server whose live
// transcoders it cannot see, so it asks the machine: it starts only when the cores left idle
// (measured from /proc/stat) hold twice its estimated cost within the transcoding budget, and
// then runs under `nice -n 19`, so a live stream's ffmpeg always wins the CPU from it.
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TranscodeConfig } from './ladder.ts';

const SAMPLE_MS = 1000;
/** Cores an imported ladder is priced at per megapixel per second (as the live prior). */
const CORES_PER_MEGAPIXEL = 0.02;

export const VOD_NICE = ['nice', '-n', '19'];

/** Busy and total jiffies of the whole machine (the first line of /proc/stat). */
function cpuJiffies(): { busy: number; total: number } | undefined {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const values = line.trim().split(/\s+/).slice(1).map(Number);
    const total = values.reduce((sum, value) => sum + value, 0);
    // idle and iowait are the 4th and 5th values.
    const idle = (values[3] ?? 0) + (values[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

/** Cores busy over the last second; undefined where /proc/stat cannot be read. */
export async function busyCores(cores: number): Promise<number | undefined> {
  const before = cpuJiffies();
  await sleep(SAMPLE_MS);
  const after = cpuJiffies();
  if (!before || !after || after.total <= before.total) return undefined;
  return ((after.busy - before.busy) / (after.total - before.total)) * cores;
}

export function vodEstimateCores(megapixelsPerSecond: number): number {
  return megapixelsPerSecond * CORES_PER_MEGAPIXEL;
}

/**
 * Resolves when the machine has room for VOD work costing `estimateCores` (never while
 * live transcoding fills it); `onWaiting` hears each time it must wait.
 */
export async function waitForVodRoom(
  config: Pick<TranscodeConfig, 'cpuCores' | 'headroomPercent'>,
  machineCores: number,
  estimateCores: number,
  onWaiting: (busy: number) => void,
): Promise<void> {
  const limit = config.cpuCores * (1 - config.headroomPercent / 100);
  for (;;) {
    const busy = await busyCores(machineCores);
    if (busy === undefined || busy + 2 * estimateCores <= limit) return;
    onWaiting(busy);
  }
}
