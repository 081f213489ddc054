// The server's handshake answers both kinds of client: the plain handshake of the
// specification (S2 echoes C1) and the digest handshake of Flash-style clients, checked here
// the way ffmpeg's RTMP client checks it (libavformat/rtmpproto.c, rtmp_handshake).
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { HANDSHAKE_SIZE, HandshakeReader, serverHandshake } from '../../src/rtmp/handshake.ts';
import { RtmpProtocolError } from '../../src/rtmp/protocol-error.ts';

const PLAYER_KEY = Buffer.from('Genuine Adobe Flash Player 001', 'utf8');
const SERVER_KEY_TEXT = Buffer.from('Genuine Adobe Flash Media Server 001', 'utf8');
const SERVER_KEY = Buffer.concat([
  SERVER_KEY_TEXT,
  Buffer.from('f0eec24a8068bee82e00d0d1029e7e576eec5d2d29806fab93b8e636cfeb31ae', 'hex'),
]);

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** ffmpeg's ff_rtmp_calc_digest_pos: four bytes at `off` summed, modulo 728, plus `add`. */
const digestPos = (buf: Buffer, off: number, add: number) =>
  ((buf[off]! + buf[off + 1]! + buf[off + 2]! + buf[off + 3]!) % 728) + add;

/** The digest over a block without its 32 digest bytes. */
const digestAt = (buf: Buffer, pos: number, key: Buffer) =>
  hmac(key, Buffer.concat([buf.subarray(0, pos), buf.subarray(pos + 32)]));

/** A C1 as ffmpeg writes it: its version, then the digest at the offset bytes 8..11 pick. */
function ffmpegC1(): { c1: Buffer; digestPosition: number } {
  const c1 = randomBytes(HANDSHAKE_SIZE);
  c1.writeUInt32BE(0, 0);
  Buffer.from([9, 0, 124, 2]).copy(c1, 4);
  const digestPosition = digestPos(c1, 8, 12);
  digestAt(c1, digestPosition, PLAYER_KEY).copy(c1, digestPosition);
  return { c1, digestPosition };
}

test('a digest (Flash-style) C1 gets an S1 and S2 ffmpeg accepts', () => {
  for (let i = 0; i < 20; i++) {
    const { c1, digestPosition } = ffmpegC1();
    const reply = serverHandshake(c1);
    assert.equal(reply.length, 1 + 2 * HANDSHAKE_SIZE);
    assert.equal(reply[0], 3);
    const s1 = reply.subarray(1, 1 + HANDSHAKE_SIZE);
    const s2 = reply.subarray(1 + HANDSHAKE_SIZE);
    // S1 carries the server's digest, found at either of the two places ffmpeg looks.
    const valid = [digestPos(s1, 772, 776), digestPos(s1, 8, 12)].some((pos) =>
      digestAt(s1, pos, SERVER_KEY_TEXT).equals(s1.subarray(pos, pos + 32)),
    );
    assert.ok(valid, 'S1 digest');
    // S2 ends with a signature keyed by the client's own digest.
    const key = hmac(SERVER_KEY, c1.subarray(digestPosition, digestPosition + 32));
    const signature = hmac(key, s2.subarray(0, HANDSHAKE_SIZE - 32));
    assert.deepEqual(s2.subarray(HANDSHAKE_SIZE - 32), signature, 'S2 signature');
  }
});

test('a plain C1 is echoed in S2', () => {
  const c1 = Buffer.concat([Buffer.alloc(8), randomBytes(HANDSHAKE_SIZE - 8)]);
  const reply = serverHandshake(c1);
  assert.equal(reply[0], 3);
  assert.deepEqual(reply.subarray(1 + HANDSHAKE_SIZE), c1);
});

test('the reader answers once C0 and C1 are in, and is done after C2, however split', () => {
  const c0c1 = Buffer.concat([Buffer.from([3]), randomBytes(HANDSHAKE_SIZE)]);
  const c2 = randomBytes(HANDSHAKE_SIZE);
  const after = Buffer.from([0x03, 0xaa]);
  const all = Buffer.concat([c0c1, c2, after]);
  for (const split of [1, 100, 1537, all.length]) {
    const reader = new HandshakeReader();
    const replies: Buffer[] = [];
    let rest = Buffer.alloc(0);
    for (let offset = 0; offset < all.length; offset += split) {
      let piece = all.subarray(offset, offset + split);
      while (piece.length > 0 && !reader.done) {
        const { used, reply } = reader.feed(piece);
        if (reply) replies.push(reply);
        piece = piece.subarray(used);
      }
      rest = Buffer.concat([rest, piece]);
    }
    assert.equal(replies.length, 1, `split ${split}`);
    assert.ok(reader.done);
    assert.deepEqual(rest, after, 'the bytes after C2 are left for the chunk reader');
  }
});

test('a version other than 3 is a protocol error', () => {
  for (const version of [0, 6, 0x47]) {
    assert.throws(
      () => new HandshakeReader().feed(Buffer.from([version, 0, 0])),
      (error: unknown) => error instanceof RtmpProtocolError && /unsupported RTMP version/.test(error.reason),
    );
  }
});
