// The publisher's FLV on its way to the packager, switchable to another packager at a video
// keyframe: when a transcoding ffmpeg falls behind, ingest hands the rest of the publish to a
// new packager with fewer rungs without touching the publisher's connection. The new packager
// is given what an FLV reader needs to start mid-stream: the file header and the audio and
// video sequence headers, then the keyframe and everything after it.
import { tagKind } from '../rtmp/flv.ts';
import type { FlvSink } from '../rtmp/rtmp-server.ts';

export class FlvRelay implements FlvSink {
  private target: FlvSink;
  private header: Buffer | undefined;
  private videoConfig: Buffer | undefined;
  private audioConfig: Buffer | undefined;
  private nextTarget: (() => FlvSink) | undefined;
  private abandoned: (() => void) | undefined;

  constructor(target: FlvSink) {
    this.target = target;
  }

  write(chunk: Buffer): void {
    const kind = tagKind(chunk);
    if (kind === 'header') this.header = chunk;
    else if (kind === 'video-config') this.videoConfig = chunk;
    else if (kind === 'audio-config') this.audioConfig = chunk;
    else if (kind === 'keyframe' && this.nextTarget) {
      const make = this.nextTarget;
      this.nextTarget = undefined;
      this.abandoned = undefined;
      this.target.end();
      this.target = make();
      for (const start of [this.header, this.videoConfig, this.audioConfig]) {
        if (start) this.target.write(start);
      }
    }
    this.target.write(chunk);
  }

  end(): void {
    this.nextTarget = undefined;
    // The publish ended before the keyframe: whatever the switch held is let go.
    this.abandoned?.();
    this.abandoned = undefined;
    this.target.end();
  }

  /**
   * From the next video keyframe on, the media goes to the sink `make` returns then;
   * `abandoned` is called instead if the media ends before that keyframe.
   */
  switchAtNextKeyframe(make: () => FlvSink, abandoned?: () => void): void {
    this.nextTarget = make;
    this.abandoned = abandoned;
  }
}
