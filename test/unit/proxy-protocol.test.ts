// The PROXY protocol header a balancer sends before an encoder's RTMP bytes: versions 1 and 2
// read whole or in pieces, the bytes after it kept for the RTMP session, and every malformed or
// oversized header refused as a protocol error (which closes that one connection).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RtmpProtocolError } from '../../src/rtmp/protocol-error.ts';
import { ProxyHeaderReader } from '../../src/rtmp/proxy-protocol.ts';

const RTMP_C0 = Buffer.from([0x03, 0x00, 0x00]);
const V2_SIGNATURE = Buffer.from('0d0a0d0a000d0a515549540a', 'hex');

function v2(command: number, family: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head[0] = 0x20 | command;
  head[1] = (family << 4) | 1;
  head.writeUInt16BE(payload.length, 2);
  return Buffer.concat([V2_SIGNATURE, head, payload]);
}

/** Feeds `bytes` in pieces; the header, with `rest` as all the bytes after it (fed or not). */
function readAll(bytes: Buffer, pieceSize = bytes.length) {
  const reader = new ProxyHeaderReader();
  for (let at = 0; at < bytes.length; at += pieceSize) {
    const header = reader.feed(bytes.subarray(at, at + pieceSize));
    if (header !== undefined) {
      return { ...header, rest: Buffer.concat([header.rest, bytes.subarray(at + pieceSize)]) };
    }
  }
  return undefined;
}

test('version 1 names the client, whole or one byte at a time, and keeps what follows', () => {
  const bytes = Buffer.concat([Buffer.from('PROXY TCP4 203.0.113.7 10.0.0.2 51234 1935\r\n'), RTMP_C0]);
  for (const piece of [bytes.length, 1, 7]) {
    const header = readAll(bytes, piece);
    assert.equal(header?.address, '203.0.113.7');
    assert.deepEqual(header.rest, RTMP_C0);
  }
  assert.equal(
    readAll(Buffer.from('PROXY TCP6 2001:db8::7 2001:db8::1 51234 1935\r\n'))?.address,
    '2001:db8::7',
  );
  const unknown = readAll(Buffer.from('PROXY UNKNOWN\r\n'));
  assert.ok(unknown);
  assert.equal(unknown.address, undefined);
});

test('version 2 names IPv4 and IPv6 clients as Node spells them; LOCAL names none', () => {
  const ipv4 = Buffer.from([198, 51, 100, 9, 10, 0, 0, 2, 0xc8, 0x22, 0x07, 0x8f]);
  const header = readAll(Buffer.concat([v2(1, 1, ipv4), RTMP_C0]), 5);
  assert.equal(header?.address, '198.51.100.9');
  const ipv6 = Buffer.alloc(36);
  Buffer.from('20010db8000000000000000000000007', 'hex').copy(ipv6, 0);
  assert.equal(readAll(v2(1, 2, ipv6))?.address, '2001:db8::7');
  const mapped = Buffer.alloc(36);
  Buffer.from('00000000000000000000ffffc0000201', 'hex').copy(mapped, 0);
  assert.equal(readAll(v2(1, 2, mapped))?.address, '::ffff:192.0.2.1');
  // Extensions (TLVs) after the addresses are skipped.
  const withTlv = Buffer.concat([ipv4, Buffer.from([0x04, 0x00, 0x02, 0xaa, 0xbb])]);
  assert.deepEqual(readAll(Buffer.concat([v2(1, 1, withTlv), RTMP_C0]))?.rest, RTMP_C0);
  const local = readAll(v2(0, 0, Buffer.alloc(0)));
  assert.ok(local);
  assert.equal(local.address, undefined);
});

test('anything but a well-formed header is a protocol error, and none is read past its bound', () => {
  const refused = [
    RTMP_C0, // an encoder connecting straight to a port that expects the balancer
    Buffer.from('GET / HTTP/1.1\r\n'),
    Buffer.from('PROXY TCP4 203.0.113.7 10.0.0.2 51234\r\n'),
    Buffer.from('PROXY TCP4 2001:db8::7 10.0.0.2 51234 1935\r\n'),
    Buffer.from('PROXY TCP4 203.0.113.7 10.0.0.2 99999 1935\r\n'),
    Buffer.from('PROXY TCP4 203.0.113.700 10.0.0.2 1 1935\r\n'),
    Buffer.from('PROXY SCTP 203.0.113.7 10.0.0.2 1 1935\r\n'),
    Buffer.from(`PROXY TCP4 ${'1'.repeat(120)}`), // no CRLF within 107 bytes
    Buffer.concat([V2_SIGNATURE, Buffer.from([0x30, 0x11, 0x00, 0x0c]), Buffer.alloc(12)]), // version 3
    Buffer.concat([V2_SIGNATURE, Buffer.from([0x22, 0x11, 0x00, 0x0c]), Buffer.alloc(12)]), // command 2
    Buffer.concat([V2_SIGNATURE, Buffer.from([0x21, 0x11, 0x00, 0x04]), Buffer.alloc(4)]), // short IPv4
    Buffer.concat([V2_SIGNATURE, Buffer.from([0x21, 0x11, 0xff, 0xff])]), // 64 KiB announced
  ];
  for (const bytes of refused) {
    assert.throws(() => readAll(bytes), RtmpProtocolError, bytes.toString('latin1'));
  }
  // A partial header is waited for, not refused.
  assert.equal(new ProxyHeaderReader().feed(Buffer.from('PROXY TCP4 203.0')), undefined);
  assert.equal(new ProxyHeaderReader().feed(V2_SIGNATURE.subarray(0, 5)), undefined);
});
