// Packet loss between a WHIP publisher and the ingest: the ingest asks for the lost video
// packets again (RTCP generic NACKs, src/whip/receiver-rtcp.ts) and the publisher's
// retransmissions fill the gaps before ffmpeg gives up on them, so the picture is not broken
// until the next keyframe. The publisher is test/helpers/whip-client.ts (x264's RTP through
// node-datachannel, libdatachannel's NACK responder answering, as OBS's WHIP output does),
// reaching the ingest through a relay that drops one video packet in 25 (the first sending
// only), on loopback.
//
// Every wait is bounded, the test as a whole too (it once hung the whole suite: the live
// decode below was an execFile whose timeout sends one SIGTERM, and an ffmpeg reading a live
// HLS playlist that has stopped growing ignores a single SIGTERM, so a publish that broke
// under load left the test waiting forever; it is now killed).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { startMediaServer } from '../helpers/media-server.ts';
import { waitFor } from '../helpers/wait.ts';
import { publishClockPatternOverWhip } from '../helpers/whip-client.ts';

const run = promisify(execFile);

/** The whole test: it takes about 20 s on an idle machine. */
const TEST_TIMEOUT_MS = 240_000;
const DECODE_TIMEOUT_MS = 60_000;

test(
  'video packets lost on the way from a WHIP publisher are asked for again and arrive',
  { timeout: TEST_TIMEOUT_MS },
  async (t) => {
    const server = await startMediaServer(t, { dialect: 'sqlite', cleanStopGraceSeconds: 3 });
    const creator = await server.createAccount();
    const stream = await server.createStream(creator, { latency_mode: 'low', record: false });
    const publish = await publishClockPatternOverWhip(
      `${server.origin}/v1/whip`,
      stream.ingest.stream_key as string,
      120,
      { keyframeSeconds: 2, loss: { dropVideo: (seq) => seq % 25 === 0 } },
    );
    let stopped = false;
    t.after(async () => {
      if (!stopped) await publish.stop().catch(() => undefined);
    });
    const loss = publish.loss!;
    await waitFor(
      async () =>
        (await server.request('GET', `/v1/streams/${stream.id}`, { key: creator.readKey })).body.status ===
          'live' || undefined,
      { timeoutMs: 60_000, what: 'the stream to go live' },
    );
    await waitFor(() => loss.dropped >= 60 || undefined, {
      timeoutMs: 60_000,
      what: 'sixty video packets dropped on the way',
    });
    // The live picture decodes without errors: every gap was filled before ffmpeg packaged it.
    const playlist = `${server.origin}/media/streams/${stream.id}/index.m3u8`;
    const decoded = await run(
      'ffmpeg',
      [
        ...['-v', 'error', '-live_start_index', '-3', '-i', playlist],
        ...['-map', '0:v:0', '-t', '4', '-f', 'null', '-'],
      ],
      // SIGKILL: a SIGTERM is not enough for an ffmpeg waiting on a live playlist that stopped.
      { timeout: DECODE_TIMEOUT_MS, killSignal: 'SIGKILL' },
    ).catch((error: unknown) => {
      throw new Error(
        `the live HLS did not decode within ${DECODE_TIMEOUT_MS / 1000} s (did the publish stop?)`,
        { cause: error },
      );
    });
    // The publish goes on meanwhile: what was dropped so far is given a while to come again
    // (packets dropped in the very last moments may not have been asked for yet at the stop).
    const droppedSoFar = loss.dropped;
    const awaited = [...publish.unresent()];
    const notResent = () => awaited.filter((seq) => publish.unresent().has(seq));
    await waitFor(() => notResent().length === 0 || undefined, {
      timeoutMs: 10_000,
      what: 'the packets dropped last to be sent again',
    }).catch(() => undefined);
    const neverResent = notResent();
    stopped = true;
    assert.equal(await publish.stop(), 200);
    t.diagnostic(`relay: ${JSON.stringify(loss)}, ${droppedSoFar} dropped before the decode ended`);
    const line = await waitFor(() => server.logs.find((entry) => entry.includes('asked for again')), {
      timeoutMs: 30_000,
      what: "the ingest's count of packets lost and recovered",
    });
    const counts = (JSON.parse(line) as { nacks: { missing: number; recovered: number } }).nacks;
    t.diagnostic(`ingest: ${JSON.stringify(counts)}; live decode: ${decoded.stderr.trim().slice(0, 300)}`);
    assert.ok(loss.nacksSeen > 0, 'the ingest sent NACKs');
    // On a loaded machine a NACK or its answer can come too late now and then (the ingest asks
    // for a packet only while ffmpeg still waits for it): a few may never come again.
    assert.ok(
      neverResent.length <= 3,
      `of ${droppedSoFar} packets dropped, ${neverResent.length} never came again (${neverResent.join(', ')})`,
    );
    // Every packet dropped went missing at the ingest (a later one came first); a retransmission
    // later than ffmpeg's wait (a loaded machine) is not counted as recovered.
    assert.ok(
      counts.missing >= droppedSoFar - neverResent.length && counts.recovered >= counts.missing - 3,
      JSON.stringify(counts),
    );
    assert.equal(decoded.stderr.trim(), '', 'the live picture decodes without errors');
  },
);
