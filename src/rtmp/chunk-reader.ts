// The chunk stream demultiplexer (RTMP specification, section 5.3): reassembles messages from
// interleaved chunks. What a peer may make it hold is bounded: a few chunk streams per
// connection, a size limit per message chosen by the session (small before publishing), and
// a limit on bytes held in unfinished messages. Set Chunk Size and Abort are applied here,
// since they change how the very next chunk is read. Any violation is an RtmpProtocolError.
import { MessageType } from './message-types.ts';
import { RtmpProtocolError } from './protocol-error.ts';

export interface RtmpMessage {
  type: number;
  /** The message stream id (0 for the connection, 1.. for streams made by createStream). */
  streamId: number;
  /** Milliseconds, modulo 2^32. */
  timestamp: number;
  payload: Buffer;
}

export interface ChunkReaderOptions {
  /** The largest message of `type` the peer may send now; 0 refuses the type. */
  maxMessageBytes(type: number): number;
  onMessage(message: RtmpMessage): void;
  /** Distinct chunk stream ids per connection; encoders use three to five. */
  maxChunkStreams?: number;
  /** Bytes held in unfinished messages across all chunk streams. */
  maxBufferedBytes?: number;
}

/** The chunk size every peer starts with. */
export const DEFAULT_CHUNK_SIZE = 128;
/** Set Chunk Size accepts 1 to 2^31-1 (section 5.4.1); larger than a message means whole messages. */
export const MAX_CHUNK_SIZE = 0x7fffffff;
export const MAX_CHUNK_STREAMS = 16;
export const MAX_BUFFERED_BYTES = 12 * 1024 * 1024;
const EXTENDED = 0xffffff;
const MESSAGE_HEADER_SIZE = [11, 7, 3, 0] as const;

/** What is remembered per chunk stream id, for the headers that leave fields out. */
interface ChunkStream {
  timestamp: number;
  /** The last timestamp delta (or absolute timestamp of a type 0), reused by type 3. */
  delta: number;
  /** Whether the last type 0/1/2 header had an extended timestamp (type 3 chunks repeat it). */
  extended: boolean;
  length: number;
  type: number;
  streamId: number;
  /** The unfinished message's bytes so far (grown as they arrive, not by the declared length). */
  data: Buffer;
  received: number;
  inProgress: boolean;
}

export class ChunkReader {
  private readonly options: Required<ChunkReaderOptions>;
  private readonly streams = new Map<number, ChunkStream>();
  private chunkSize = DEFAULT_CHUNK_SIZE;
  /** Bytes of a header that arrived split across reads (at most 18). */
  private leftover: Buffer = Buffer.alloc(0);
  /** The chunk whose payload is being read, and how much of it is still to come. */
  private current: ChunkStream | undefined;
  private chunkLeft = 0;
  /** Declared lengths of the unfinished messages, all chunk streams together. */
  private reserved = 0;
  private stopped = false;

  constructor(options: ChunkReaderOptions) {
    this.options = {
      maxChunkStreams: MAX_CHUNK_STREAMS,
      maxBufferedBytes: MAX_BUFFERED_BYTES,
      ...options,
    };
  }

  /** Reading stops (the connection is being closed); later bytes are ignored. */
  stop(): void {
    this.stopped = true;
  }

  push(data: Buffer): void {
    const buf = this.leftover.length > 0 ? Buffer.concat([this.leftover, data]) : data;
    this.leftover = Buffer.alloc(0);
    let pos = 0;
    while (pos < buf.length && !this.stopped) {
      if (!this.current) {
        const used = this.readHeader(buf, pos);
        if (used === 0) {
          this.leftover = Buffer.from(buf.subarray(pos));
          return;
        }
        pos += used;
        if (this.chunkLeft === 0) this.finishChunk();
        continue;
      }
      const take = Math.min(this.chunkLeft, buf.length - pos);
      append(this.current, buf, pos, take);
      this.chunkLeft -= take;
      pos += take;
      if (this.chunkLeft === 0) this.finishChunk();
    }
  }

