// The picture shown for a stream or video, from one of its segments: a frame of its video, or,
// when it has only audio, a poster of the sound's waveform (ffmpeg's showwavespic). Media with
// neither gets no picture (an error the caller reports).
import { runTool, captureFrame, ffprobePathFor, localInput, probeMedia } from '../ffmpeg/ffmpeg.ts';
import fs from 'node:fs/promises';
import path from 'node:path';

export const POSTER_WIDTH = 640;
export const POSTER_HEIGHT = 360;

/** Writes `output` (a JPEG) for `segmentFile`; says which kind of picture it made. */
export async function makeThumbnail(
  ffmpegPath: string,
  segmentFile: string,
  output: string,
  atSeconds = 0,
): Promise<'frame' | 'waveform'> {
  const facts = await probeMedia(ffprobePathFor(ffmpegPath), segmentFile);
  if (facts.videoCodec !== undefined) {
    // No frame at that offset (a segment shorter than its EXTINF) is expected now and then:
    // the segment's first frame, a keyframe, always decodes; its failure is the one reported.
    await captureFrame(ffmpegPath, segmentFile, output, atSeconds).catch(() =>
      captureFrame(ffmpegPath, segmentFile, output, 0),
    );
    return 'frame';
  }
  if (facts.audioCodec !== undefined) {
    await waveformPoster(ffmpegPath, segmentFile, output);
    return 'waveform';
  }
  throw new Error('the media has neither video nor audio to make a picture from');
}

/** A 640x360 picture of the segment's waveform, written beside `output` and renamed into place. */
async function waveformPoster(ffmpegPath: string, input: string, output: string): Promise<void> {
  const temporary = path.join(path.dirname(output), `.${path.basename(output, '.jpg')}.tmp.jpg`);
  await runTool(
    ffmpegPath,
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      '-y',
      '-i',
      localInput(input),
      '-filter_complex',
      `[0:a:0]showwavespic=s=${POSTER_WIDTH}x${POSTER_HEIGHT}:split_channels=0:colors=0x5b8def,format=yuvj420p`,
      '-frames:v',
      '1',
      '-update',
      '1',
      '-q:v',
      '4',
      temporary,
    ],
    { timeoutMs: 30_000 },
  );
  await fs.rename(temporary, output);
}
