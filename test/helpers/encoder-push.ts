// ffmpeg as an encoder with chosen codecs, tracks and keyframe interval: what a misconfigured
// OBS would send (the wrong codec, no audio, no video), pushed in real time over RTMP.
import { startPush, type Push } from './media-tools.ts';

export interface EncoderSettings {
  /** Video encoder arguments (`-c:v ...`), or false for an audio-only broadcast. */
  video?: string[] | false;
  /** Audio encoder arguments (`-c:a ...`), or false for a video-only broadcast. */
  audio?: string[] | false;
  size?: string;
}

export const H264 = [
  '-c:v',
  'libx264',
  '-preset',
  'veryfast',
  '-pix_fmt',
  'yuv420p',
  '-g',
  '60',
  '-sc_threshold',
  '0',
];
export const AAC = ['-c:a', 'aac', '-b:a', '128k'];

/** Pushes `seconds` of a test pattern and/or a tone with the given codecs; H.264 and AAC unless told. */
export function pushEncoder(url: string, seconds: number, settings: EncoderSettings = {}): Push {
  const video = settings.video ?? H264;
  const audio = settings.audio ?? AAC;
  const inputs: string[] = [];
  const maps: string[] = [];
  if (video) {
    inputs.push('-re', '-f', 'lavfi', '-i', `testsrc=size=${settings.size ?? '640x360'}:rate=30`);
    maps.push('-map', `${maps.length / 2}:v`);
  }
  if (audio) {
    inputs.push('-re', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100');
    maps.push('-map', `${maps.length / 2}:a`);
  }
  return startPush([
    ...inputs,
    ...maps,
    '-t',
    String(seconds),
    ...(video || []),
    ...(audio || []),
    '-f',
    'flv',
    url,
  ]);
}
