// Chunks for what the server sends: each message as one type-0 chunk and type-3
// continuations (section 5.3.1), plus the protocol control messages it needs.
import { MessageType } from './message-types.ts';

/** The chunk size the server announces at connect and then writes with. */
export const OUT_CHUNK_SIZE = 4096;

/** Chunk stream ids the server writes on: protocol control, and commands. */
export const CONTROL_CHUNK_STREAM = 2;
export const COMMAND_CHUNK_STREAM = 3;

/** One message as chunks (our chunk stream ids are always below 64; timestamps are 0). */
export function writeChunks(
  csid: number,
  type: number,
  streamId: number,
  payload: Buffer,
  chunkSize: number,
): Buffer {
  const header = Buffer.alloc(12);
  header[0] = csid;
  header.writeUIntBE(0, 1, 3);
  header.writeUIntBE(payload.length, 4, 3);
  header[7] = type;
  header.writeUInt32LE(streamId, 8);
  const parts: Buffer[] = [header];
  for (let offset = 0; offset < payload.length; offset += chunkSize) {
    if (offset > 0) parts.push(Buffer.from([0xc0 | csid]));
    parts.push(payload.subarray(offset, offset + chunkSize));
  }
  return Buffer.concat(parts);
}

function control(type: number, payload: Buffer): Buffer {
  return writeChunks(CONTROL_CHUNK_STREAM, type, 0, payload, OUT_CHUNK_SIZE);
}

function u32(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value >>> 0);
  return out;
}

export const controlMessages = {
  setChunkSize: (size: number) => control(MessageType.setChunkSize, u32(size)),
  windowAckSize: (size: number) => control(MessageType.windowAckSize, u32(size)),
  /** Limit type 2 ("dynamic"). */
  setPeerBandwidth: (size: number) =>
    control(MessageType.setPeerBandwidth, Buffer.concat([u32(size), Buffer.from([2])])),
  acknowledgement: (bytesReceived: number) => control(MessageType.acknowledgement, u32(bytesReceived)),
  /** User Control "Stream Begin" (event 0) for a message stream. */
  streamBegin: (streamId: number) =>
    control(MessageType.userControl, Buffer.concat([Buffer.from([0, 0]), u32(streamId)])),
};
