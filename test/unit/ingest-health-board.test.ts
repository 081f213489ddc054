// The health board's once-per-onset logging, driven directly: a warning that persists over
// many upkeep ticks is one line; one that clears and comes back is a second line.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { processRegistry } from '../../src/metrics/process-metrics.ts';
import { IngestHealthBoard } from '../../src/ingest/health/health-board.ts';
import { StreamMeter } from '../../src/rtmp/stream-meter.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { TestClock } from '../helpers/clock.ts';

function capture() {
  const lines: { code?: string; streamId?: string; msg: string }[] = [];
  const logger = createLogger(
    'debug',
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        callback();
      },
    }),
  );
  return { logger, lines };
}

/** Video with no audio for `seconds` (a no_audio warning after 5 s). */
function silentVideo(seconds: number): StreamMeter {
  const meter = new StreamMeter();
  for (let i = 0; i <= seconds * 30; i++) {
    const payload = Buffer.alloc(100);
    payload[0] = i % 60 === 0 ? 0x17 : 0x27;
    payload[1] = 1;
    meter.receive(9, Math.round((i * 1000) / 30), payload);
  }
  return meter;
}

test('each warning is logged once per onset, with the stream id', async () => {
  const clock = new TestClock();
  const board = new IngestHealthBoard({ clock, reconnectWindowSeconds: 30 });
  const { logger, lines } = capture();
  board.publishing('str_a', silentVideo(8));
  for (let tick = 0; tick < 5; tick++) board.logOnsets(logger);
  // A drop and a reconnect with no tick in between, twice: each drop is its own onset.
  board.reconnecting('str_a', clock.now() + 30_000);
  board.logOnsets(logger);
  board.logOnsets(logger);
  board.publishing('str_a', silentVideo(8));
  board.reconnecting('str_a', clock.now() + 30_000);
  board.logOnsets(logger);
  await new Promise((resolve) => setImmediate(resolve));
  const warnings = lines.filter((line) => line.msg === 'ingest health warning');
  assert.deepEqual(
    warnings.map((line) => [line.streamId, line.code]),
    [
      ['str_a', 'no_audio'],
      ['str_a', 'publisher_disconnected'],
      ['str_a', 'publisher_disconnected'],
    ],
  );
  assert.equal(board.report('str_a')?.state, 'reconnecting');
  board.remove('str_a');
  assert.equal(board.report('str_a'), null);
});

test('an encoder that stopped on purpose waits out its grace without the disconnected warning', async () => {
  const clock = new TestClock();
  const board = new IngestHealthBoard({ clock, reconnectWindowSeconds: 60 });
  const { logger, lines } = capture();
  board.publishing('str_b', silentVideo(2));
  board.stopped('str_b', clock.now() + 5000);
  board.logOnsets(logger);
  const report = board.report('str_b');
  // The API's shape is unchanged: waiting for the encoder until the (short) deadline.
  assert.equal(report?.state, 'reconnecting');
  assert.equal(report.reconnect_deadline, new Date(clock.now() + 5000).toISOString());
  assert.deepEqual(report.warnings, []);
  // Started again within the grace, then dropped: a drop is warned about as before.
  board.publishing('str_b', silentVideo(2));
  assert.equal(board.report('str_b')?.state, 'publishing');
  board.reconnecting('str_b', clock.now() + 60_000);
  board.logOnsets(logger);
  assert.deepEqual(
    board.report('str_b')?.warnings.map((warning) => warning.code),
    ['publisher_disconnected'],
  );
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(
    lines.filter((line) => line.msg === 'ingest health warning').map((line) => line.code),
    ['publisher_disconnected'],
  );
});

test("the ladder decision is the creator's, with its reason, until the next one", async () => {
  const clock = new TestClock(Date.parse('2026-01-02T03:04:05.000Z'));
  const board = new IngestHealthBoard({ clock });
  board.publishing('str_b', silentVideo(2));
  assert.equal(board.report('str_b')?.transcoding, null, 'not decided before the picture is known');
  board.transcoding('str_b', {
    renditions: ['source', '480p', '360p'],
    reason: undefined,
    decidedAt: clock.now(),
  });
  assert.deepEqual(board.report('str_b')?.transcoding, {
    decision: 'ladder',
    renditions: ['source', '480p', '360p'],
    reason: null,
    message: null,
    decided_at: '2026-01-02T03:04:05.000Z',
  });
  const copyOnlyCount = async () =>
    (await processRegistry.getSingleMetric('tributary_transcoding_decisions_total')?.get())?.values.find(
      (v) => v.labels.decision === 'copy_only',
    )?.value ?? 0;
  const copyOnlyBefore = await copyOnlyCount();
  board.transcoding('str_b', { renditions: ['source'], reason: 'no_cpu_room', decidedAt: clock.now() });
  assert.equal(await copyOnlyCount(), copyOnlyBefore + 1, 'the metrics count the copy-only admission');
  const copyOnly = board.report('str_b')?.transcoding;
  assert.ok(copyOnly);
  assert.equal(copyOnly.decision, 'copy_only');
  assert.equal(copyOnly.reason, 'no_cpu_room');
  assert.match(copyOnly.message ?? '', /CPU/);
  // Fewer rungs after falling behind is still a ladder, with its reason.
  board.transcoding('str_b', {
    renditions: ['source', '360p'],
    reason: 'fell_behind',
    decidedAt: clock.now(),
  });
  assert.equal(board.report('str_b')?.transcoding?.decision, 'ladder');
  assert.equal(board.report('str_b')?.transcoding?.reason, 'fell_behind');
  board.remove('str_b');
  board.publishing('str_b', silentVideo(2));
  assert.equal(board.report('str_b')?.transcoding, null, 'a new stream starts undecided');
});
