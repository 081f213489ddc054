// The service's shutdown after WebRTC viewers came and went and the garbage collector ran: the
// case that crashed the process in node-datachannel's cleanup() (src/realtime/track-release.ts
// says why). The server runs in a subtest, so its shutdown (the realtime hub's close and the
// cleanup) happens before the outer test goes on: a crash there ends this file's process, and the
// test fails.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import { heldCount } from '../../src/realtime/track-release.ts';
import { startMediaServer, type MediaTestServer } from '../helpers/media-server.ts';
import { pushTestPattern } from '../helpers/media-tools.ts';
import { waitFor } from '../helpers/wait.ts';
import { joinOverWhep, waitUntilServedOverWebRtc } from '../helpers/whep-viewer.ts';

const VIEWERS = 4;

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

test('the service shuts down cleanly after WebRTC viewers came and went and their tracks were collected', async (t) => {
  let server: MediaTestServer | undefined;
  await t.test('viewers join, leave, and are collected', async (inner) => {
    server = await startMediaServer(inner, { dialect: 'sqlite' });
    const creator = await server.createAccount();
    const stream = await server.createStream(creator, { latency_mode: 'realtime', record: false });
    const push = pushTestPattern(`${stream.ingest.rtmp_url}/${stream.ingest.stream_key}`, 60, {
      size: '320x180',
    });
    inner.after(() => {
      push.stop();
    });
    await waitUntilServedOverWebRtc(server, stream.id, creator.readKey);
    for (let index = 0; index < VIEWERS; index++) {
      const viewer = await joinOverWhep(server.origin, stream.id, { label: `shutdown-${index}` });
      // The player leaves (DELETE ends the server's session), then its own connection closes.
      const ended = await fetch(`${server.origin}${viewer.location}`, { method: 'DELETE' });
      assert.equal(ended.status, 204);
      viewer.close();
    }
    // Every track, the server's and the viewers', is let go once libdatachannel closed it...
    await waitFor(() => heldCount() === 0, { timeoutMs: 15_000, what: 'every track let go' });
    // ...and the collector takes the wrappers before the shutdown's cleanup() runs.
    collectGarbage();
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
  });
  // The subtest's server has shut down, node-datachannel's cleanup() included, and this process
  // is still here.
  assert.ok(server);
  assert.equal(
    server.logs.some((line) => line.includes('WebRTC cleanup did not finish')),
    false,
    'the cleanup finished',
  );
});
