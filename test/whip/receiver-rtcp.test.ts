// The WHIP ingest's RTCP for a publisher's video (src/whip/receiver-rtcp.ts), packet by packet:
// gaps asked for with generic NACKs (RFC 4585 6.2.1), asked again a bounded number of times,
// a late packet counted as recovered, a receiver report for each sender report. (The whole path,
// with a real publisher and real loss, is whip-nack.test.ts.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nackPackets, ReceiverRtcp } from '../../src/whip/receiver-rtcp.ts';
import { waitFor } from '../helpers/wait.ts';

function rtp(seq: number, ssrc = 0x1234): Buffer {
  const packet = Buffer.alloc(20);
  packet[0] = 0x80;
  packet[1] = 96;
  packet.writeUInt16BE(seq, 2);
  packet.writeUInt32BE(ssrc, 8);
  return packet;
}

/** The sequence numbers a NACK packet asks for. */
function asked(packet: Buffer): number[] {
  assert.equal(packet[0], 0x81);
  assert.equal(packet[1], 205);
  assert.equal(packet.readUInt16BE(2), packet.length / 4 - 1);
  const seqs: number[] = [];
  for (let offset = 12; offset < packet.length; offset += 4) {
    const pid = packet.readUInt16BE(offset);
    const blp = packet.readUInt16BE(offset + 2);
    seqs.push(pid);
    for (let bit = 0; bit < 16; bit++) if (blp & (1 << bit)) seqs.push((pid + bit + 1) & 0xffff);
  }
  return seqs;
}

test('NACK items pack 17 sequence numbers each, across the wrap', () => {
  const [packet] = nackPackets(1, 0xabcd, [65_534, 65_535, 0, 5, 40]);
  assert.ok(packet);
  assert.equal(packet.readUInt32BE(8), 0xabcd);
  assert.deepEqual(asked(packet), [65_534, 65_535, 0, 5, 40]);
  assert.equal(packet.length, 12 + 2 * 4, 'two items: 65534 (+1, +2, +7) and 40');
});

test('a gap is asked for at once and again, a late packet is recovered, a huge gap is left to the keyframe', async () => {
  const sent: Buffer[] = [];
  // The receiver's time is the test's: a loaded machine that runs the retry timer late must not
  // make the packets count as given up on (its wait is 200 ms).
  let clock = 1_000;
  const rtcp = new ReceiverRtcp({ send: (packet) => sent.push(packet), now: () => clock });
  rtcp.received(rtp(100));
  rtcp.received(rtp(101));
  rtcp.received(rtp(104));
  assert.deepEqual(asked(sent[0]!), [102, 103]);
  clock += 60;
  await waitFor(() => sent.length >= 2 || undefined, { timeoutMs: 10_000, what: 'the NACK asked again' });
  assert.deepEqual(asked(sent[1]!), [102, 103]);
  rtcp.received(rtp(102));
  rtcp.received(rtp(103));
  assert.deepEqual(rtcp.counts, { missing: 2, recovered: 2, nacksSent: sent.length });
  const before = sent.length;
  rtcp.received(rtp(2000));
  assert.equal(sent.length, before, 'no NACK for a gap of 1895 packets');
  rtcp.close();
});

test('a receiver report answers each sender report, and a PLI names the publisher', () => {
  const sent: Buffer[] = [];
  const rtcp = new ReceiverRtcp({ send: (packet) => sent.push(packet) });
  assert.equal(rtcp.requestKeyframe(), false, 'no video yet: nobody to ask');
  for (let seq = 10; seq < 20; seq++) if (seq !== 15) rtcp.received(rtp(seq));
  sent.length = 0;
  const sr = Buffer.alloc(28);
  sr[0] = 0x80;
  sr[1] = 200;
  sr.writeUInt16BE(6, 2);
  sr.writeUInt32BE(0x1234, 4);
  sr.writeUInt32BE(0x0001_abcd, 8); // NTP seconds
  sr.writeUInt32BE(0xef01_0000, 12); // NTP fraction
  rtcp.received(sr);
  const rr = sent[0]!;
  assert.equal(rr[1], 201);
  assert.equal(rr.readUInt32BE(8), 0x1234, 'about the publisher');
  assert.equal(rr.readUInt32BE(12) & 0xff_ffff, 1, 'one packet lost so far');
  assert.equal(rr.readUInt32BE(16), 19, 'highest sequence number');
  assert.equal(rr.readUInt32BE(24), 0xabcd_ef01, 'the middle of the report NTP time');
  rtcp.close();
  assert.equal(rtcp.requestKeyframe(), true);
  const pli = sent.at(-1)!;
  assert.deepEqual([pli[0], pli[1], pli.readUInt32BE(8)], [0x81, 206, 0x1234]);
});
