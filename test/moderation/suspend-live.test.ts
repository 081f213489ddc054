// A suspension during a real ffmpeg push: the ingest's moderation watch cuts the encoder off
// within about a second, the stream ends (stream.ended), its media answers 404, and the
// encoder is refused when it comes back with the stream key or with the channel key. A
// takedown of a live stream does the same to that stream alone.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe } from 'node:test';
import { CLI_ACTOR } from '../../src/moderation/moderation.service.ts';
import { mediaDialects } from '../helpers/databases.ts';
import { pushEncoder } from '../helpers/encoder-push.ts';
import { startMediaServer, type MediaTestServer } from '../helpers/media-server.ts';
import { pushTestPattern, waitFor } from '../helpers/media-tools.ts';
import type { Account } from '../helpers/app.ts';
import { runCli } from '../helpers/cli.ts';

const SMOKE =
  'suspending a creator while live (from another process) cuts the encoder off within a second and refuses it';

async function goLive(server: MediaTestServer, account: Account, title: string) {
  const stream = await server.createStream(account, { title });
  const url = `${stream.ingest.rtmp_url}/${stream.ingest.stream_key}`;
  const push = pushTestPattern(url, 120, { size: '320x180' });
  await waitFor(
    'the stream to be live with media',
    async () => {
      const info = await server.request('GET', `/watch/${stream.id}/info`);
      return info.status === 200 && info.body.status === 'live' && info.body.playback_url !== null;
    },
    { timeoutMs: 30_000 },
  );
  return { stream, url, push };
}

for (const { dialect, test } of mediaDialects(SMOKE)) {
  describe(`moderation at the ingest on ${dialect}`, () => {
    test(SMOKE, async (t) => {
      // A long reconnect window: the stream ends because of the suspension, not a timeout.
      const server = await startMediaServer(t, { dialect, reconnectWindowSeconds: 60 });
      const account = await server.createAccount('Suspended Studio');
      const { stream, url, push } = await goLive(server, account, 'Live when suspended');
      t.after(() => {
        push.stop();
      });
      const playlist = `/media/streams/${stream.id}/index.m3u8`;
      assert.equal((await server.request('GET', playlist)).status, 200);

      // Suspended by another process (the CLI), as another API process would: the ingest learns
      // it from the database alone.
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-suspend-cli-'));
      t.after(() => {
        fs.rmSync(dataDir, { recursive: true, force: true });
      });
      const cli = await runCli(['users', 'suspend', account.userId, '--reason', 'Broadcasting spam'], {
        DATABASE_URL: server.database.url,
        DATA_DIR: dataDir,
      });
      assert.equal(cli.code, 0, cli.stderr);
      const at = Date.now();
      const exit = await push.exited;
      const cutAfterMs = Date.now() - at;
      t.diagnostic(`encoder cut off ${cutAfterMs} ms after the suspending process exited`);
      // The watch runs every 250 ms (the upkeep's own check every 2 s would be too late); ffmpeg
      // notices the closed connection at once. The figure is reported above.
      assert.ok(cutAfterMs < 1500, `the encoder was cut off after ${cutAfterMs} ms`);
      assert.ok(exit.code !== 0 || exit.stderr !== '', `ffmpeg noticed: ${exit.code}`);

      const ended = (await server.events('stream.ended')).filter((event) => event.data.id === stream.id);
      assert.equal(ended.length, 1, 'the stream ended once');
      // Media answers are reused for half a second per process: withheld within a second.
      await waitFor(
        'the media to be withheld',
        async () => (await server.request('GET', playlist)).status === 404,
        {
          timeoutMs: 5000,
        },
      );
      const withheldAfterMs = Date.now() - at;
      t.diagnostic(`media withheld ${withheldAfterMs} ms after the suspension`);
      assert.ok(withheldAfterMs < 1500, `media withheld after ${withheldAfterMs} ms`);
      assert.equal((await server.request('GET', `/watch/${stream.id}/info`)).status, 404);

      // Coming back: the stream key's stream has ended; the channel key is refused for the account.
      const again = await pushEncoder(url, 5).exited;
      assert.notEqual(again.code, 0);
      assert.match(again.stderr, /Server error: This (stream has ended|account is suspended)/);
      const ingest = await server.request('GET', '/v1/ingest', { key: account.writeKey });
      assert.equal(ingest.status, 401, 'the API key stopped with the account');
      const channelKey = await server.services.channels.show(account.userId);
      const channelUrl = `${stream.ingest.rtmp_url}/${channelKey.streamKey}`;
      const viaChannel = await pushEncoder(channelUrl, 5).exited;
      assert.notEqual(viaChannel.code, 0);
      assert.match(viaChannel.stderr, /Server error: This account is suspended/);
      const streams = await server.services.moderation.listContent('stream', { creatorId: account.userId });
      assert.equal(streams.length, 1, 'the channel key made no new stream');
    });

    test('taking a live stream down cuts its encoder off and refuses it; the creator keeps streaming elsewhere', async (t) => {
      const server = await startMediaServer(t, { dialect, reconnectWindowSeconds: 60 });
      const account = await server.createAccount('Taken Down Studio');
      const { stream, url, push } = await goLive(server, account, 'Taken down live');
      t.after(() => {
        push.stop();
      });
      const at = Date.now();
      await server.services.moderation.takedown(CLI_ACTOR, 'stream', stream.id, 'Copyrighted match');
      await push.exited;
      t.diagnostic(`encoder cut off ${Date.now() - at} ms after the takedown`);
      assert.ok(Date.now() - at < 3000);
      const again = await pushEncoder(url, 5).exited;
      assert.notEqual(again.code, 0);
      assert.match(again.stderr, /Server error: This stream (has ended|has been taken down)/);
      // The account is in good standing: its API key still works, and a new stream may go live.
      assert.equal((await server.request('GET', '/v1/streams', { key: account.readKey })).status, 200);
    });
  });
}
