// The publisher's FLV on its way to the packager, switchable to another packager at a video
// keyframe: when a transcoding ffmpeg falls behind, ingest hands the rest of the publish to a
// new packager with fewer rungs without touching the publisher's connection. The new packager
// is given what an FLV reader needs to start mid-stream: the file header and the audio and
// video sequence headers, then the keyframe and everything after it.
import type { FlvSink } from '../rtmp/rtmp-server.ts';

export class FlvRelay implements FlvSink {
  private target: FlvSink;
  private header: Buffer | undefined;
  private videoConfig: Buffer | undefined;
  private audioConfig: Buffer | undefined;
  private nextTarget: (() => FlvSink) | undefined;

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
    this.target.end();
  }

  /** From the next video keyframe on, the media goes to the sink `make` returns then. */
  switchAtNextKeyframe(make: () => FlvSink): void {
    this.nextTarget = make;
  }
}

type TagKind = 'header' | 'video-config' | 'audio-config' | 'keyframe' | 'other';

/** What one chunk the RTMP connection writes is: the FLV header or one tag (flv.ts). */
export function tagKind(chunk: Buffer): TagKind {
  if (chunk.length >= 3 && chunk.toString('latin1', 0, 3) === 'FLV') return 'header';
  if (chunk.length < 13) return 'other';
  const first = chunk[11] ?? 0;
  const second = chunk[12] ?? 0;
  if (chunk[0] === 9) {
    // FrameType 1 is a keyframe; AVCPacketType 0 the decoder configuration.
    if (second === 0 && (first & 0x0f) === 7) return 'video-config';
    if (first >> 4 === 1) return 'keyframe';
  }
  // SoundFormat 10 is AAC; AACPacketType 0 the AudioSpecificConfig.
  if (chunk[0] === 8 && first >> 4 === 10 && second === 0) return 'audio-config';
  return 'other';
}

/** The tag's timestamp in milliseconds, undefined for the header. */
export function tagTimestamp(chunk: Buffer): number | undefined {
  if (chunk.length < 11 || (chunk[0] !== 8 && chunk[0] !== 9)) return undefined;
  return chunk.readUIntBE(4, 3) + (chunk[7] ?? 0) * 0x1000000;
}
