// The chunk reader reassembles messages however the bytes are split, applies the header
// compression rules of the specification (deltas, type 3 reuse, extended timestamps, the
// three basic header forms), and refuses what would make it hold too much.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChunkReader, type RtmpMessage } from '../../src/rtmp/chunk-reader.ts';
import { RtmpProtocolError } from '../../src/rtmp/protocol-error.ts';
import { chunkHeader, chunkMessage, MSG, setChunkSizeMessage } from '../helpers/rtmp-client.ts';

function read(
  bytes: Buffer,
  options: { split?: number; limit?: number; maxChunkStreams?: number } = {},
): RtmpMessage[] {
  const messages: RtmpMessage[] = [];
  const reader = new ChunkReader({
    maxMessageBytes: () => options.limit ?? 1 << 20,
    onMessage: (message) => messages.push({ ...message, payload: Buffer.from(message.payload) }),
    ...(options.maxChunkStreams ? { maxChunkStreams: options.maxChunkStreams } : {}),
  });
  const split = options.split ?? bytes.length;
  for (let offset = 0; offset < bytes.length; offset += split)
    reader.push(bytes.subarray(offset, offset + split));
  return messages;
}

const protocolError = (bytes: Buffer, reason: RegExp, options: Parameters<typeof read>[1] = {}) => {
  assert.throws(
    () => read(bytes, options),
    (error: unknown) => error instanceof RtmpProtocolError && reason.test(error.reason),
  );
};

const payload = (length: number, seed = 1) =>
  Buffer.from(Array.from({ length }, (_, i) => (i * seed) & 0xff));

test('messages come out whole however the bytes are split', () => {
  const video = payload(1000, 7);
  const audio = payload(300, 3);
  const bytes = Buffer.concat([
    chunkMessage({ csid: 6, type: MSG.video, payload: video, streamId: 1, timestamp: 40 }),
    chunkMessage({ csid: 4, type: MSG.audio, payload: audio, streamId: 1, timestamp: 41 }),
    chunkMessage({ csid: 3, type: MSG.invoke, payload: Buffer.alloc(0) }),
  ]);
  for (const split of [1, 2, 3, 17, 128, 129, bytes.length]) {
    const messages = read(bytes, { split });
    assert.deepEqual(
      messages.map((m) => [m.type, m.streamId, m.timestamp, m.payload.length]),
      [
        [MSG.video, 1, 40, 1000],
        [MSG.audio, 1, 41, 300],
        [MSG.invoke, 0, 0, 0],
      ],
      `split every ${split} bytes`,
    );
    assert.deepEqual(messages[0]!.payload, video);
    assert.deepEqual(messages[1]!.payload, audio);
  }
});

test('interleaved chunks of two messages', () => {
  const a = payload(200, 1);
  const b = payload(200, 2);
  const bytes = Buffer.concat([
    chunkHeader({ fmt: 0, csid: 4, length: 200, type: MSG.audio, streamId: 1, timestamp: 5 }),
    a.subarray(0, 128),
    chunkHeader({ fmt: 0, csid: 6, length: 200, type: MSG.video, streamId: 1, timestamp: 6 }),
    b.subarray(0, 128),
    chunkHeader({ fmt: 3, csid: 4 }),
    a.subarray(128),
    chunkHeader({ fmt: 3, csid: 6 }),
    b.subarray(128),
  ]);
  const messages = read(bytes, { split: 5 });
  assert.deepEqual(
    messages.map((m) => m.payload),
    [a, b],
  );
});

test('type 1, 2 and 3 headers reuse what came before, with timestamp deltas', () => {
  const bytes = Buffer.concat([
    chunkHeader({ fmt: 0, csid: 4, length: 2, type: MSG.audio, streamId: 1, timestamp: 1000 }),
    Buffer.from([1, 1]),
    chunkHeader({ fmt: 1, csid: 4, length: 3, type: MSG.audio, timestamp: 23 }),
    Buffer.from([2, 2, 2]),
    chunkHeader({ fmt: 2, csid: 4, timestamp: 20 }),
    Buffer.from([3, 3, 3]),
    chunkHeader({ fmt: 3, csid: 4 }),
    Buffer.from([4, 4, 4]),
  ]);
  assert.deepEqual(
    read(bytes).map((m) => [m.timestamp, m.streamId, m.payload.length]),
    [
      [1000, 1, 2],
      [1023, 1, 3],
      [1043, 1, 3],
      [1063, 1, 3],
    ],
  );
});

