// What the ladder tests share: a cheap ladder configuration and a cheap 720p push.
import { parseLadder, type TranscodeConfig } from '../../src/transcode/ladder.ts';
import type { Page } from 'playwright-core';
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

/**
 * Plays `url` with the page's hls.js in a video element of its own, recording each level it
 * switches to and each stall (a `waiting` until `playing`); read it back with ladderState.
 */
export async function playLadder(page: Page, url: string): Promise<void> {
  await page.evaluate((source) => {
    const w = globalThis as any;
    const video = w.document.createElement('video');
    video.muted = true;
    video.id = 'ladder';
    w.document.body.append(video);
    const hls = new w.Hls({ liveSyncDurationCount: 2 });
    w.ladder = { hls, switched: [] as number[], stalls: [] as number[], waitingSince: undefined };
    hls.on(w.Hls.Events.LEVEL_SWITCHED, (_: unknown, data: { level: number }) =>
      w.ladder.switched.push(data.level),
    );
    video.addEventListener('waiting', () => {
      w.ladder.waitingSince = performance.now();
    });
    video.addEventListener('playing', () => {
      if (w.ladder.waitingSince !== undefined)
        w.ladder.stalls.push(performance.now() - w.ladder.waitingSince);
      w.ladder.waitingSince = undefined;
    });
    hls.loadSource(source);
    hls.attachMedia(video);
    void video.play();
  }, url);
}

/** What playLadder's player has done so far. */
export function ladderState(page: Page) {
  return page.evaluate(() => {
    const w = globalThis as any;
    const video = w.document.querySelector('#ladder');
    return {
      levels: w.ladder.hls.levels.map((level: any) => level.height) as number[],
      level: w.ladder.hls.currentLevel as number,
      switched: w.ladder.switched as number[],
      stalls: w.ladder.stalls as number[],
      waitingFor: w.ladder.waitingSince === undefined ? 0 : performance.now() - w.ladder.waitingSince,
      time: Number(video.currentTime),
      height: Number(video.videoHeight),
    };
  });
}
