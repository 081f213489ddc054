// What the ladder tests share: a cheap ladder configuration and a cheap 720p push.
import { parseLadder, type TranscodeConfig } from '../../src/transcode/ladder.ts';
import { startPush } from '../helpers/media-tools.ts';

/** The default ladder, cheap: every rung of the defaults, x264's fastest preset, room to spare. */
export const TEST_LADDER: TranscodeConfig = {
  mode: 'auto',
  rungs: parseLadder('720:2800,480:1400,360:800') ?? [],
  preset: 'ultrafast',
  cpuCores: 64,
  headroomPercent: 0,
};

/** A small, cheap 720p push: 10 fps, a keyframe every 2 s, low bitrate. */
export function push720(url: string, seconds: number) {
  return startPush([
    '-re',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=1280x720:rate=10',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000',
    '-t',
    String(seconds),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-b:v',
    '600k',
    '-pix_fmt',
    'yuv420p',
    '-g',
    '20',
    '-keyint_min',
    '20',
    '-sc_threshold',
    '0',
    '-c:a',
    'aac',
    '-b:a',
    '64k',
    '-f',
    'flv',
    url,
  ]);
}