test('extended timestamps, repeated in type 3 continuation chunks', () => {
  const timestamp = 0x01234567;
  const data = payload(300);
  const messages = read(chunkMessage({ csid: 5, type: MSG.video, payload: data, streamId: 1, timestamp }), {
    split: 7,
  });
  assert.equal(messages.length, 1);
  assert.equal(messages[0]!.timestamp, timestamp);
  assert.deepEqual(messages[0]!.payload, data);
  // A type 3 chunk starting a new message after an extended one adds the delta again.
  const next = read(
    Buffer.concat([
      chunkHeader({ fmt: 0, csid: 5, length: 1, type: MSG.video, streamId: 1, timestamp: 0xffffff + 1 }),
      Buffer.from([9]),
      chunkHeader({ fmt: 3, csid: 5, extendedTimestamp: 0xffffff + 1 }),
      Buffer.from([9]),
    ]),
  );
  assert.deepEqual(
    next.map((m) => m.timestamp),
    [0x1000000, 0x2000000],
  );
});

test('the two- and three-byte chunk stream id forms', () => {
  const ids = [2, 63, 64, 319, 320, 65599];
  const bytes = Buffer.concat(
    ids.map((csid, i) => chunkMessage({ csid, type: MSG.invoke, payload: Buffer.from([i]) })),
  );
  assert.deepEqual(
    read(bytes).map((m) => m.payload[0]),
    [0, 1, 2, 3, 4, 5],
  );
});

test('Set Chunk Size changes how the next chunk is read, within 1 and 2^31-1', () => {
  const data = payload(5000);
  for (const size of [1, 4096, 0x7fffffff]) {
    const bytes = Buffer.concat([
      setChunkSizeMessage(size),
      chunkMessage({ csid: 6, type: MSG.video, payload: data, chunkSize: size }),
    ]);
    assert.deepEqual(read(bytes, { split: 1000 })[0]!.payload, data, `chunk size ${size}`);
  }
  protocolError(setChunkSizeMessage(0), /Set Chunk Size: 0 is out of range/);
  protocolError(setChunkSizeMessage(0x80000000), /out of range/);
  protocolError(
    chunkMessage({ csid: 2, type: MSG.setChunkSize, payload: Buffer.alloc(3) }),
    /shorter than 4 bytes/,
  );
  protocolError(
    chunkMessage({ csid: 2, type: MSG.setChunkSize, payload: Buffer.alloc(0) }),
    /shorter than 4 bytes/,
  );
});

test('Abort drops the unfinished message of a chunk stream', () => {
  const abort = Buffer.alloc(4);
  abort.writeUInt32BE(6);
  const bytes = Buffer.concat([
    chunkHeader({ fmt: 0, csid: 6, length: 300, type: MSG.video, streamId: 1 }),
    payload(128),
    chunkMessage({ csid: 2, type: MSG.abort, payload: abort }),
    chunkMessage({ csid: 6, type: MSG.video, payload: Buffer.from([7]), streamId: 1 }),
  ]);
  assert.deepEqual(
    read(bytes).map((m) => [...m.payload]),
    [[7]],
  );
  protocolError(chunkMessage({ csid: 2, type: MSG.abort, payload: Buffer.alloc(2) }), /Abort/);
});

test('headers that refer to nothing, or break into a message, are protocol errors', () => {
  protocolError(
    Buffer.concat([chunkHeader({ fmt: 3, csid: 9 }), Buffer.alloc(4)]),
    /type 3 header on chunk stream 9/,
  );
  protocolError(chunkHeader({ fmt: 1, csid: 9, length: 4, type: MSG.invoke }), /type 1 header/);
  protocolError(chunkHeader({ fmt: 2, csid: 9 }), /type 2 header/);
  protocolError(
    Buffer.concat([
      chunkHeader({ fmt: 0, csid: 6, length: 300, type: MSG.video }),
      payload(128),
      chunkHeader({ fmt: 0, csid: 6, length: 10, type: MSG.video }),
    ]),
    /in the middle of a message/,
  );
});

test('chunk streams, message sizes and unfinished bytes are bounded', () => {
  // Each chunk stream gets a header and its first chunk (the whole message when short).
  const open = (count: number, length: number) =>
    Buffer.concat(
      Array.from({ length: count }, (_, i) => [
        chunkHeader({ fmt: 0, csid: 10 + i, length, type: MSG.video }),
        payload(Math.min(length, 128)),
      ]).flat(),
    );
  read(open(16, 10));
  protocolError(open(17, 10), /more than 16 chunk streams/);
  protocolError(chunkHeader({ fmt: 0, csid: 3, length: 1001, type: MSG.invoke }), /1001 bytes exceeds 1000/, {
    limit: 1000,
  });
  protocolError(chunkHeader({ fmt: 0, csid: 3, length: 1, type: MSG.video }), /type 9 not allowed now/, {
    limit: 0,
  });
  // Twelve unfinished 1 MiB messages would hold 12 MiB, which is the limit.
  protocolError(open(13, 1 << 20), /too many bytes in unfinished messages/);
});
