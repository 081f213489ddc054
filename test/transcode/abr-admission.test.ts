// Admission on an otherwise idle machine, with real ffmpeg pushes on the real server: publish
// after publish, each started as soon as the previous publisher has gone (its transcoder
// finishing, its stream being recorded meanwhile), gets the ladder, and the creator sees the
// decision in `ingest.health.transcoding`. The budget is the (2 cores less 25%);
// the machine's load is read from a /proc/stat that counts only this test's processes (the
// server, its packagers and transcoders, the publishers), so other work on a shared machine
// does not decide the outcome, while the publishes' own start-ups still take their place in
// it. SQLite only.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startMediaServer } from '../helpers/media-server.ts';
import { waitFor } from '../helpers/media-tools.ts';
import { ownTreeProc } from '../helpers/own-tree-proc.ts';
import { push720, TEST_LADDER } from './ladder-helpers.ts';

const PUBLISHES = 10;

describe('adaptive bitrate, admission', () => {
  test(`${PUBLISHES} publishes in a row on an idle machine each get the ladder`, async (t) => {
    const server = await startMediaServer(t, {
      dialect: 'sqlite',
      reconnectWindowSeconds: 1,
      transcode: { ...TEST_LADDER, cpuCores: 2, headroomPercent: 25, procReader: ownTreeProc() },
    });
    const account = await server.createAccount();
    const logLines = () =>
      server.logs.map(
        (line) => JSON.parse(line) as { msg: string; streamId?: string; [key: string]: unknown },
      );
    for (let n = 0; n < PUBLISHES; n++) {
      const created = await server.createStream(account, { title: `Admission ${n + 1}` });
      const push = push720(`${created.ingest.rtmp_url}/${created.ingest.stream_key}`, 120);
      t.after(() => {
        push.stop();
      });
      const transcoding = await waitFor(
        `publish ${n + 1}'s decision`,
        async () => {
          const res = await server.request('GET', `/v1/streams/${created.id}`, { key: account.writeKey });
          return res.body.ingest?.health?.transcoding ?? undefined;
        },
        { timeoutMs: 30_000 },
      );
      const decision = logLines().find(
        (line) =>
          line.streamId === created.id &&
          (line.msg === 'transcoding admitted' || line.msg.startsWith('no CPU room')),
      );
      assert.deepEqual(
        { decision: transcoding.decision, renditions: transcoding.renditions, reason: transcoding.reason },
        { decision: 'ladder', renditions: ['source', '480p', '360p'], reason: null },
        `publish ${n + 1}: ${JSON.stringify(decision)}`,
      );
      assert.equal(transcoding.message, null);
      assert.ok(Date.parse(transcoding.decided_at) > 0);
      // The decision is logged with the figures it was made on.
      assert.equal(decision?.msg, 'transcoding admitted');
      for (const figure of ['estimatedCores', 'limitCores', 'jobsCores', 'machineOtherCores', 'loadSamples'])
        assert.equal(typeof decision[figure], 'number', figure);
      assert.equal(decision.limitCores, 1.5);
      // A few segments of it, then gone; the next publish starts at once.
      await waitFor(
        `publish ${n + 1} live`,
        async () =>
          (await server.request('GET', `/v1/streams/${created.id}`, { key: account.readKey })).body.status ===
          'live',
        { timeoutMs: 30_000 },
      );
      push.stop();
      await waitFor(
        `publish ${n + 1} stopped`,
        () => logLines().some((line) => line.streamId === created.id && line.msg === 'publish stopped'),
        { timeoutMs: 30_000 },
      );
    }
  });
});