  /** Parses one chunk header at `pos`; returns its size, or 0 when more bytes are needed. */
  private readHeader(buf: Buffer, pos: number): number {
    const available = buf.length - pos;
    const first = buf[pos] as number;
    const fmt = first >> 6;
    let csid = first & 0x3f;
    let size = 1;
    if (csid === 0) {
      if (available < 2) return 0;
      csid = 64 + (buf[pos + 1] as number);
      size = 2;
    } else if (csid === 1) {
      if (available < 3) return 0;
      csid = 64 + (buf[pos + 1] as number) + (buf[pos + 2] as number) * 256;
      size = 3;
    }
    const headerAt = pos + size;
    size += MESSAGE_HEADER_SIZE[fmt as 0 | 1 | 2 | 3];
    if (available < size) return 0;

    let stream = this.streams.get(csid);
    if (!stream) {
      if (fmt !== 0)
        throw new RtmpProtocolError(
          `chunk: type ${fmt} header on chunk stream ${csid} without a previous header`,
        );
      if (this.streams.size >= this.options.maxChunkStreams) {
        throw new RtmpProtocolError(`chunk: more than ${this.options.maxChunkStreams} chunk streams`);
      }
    }
    if (stream?.inProgress && fmt !== 3) {
      throw new RtmpProtocolError(
        `chunk: new type ${fmt} header in the middle of a message on chunk stream ${csid}`,
      );
    }

    const field = fmt <= 2 ? buf.readUIntBE(headerAt, 3) : 0;
    const extended = fmt <= 2 ? field === EXTENDED : (stream?.extended ?? false);
    if (extended) {
      if (available < size + 4) return 0;
    }
    const extendedValue = extended ? buf.readUInt32BE(pos + size) : 0;
    if (extended) size += 4;

    if (!stream) {
      stream = {
        timestamp: 0,
        delta: 0,
        extended: false,
        length: 0,
        type: 0,
        streamId: 0,
        data: EMPTY,
        received: 0,
        inProgress: false,
      };
      this.streams.set(csid, stream);
    }

    if (stream.inProgress) {
      // A continuation chunk: its header carries nothing new (an extended timestamp repeats).
      this.current = stream;
      this.chunkLeft = Math.min(this.chunkSize, stream.length - stream.received);
      return size;
    }

    const value = extended ? extendedValue : field;
    if (fmt <= 1) {
      stream.length = buf.readUIntBE(headerAt + 3, 3);
      stream.type = buf[headerAt + 6] as number;
    }
    if (fmt === 0) {
      stream.streamId = buf.readUInt32LE(headerAt + 7);
      stream.timestamp = value;
      stream.delta = value;
    } else if (fmt <= 2) {
      stream.delta = value;
      stream.timestamp = (stream.timestamp + value) >>> 0;
    } else {
      stream.timestamp = (stream.timestamp + stream.delta) >>> 0;
    }
    if (fmt <= 2) stream.extended = extended;

    const limit = this.options.maxMessageBytes(stream.type);
    if (stream.length > limit) {
      throw new RtmpProtocolError(
        limit === 0
          ? `chunk: message type ${stream.type} not allowed now`
          : `chunk: message type ${stream.type} of ${stream.length} bytes exceeds ${limit}`,
      );
    }
    if (this.reserved + stream.length > this.options.maxBufferedBytes) {
      throw new RtmpProtocolError('chunk: too many bytes in unfinished messages');
    }
    this.reserved += stream.length;
    stream.inProgress = true;
    stream.data = EMPTY;
    stream.received = 0;
    this.current = stream;
    this.chunkLeft = Math.min(this.chunkSize, stream.length);
    return size;
  }

  /** The current chunk's payload is in; deliver the message if it is complete. */
  private finishChunk(): void {
    const stream = this.current;
    this.current = undefined;
    if (!stream || stream.received < stream.length) return;
    const payload = stream.data.subarray(0, stream.received);
    this.release(stream);
    const message: RtmpMessage = {
      type: stream.type,
      streamId: stream.streamId,
      timestamp: stream.timestamp,
      payload,
    };
    if (message.type === MessageType.setChunkSize) this.setChunkSize(payload);
    else if (message.type === MessageType.abort) this.abort(payload);
    else this.options.onMessage(message);
  }

  private setChunkSize(payload: Buffer): void {
    if (payload.length < 4) throw new RtmpProtocolError('Set Chunk Size: payload shorter than 4 bytes');
    const size = payload.readUInt32BE(0);
    if (size < 1 || size > MAX_CHUNK_SIZE)
      throw new RtmpProtocolError(`Set Chunk Size: ${size} is out of range`);
    this.chunkSize = size;
  }

  /** Abort Message: the peer gives up on the unfinished message of one chunk stream. */
  private abort(payload: Buffer): void {
    if (payload.length < 4) throw new RtmpProtocolError('Abort: payload shorter than 4 bytes');
    const stream = this.streams.get(payload.readUInt32BE(0));
    if (stream?.inProgress) this.release(stream);
  }

  private release(stream: ChunkStream): void {
    this.reserved -= stream.length;
    stream.data = EMPTY;
    stream.received = 0;
    stream.inProgress = false;
  }
}

const EMPTY = Buffer.alloc(0);
/** The first allocation for a message; it doubles from there, up to the declared length. */
const INITIAL_CAPACITY = 4096;

/** Copies `take` bytes of `buf` at `pos` onto the stream's unfinished message. */
function append(stream: ChunkStream, buf: Buffer, pos: number, take: number): void {
  const needed = stream.received + take;
  if (needed > stream.data.length) {
    const capacity = Math.min(stream.length, Math.max(needed, stream.data.length * 2, INITIAL_CAPACITY));
    const grown = Buffer.allocUnsafe(capacity);
    stream.data.copy(grown, 0, 0, stream.received);
    stream.data = grown;
  }
  buf.copy(stream.data, stream.received, pos, pos + take);
  stream.received = needed;
}
