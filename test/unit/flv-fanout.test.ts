// The publish's fan-out to its outputs: an output joining late starts as a decoder can (the FLV
// header, the sequence headers, then the next keyframe), and one that throws is dropped without
// disturbing the others.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pino from 'pino';
import { FlvFanout } from '../../src/live/flv-fanout.ts';
import { flvHeader, flvTag } from '../../src/rtmp/flv.ts';
import type { FlvSink } from '../../src/rtmp/rtmp-server.ts';

const videoConfig = flvTag(9, 0, Buffer.from([0x17, 0x00, 0, 0, 0, 1]));
const audioConfig = flvTag(8, 0, Buffer.from([0xaf, 0x00, 0x12, 0x10]));
const keyframe = (ms: number) => flvTag(9, ms, Buffer.from([0x17, 0x01, 0, 0, 0, 9]));
const interframe = (ms: number) => flvTag(9, ms, Buffer.from([0x27, 0x01, 0, 0, 0, 7]));
const audio = (ms: number) => flvTag(8, ms, Buffer.from([0xaf, 0x01, 5]));

function recorder(): FlvSink & { chunks: Buffer[]; ended: boolean } {
  const sink = {
    chunks: [] as Buffer[],
    ended: false,
    write(chunk: Buffer) {
      sink.chunks.push(chunk);
    },
    end() {
      sink.ended = true;
    },
  };
  return sink;
}

test('a sink from the start gets everything; one joining late starts at the next keyframe', () => {
  const fanout = new FlvFanout(pino({ level: 'silent' }));
  const first = recorder();
  fanout.add('first', first);
  const start = [flvHeader(), videoConfig, audioConfig, keyframe(0), interframe(33), audio(40)];
  for (const chunk of start) fanout.write(chunk);

  const late = recorder();
  fanout.add('late', late);
  // Joining: the header and the sequence headers at once, nothing else yet.
  assert.deepEqual(late.chunks, [flvHeader(), videoConfig, audioConfig]);
  fanout.write(interframe(66));
  fanout.write(audio(80));
  assert.equal(late.chunks.length, 3, 'no media before a keyframe');
  fanout.write(keyframe(2000));
  fanout.write(interframe(2033));
  assert.deepEqual(late.chunks.slice(3), [keyframe(2000), interframe(2033)]);
  assert.deepEqual(first.chunks, [...start, interframe(66), audio(80), keyframe(2000), interframe(2033)]);

  fanout.end();
  assert.equal(first.ended, true);
  assert.equal(late.ended, true);
  // An output opened after the publisher left is ended at once.
  const after = recorder();
  fanout.add('after', after);
  assert.equal(after.ended, true);
  assert.deepEqual(after.chunks, []);
});

test('an output whose write throws is dropped and logged; the others go on', () => {
  const lines: string[] = [];
  const fanout = new FlvFanout(pino({ level: 'info' }, { write: (line: string) => lines.push(line) }));
  const healthy = recorder();
  let calls = 0;
  fanout.add('broken', {
    write() {
      calls++;
      if (calls === 2) throw new Error('boom');
    },
    end() {
      throw new Error('never asked');
    },
  });
  fanout.add('healthy', healthy);
  for (const chunk of [flvHeader(), videoConfig, keyframe(0), interframe(33), interframe(66)])
    fanout.write(chunk);
  fanout.end();
  assert.equal(calls, 2, 'no write after the one that threw');
  assert.equal(healthy.chunks.length, 5);
  assert.equal(healthy.ended, true);
  assert.equal(lines.length, 1);
  assert.match(lines[0] ?? '', /"output":"broken".*a publish output failed/);
});

test('sequence headers that arrive while a late output waits for a keyframe reach it', () => {
  const fanout = new FlvFanout(pino({ level: 'silent' }));
  fanout.write(flvHeader());
  const late = recorder();
  fanout.add('late', late);
  for (const chunk of [audio(0), videoConfig, audioConfig, interframe(33), keyframe(2000)])
    fanout.write(chunk);
  assert.deepEqual(late.chunks, [flvHeader(), videoConfig, audioConfig, keyframe(2000)]);
});
