// One publisher's FLV handed to every output of the publish: the stream's HLS first, then the
// registered outputs (simulcast...). An output may join late (its open() is asynchronous): it
// is given the FLV header and the audio and video sequence headers seen so far, then media
// from the next video keyframe, which is where a decoder can start. An output whose write
// throws is dropped and logged; the others, and the HLS, go on.
import type { Logger } from 'pino';
import { tagKind } from '../rtmp/flv.ts';
import type { FlvSink } from '../rtmp/rtmp-server.ts';

interface Member {
  sink: FlvSink;
  name: string;
  /** Joined mid-stream: waits for a video keyframe before media. */
  awaitingKeyframe: boolean;
}

export class FlvFanout implements FlvSink {
  private readonly members: Member[] = [];
  private readonly logger: Logger;
  private header: Buffer | undefined;
  private videoConfig: Buffer | undefined;
  private audioConfig: Buffer | undefined;
  private ended = false;

  constructor(logger: Logger) {
    this.logger = logger;
  }

  /** A sink from now on; one added after media began starts at the next keyframe. */
  add(name: string, sink: FlvSink): void {
    if (this.ended) {
      this.safely({ sink, name, awaitingKeyframe: false }, () => {
        sink.end();
      });
      return;
    }
    const member: Member = { sink, name, awaitingKeyframe: this.header !== undefined };
    this.members.push(member);
    for (const start of [this.header, this.videoConfig, this.audioConfig]) {
      if (start)
        this.safely(member, () => {
          sink.write(start);
        });
    }
  }

  write(chunk: Buffer): void {
    const kind = tagKind(chunk);
    if (kind === 'header') this.header = chunk;
    else if (kind === 'video-config') this.videoConfig = chunk;
    else if (kind === 'audio-config') this.audioConfig = chunk;
    for (const member of [...this.members]) {
      if (member.awaitingKeyframe) {
        // Sequence headers that arrive while it waits are what its decoder needs first.
        const starts = kind === 'video-config' || kind === 'audio-config';
        if (kind !== 'keyframe' && !starts) continue;
        if (kind === 'keyframe') member.awaitingKeyframe = false;
      }
      this.safely(member, () => {
        member.sink.write(chunk);
      });
    }
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const member of [...this.members])
      this.safely(member, () => {
        member.sink.end();
      });
  }

  private safely(member: Member, step: () => void): void {
    try {
      step();
    } catch (error) {
      const index = this.members.indexOf(member);
      if (index >= 0) this.members.splice(index, 1);
      this.logger.error(
        { err: error, output: member.name },
        'a publish output failed; it gets no more media',
      );
    }
  }
}
