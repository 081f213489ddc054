// The stream meter and its warnings over hand-made RTMP messages: what a real push cannot be
// made to do on cue (timestamps that jump, frames that stall, a bitrate that swings), and
// hostile bytes in the sequence headers, which must never throw.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { parseAacConfig } from '../../src/rtmp/aac-config.ts';
import { parseAvcConfig } from '../../src/rtmp/avc-config.ts';
import { mediaWarnings } from '../../src/ingest/health/health-warnings.ts';
import { StreamMeter } from '../../src/rtmp/stream-meter.ts';

const LIMITS = { bitrateLimitKbps: 12_000 };

/** An AVC NALU message: a keyframe or an inter frame, `bytes` long. */
function frame(key: boolean, bytes = 1000): Buffer {
  const payload = Buffer.alloc(bytes);
  payload[0] = key ? 0x17 : 0x27;
  payload[1] = 1;
  return payload;
}

function audio(bytes = 300): Buffer {
  const payload = Buffer.alloc(bytes);
  payload[0] = 0xaf;
  payload[1] = 1;
  return payload;
}

/** `seconds` of 30 fps video (keyframe every 2 s) with audio, from `startMs`. */
function feed(meter: StreamMeter, startMs: number, seconds: number, frameBytes = (_ms: number) => 1000) {
  for (let i = 0; i < seconds * 30; i++) {
    const ms = startMs + Math.round((i * 1000) / 30);
    meter.receive(9, ms, frame(i % 60 === 0, frameBytes(ms)));
    if (i % 3 === 0) meter.receive(8, ms, audio());
  }
}

test('a steady stream: frame rate, keyframe interval and bitrate, no warnings', () => {
  const meter = new StreamMeter();
  feed(meter, 0, 10);
  const m = meter.measure();
  assert.equal(m.frameRate, 30);
  assert.equal(m.keyframeIntervalSeconds, 2);
  // 30 frames of 1000 bytes and 10 audio messages of 300 bytes a second: 264 kb/s.
  assert.equal(m.currentKbps, 264);
  assert.deepEqual(mediaWarnings(m, LIMITS), []);
  assert.deepEqual(
    mediaWarnings(m, { bitrateLimitKbps: 200 }).map((w) => w.code),
    ['bitrate_too_high'],
  );
  // At the limit (not far above it) is fine.
  assert.deepEqual(mediaWarnings(m, { bitrateLimitKbps: 250 }), []);
});

test('timestamps that jump forward or back are counted as dropped data', () => {
  const meter = new StreamMeter();
  feed(meter, 0, 3);
  feed(meter, 6000, 3); // 3 s of media never came
  meter.receive(9, 4000, frame(false)); // and one frame from the past
  const m = meter.measure();
  assert.equal(m.timestampGaps, 2, 'one in the video track, one in the audio track');
  assert.equal(m.backwardJumps, 1);
});

test('frames that stall make the frame rate unstable', () => {
  const meter = new StreamMeter();
  for (let s = 0; s < 10; s++) {
    // Every other second the encoder manages only 15 frames.
    const frames = s % 2 === 0 ? 30 : 15;
    for (let i = 0; i < frames; i++)
      meter.receive(9, s * 1000 + Math.floor((i * 1000) / frames), frame(i === 0));
    meter.receive(8, s * 1000, audio());
  }
  meter.receive(9, 10_000, frame(true));
  const codes = mediaWarnings(meter.measure(), LIMITS).map((w) => w.code);
  assert.deepEqual(codes, ['frame_rate_unstable']);
});

test('a bitrate that swings widely, and a missing audio track, are warned about', () => {
  const meter = new StreamMeter();
  for (let i = 0; i < 30 * 30; i++) {
    const ms = Math.round((i * 1000) / 30);
    // 10 s at 4000-byte frames, 10 s at 500, 10 s at 4000 again.
    const big = ms < 10_000 || ms >= 20_000;
    meter.receive(9, ms, frame(i % 60 === 0, big ? 4000 : 500));
  }
  const codes = mediaWarnings(meter.measure(), LIMITS).map((w) => w.code);
  assert.deepEqual(codes, ['bitrate_unstable', 'no_audio']);
});

test('keyframes further apart than 4 s are warned about before the second one arrives', () => {
  const meter = new StreamMeter();
  for (let i = 0; i <= 150; i++) meter.receive(9, Math.round((i * 1000) / 30), frame(i === 0));
  const m = meter.measure();
  assert.equal(m.keyframeIntervalSeconds, undefined);
  assert.equal(m.secondsSinceKeyframe, 5);
  assert.match(mediaWarnings(m, LIMITS)[0]!.message, /every 5\.0 s/);
});

test('a huge timestamp jump costs no more than the ring, and the meter carries on', () => {
  const meter = new StreamMeter();
  feed(meter, 0, 2);
  feed(meter, 2 ** 31, 7);
  const m = meter.measure();
  assert.equal(m.frameRate, 30);
  assert.equal(m.timestampGaps, 2);
});

test('hostile sequence headers never throw', () => {
  for (let i = 0; i < 2000; i++) {
    const bytes = randomBytes(i % 64);
    if (bytes.length > 0) bytes[0] = 1;
    parseAvcConfig(bytes);
    parseAacConfig(bytes);
    const meter = new StreamMeter();
    meter.receive(9, 0, Buffer.concat([Buffer.from([0x17, 0, 0, 0, 0]), bytes]));
    meter.receive(8, 0, Buffer.concat([Buffer.from([0xaf, 0]), bytes]));
    meter.measure();
  }
});
