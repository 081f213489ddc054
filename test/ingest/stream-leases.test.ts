// One live stream, one ingest process (issue 25): the lease in the database that says which
// process holds a stream, on both dialects, with a test clock for its lapse.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { IngestHealthBoard } from '../../src/ingest/health/health-board.ts';
import { StreamHealth } from '../../src/ingest/health/stream-health.ts';
import { ingestHolderId, StreamLeases } from '../../src/ingest/stream-leases.ts';
import type { IngestHealth } from '../../src/streams/ingest-health.schemas.ts';
import { seedStreams } from '../helpers/seed.ts';
import { TestClock } from '../helpers/clock.ts';
import { DIALECTS, openMigratedTestDatabase } from '../helpers/databases.ts';

for (const dialect of DIALECTS) {
  describe(`stream leases on ${dialect}`, () => {
    test('one holder at a time; a lapsed lease is taken over; renew says what was lost', async (t) => {
      const { db } = await openMigratedTestDatabase(t, dialect);
      const clock = new TestClock();
      await db
        .insertInto('users')
        .values({ id: 'usr_lease', name: 'Lee', created_at: clock.now() })
        .execute();
      const [one, two] = await seedStreams(db, 2, () => ({ creator_id: 'usr_lease', status: 'live' }));
      const a = new StreamLeases({
        db,
        clock,
        holder: 'ingest-a',
        originUrl: 'http://10.0.0.1:3000',
        leaseMs: 5000,
      });
      const b = new StreamLeases({ db, clock, holder: 'ingest-b', leaseMs: 5000 });

      assert.equal(await a.acquire(one!), true);
      assert.equal(
        await a.acquire(one!),
        true,
        'the holder takes its own lease again (a restart, a reconnect)',
      );
      assert.equal(await b.acquire(one!), false, 'a second process is refused while the lease runs');
      assert.equal(await b.acquire(two!), true, 'another stream is free');
      assert.deepEqual(
        { holder: (await b.current(one!))?.holder, origin: (await b.current(one!))?.origin_url },
        { holder: 'ingest-a', origin: 'http://10.0.0.1:3000' },
      );

      // Renewed while live: the lease never lapses.
      clock.advance(4000);
      assert.deepEqual(await a.renew([one!]), []);
      clock.advance(4000);
      assert.equal(await b.acquire(one!), false, 'renewed 4 s ago: still held');

      // The holder stops renewing (it died): once the lease lapses, b takes the stream over.
      clock.advance(1001);
      assert.equal(await b.acquire(one!), true);
      assert.equal((await a.current(one!))?.holder, 'ingest-b');
      assert.deepEqual(await a.renew([one!]), [one!], 'the old holder learns it lost the stream');
      assert.equal((await a.current(one!))?.holder, 'ingest-b', "a's renewal does not take it back");

      // Waiting for a reconnect: another process may take it at once (the encoder landed there).
      assert.deepEqual(await b.renew([one!], [one!]), []);
      assert.equal((await a.current(one!))?.waiting, 1);
      assert.equal(await a.acquire(one!), true, 'a waiting lease is taken over');
      assert.deepEqual(await b.renew([one!]), [one!]);
      assert.equal(await b.acquire(one!), false, 'publishing again on a: held');
      await a.release([one!]);
      assert.deepEqual(await a.renew([one!]), [], 'a lease gone is taken again by its renewal');
      await a.release([one!]);
      assert.equal(await b.acquire(one!), true);

      // Released (finished, or drained): anyone may take it at once.
      await a.release([one!]);
      assert.equal((await a.current(one!))?.holder, 'ingest-b', 'a release by a non-holder changes nothing');
      await b.release([one!, two!]);
      assert.equal(await a.current(one!), undefined);
      assert.equal(await a.acquire(one!), true);
    });

    test("the holder's health is shared beside its lease and read by processes that do not hold it", async (t) => {
      const { db } = await openMigratedTestDatabase(t, dialect);
      const clock = new TestClock();
      await db
        .insertInto('users')
        .values({ id: 'usr_health', name: 'Hal', created_at: clock.now() })
        .execute();
      const [id] = await seedStreams(db, 1, () => ({ creator_id: 'usr_health', status: 'live' }));
      const stream = { id: id!, status: 'live' as const };
      const a = new StreamLeases({
        db,
        clock,
        holder: 'ingest-a',
        originUrl: 'http://10.0.0.1:3000',
        leaseMs: 5000,
      });
      const b = new StreamLeases({
        db,
        clock,
        holder: 'ingest-b',
        originUrl: 'http://10.0.0.2:3000',
        leaseMs: 5000,
      });
      // Another process: nothing on its own board.
      const elsewhere = new StreamHealth(new IngestHealthBoard({ clock }), db, clock);
      const measured: IngestHealth = {
        state: 'publishing',
        reconnect_deadline: null,
        measured_at: new Date(clock.now()).toISOString(),
        publishes: 1,
        video: {
          codec: 'H.264',
          profile: 'High',
          level: '3.1',
          width: 1280,
          height: 720,
          frame_rate: 30,
          keyframe_interval_seconds: 2,
        },
        audio: null,
        bitrate_kbps: { current: 2500, average: 2480 },
        dropped_data: { timestamp_gaps: 0, backward_jumps: 0 },
        transcoding: null,
        warnings: [],
      };

      assert.equal(await a.acquire(stream.id), true);
      assert.equal(a.sharesHealth, true);
      assert.equal(await elsewhere.report(stream), null, 'nothing shared yet');
      await a.shareHealth([[stream.id, measured]]);
      assert.deepEqual(await elsewhere.report(stream), measured);
      assert.equal(await elsewhere.report({ ...stream, status: 'ended' }), null, 'only for a live stream');
      await b.shareHealth([[stream.id, { ...measured, publishes: 9 }]]);
      assert.equal((await elsewhere.report(stream))?.publishes, 1, 'only the holder writes');

      // The holder dies: once its lease lapses its last measurement is no longer shown, and the
      // next holder starts from nothing.
      clock.advance(5001);
      assert.equal(await elsewhere.report(stream), null);
      assert.equal(await b.acquire(stream.id), true);
      clock.advance(-5001);
      assert.equal(await elsewhere.report(stream), null, "the old holder's measurement went with its lease");

      // What another version wrote (a rolling deploy) is shown only if this version reads it.
      await db.updateTable('stream_leases').set({ health: '{"state":"publishing"}' }).execute();
      assert.equal(await elsewhere.report(stream), null);
      await db.updateTable('stream_leases').set({ health: 'not json' }).execute();
      assert.equal(await elsewhere.report(stream), null);
      assert.equal(new StreamLeases({ db, clock, holder: 'one-process' }).sharesHealth, false);
    });
  });
}

test("an ingest process's id is kept in its data folder across restarts, or set by INGEST_ID", (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-id-'));
  t.after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const first = ingestHolderId(dir);
  assert.match(first, /^ing_[0-9a-f]{16}$/);
  assert.equal(ingestHolderId(dir), first);
  assert.equal(ingestHolderId(path.join(dir, 'other')) === first, false, 'another data folder, another id');
  assert.equal(ingestHolderId(dir, 'ingest-7'), 'ingest-7');
});
