// Splits an FLV byte stream (ffmpeg's `-f flv pipe:1`) into the chunks the RTMP ingest hands to
// its sinks: the 13-byte file header (with PreviousTagSize0), then one tag with its trailing
// PreviousTagSize per chunk.
import { Transform, type TransformCallback } from 'node:stream';

export class FlvTagSplitter extends Transform {
  private pending = Buffer.alloc(0);
  private headerDone = false;

  constructor() {
    super({ readableObjectMode: true });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pending = Buffer.concat([this.pending, chunk]);
    for (;;) {
      if (!this.headerDone) {
        if (this.pending.length < 13) break;
        this.push(this.pending.subarray(0, 13));
        this.pending = this.pending.subarray(13);
        this.headerDone = true;
        continue;
      }
      if (this.pending.length < 11) break;
      const size = 11 + this.pending.readUIntBE(1, 3) + 4;
      if (this.pending.length < size) break;
      this.push(Buffer.from(this.pending.subarray(0, size)));
      this.pending = this.pending.subarray(size);
    }
    done();
  }
}
