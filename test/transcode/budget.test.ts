// The CPU budget's admission: live work fits beside what is measured, VOD work needs a spare
// live stream's room beside it, and a released job gives its room back. Real /proc sampling.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { processTicks, progressSpeed, TranscodeBudget } from '../../src/transcode/budget.ts';

test('admission leaves the headroom free, VOD only with room for live beside it', (t) => {
  // 100 cores less 50%: 50 cores for transcoding; 1000 Mpx/s are priced at 20 cores.
  const budget = new TranscodeBudget({ cores: 100, headroomPercent: 50 });
  t.after(() => {
    budget.close();
  });
  assert.equal(budget.estimate(1000), 20);
  const first = budget.admit('live', 1000);
  const second = budget.admit('live', 1000);
  assert.ok(first && second);
  assert.equal(budget.admit('live', 1000), undefined, 'a third does not fit in 50 cores');
  second.release();
  assert.equal(budget.admit('vod', 1000), undefined, 'VOD needs twice its cost free');
  assert.ok(budget.admit('vod', 500));
  assert.equal(budget.snapshot().jobs.length, 2);
});

test('a tiny budget admits nothing; a job is measured from its process', async (t) => {
  const tiny = new TranscodeBudget({ cores: 0.01, headroomPercent: 0 });
  t.after(() => {
    tiny.close();
  });
  assert.equal(tiny.admit('live', 10), undefined);
  const budget = new TranscodeBudget({ cores: 1000, headroomPercent: 0 });
  t.after(() => {
    budget.close();
  });
  const ticket = budget.admit('live', 10);
  assert.ok(ticket);
  ticket.attach(process.pid);
  const start = Date.now();
  budget.sample(start);
  // Busy for a while: this process's own CPU time is what gets measured.
  while (Date.now() - start < 300) Math.sqrt(Math.random());
  budget.sample(Date.now());
  assert.ok((ticket.measuredCores ?? 0) > 0, `measured ${String(ticket.measuredCores)}`);
  assert.ok((processTicks(process.pid) ?? 0) > 0);
  assert.equal(processTicks(2 ** 22 + 12345), undefined);
  assert.equal(progressSpeed('speed=1.02x'), 1.02);
  assert.equal(progressSpeed('speed=N/A'), undefined);
});
