// Every refused publish tells the encoder why, in the RTMP status it shows: real ffmpeg pushes
// (ffmpeg prints the status description as "Server error: ...") and our own test client (which
// reads the status code). A refused publish changes nothing; H.264 with AAC still goes live.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { mediaDialects } from '../helpers/databases.ts';
import { AAC, H264, pushEncoder } from '../helpers/encoder-push.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { waitFor } from '../helpers/media-tools.ts';
import { RtmpTestClient } from '../helpers/rtmp-client.ts';

/** The code and description a publish with `key` gets, read by our own RTMP client. */
async function statusFor(port: number, key: string) {
  const client = await RtmpTestClient.open(port);
  try {
    client.startPublish('live', key);
    return await client.nextStatus();
  } finally {
    client.close();
  }
}

for (const { dialect, test } of mediaDialects(
  'unknown key, ended stream and a second encoder: ffmpeg prints why',
)) {
  describe(`publish refusals on ${dialect}`, () => {
    test('unknown key, ended stream and a second encoder: ffmpeg prints why', async (t) => {
      const server = await startMediaServer(t, { dialect, reconnectWindowSeconds: 30 });
      const account = await server.createAccount('Refused Studio');
      const live = await server.createStream(account, { title: 'On air' });
      const over = await server.createStream(account, { title: 'Over' });
      await server.services.streams.goLive(over.id);
      await server.services.streams.end(over.id);
      const rtmpUrl = live.ingest.rtmp_url as string;

      const wrongKey = await pushEncoder(`${rtmpUrl}/sk_${'x'.repeat(32)}`, 5).exited;
      assert.notEqual(wrongKey.code, 0);
      assert.match(
        wrongKey.stderr,
        /Server error: The stream key is not valid\. Copy the stream's key again \(it changes when it is reset\)\./,
      );
      const ended = await pushEncoder(`${rtmpUrl}/${over.ingest.stream_key}`, 5).exited;
      assert.notEqual(ended.code, 0);
      assert.match(
        ended.stderr,
        /Server error: This stream has ended\. Create a new stream and publish with its key\./,
      );

      const first = pushEncoder(`${rtmpUrl}/${live.ingest.stream_key}`, 30);
      t.after(() => {
        first.stop();
      });
      await waitFor('live', async () =>
        (await server.events('stream.started')).some((event) => event.data.id === live.id),
      );
      const second = await pushEncoder(`${rtmpUrl}/${live.ingest.stream_key}`, 5).exited;
      assert.notEqual(second.code, 0);
      assert.match(
        second.stderr,
        /Server error: Another encoder is already publishing this stream\. Stop it first/,
      );

      // The codes, as encoders that show them (OBS's log) read them.
      assert.deepEqual(await statusFor(server.rtmpPort, `sk_${'y'.repeat(32)}`), {
        level: 'error',
        code: 'NetStream.Publish.BadName',
        description:
          "The stream key is not valid. Copy the stream's key again (it changes when it is reset).",
      });
      assert.equal(
        (await statusFor(server.rtmpPort, over.ingest.stream_key))?.code,
        'NetStream.Publish.Rejected',
      );
      assert.equal(
        (await statusFor(server.rtmpPort, live.ingest.stream_key))?.code,
        'NetStream.Publish.BadName',
      );

      // Nothing changed: one publish started, the first encoder still live.
      assert.equal(server.logs.filter((line) => line.includes('"publish started"')).length, 1);
      const reasons = server.logs
        .map((line) => JSON.parse(line))
        .filter((line) => line.msg === 'publish refused')
        .map((line) => line.reason);
      for (const reason of ['unknown_key', 'stream_ended', 'already_publishing'])
        assert.ok(reasons.includes(reason));
      assert.equal(first.process.exitCode, null, 'the first encoder is still pushing');
    });

    test('a codec HLS cannot carry is refused by name; H.264 and AAC then go live', async (t) => {
      const server = await startMediaServer(t, { dialect, reconnectWindowSeconds: 30 });
      const account = await server.createAccount('Codec Studio');
      const stream = await server.createStream(account);
      const url = `${stream.ingest.rtmp_url}/${stream.ingest.stream_key}`;
      const get = async () =>
        (await server.request('GET', `/v1/streams/${stream.id}`, { key: account.readKey })).body;

      const sorenson = await pushEncoder(url, 10, { video: ['-c:v', 'flv', '-g', '60'] }).exited;
      assert.notEqual(sorenson.code, 0);
      assert.match(
        sorenson.stderr,
        /Server error: Video codec Sorenson H\.263 is not supported\. Set the encoder's video codec to H\.264 \(x264, NVENC, QuickSync or AMF\) and start again\./,
      );
      const mp3 = await pushEncoder(url, 10, { video: H264, audio: ['-c:a', 'libmp3lame', '-b:a', '128k'] })
        .exited;
      assert.notEqual(mp3.code, 0);
      assert.match(
        mp3.stderr,
        /Server error: Audio codec MP3 is not supported\. Set the encoder's audio codec to AAC and start again\./,
      );
      assert.equal((await get()).status, 'scheduled', 'a refused codec never makes the stream live');
      const refused = server.logs
        .map((line) => JSON.parse(line))
        .filter((line) => line.msg === 'publish refused' && line.streamId === stream.id)
        .map((line) => line.reason);
      assert.deepEqual(refused, ['unsupported_video_codec', 'unsupported_audio_codec']);
      assert.equal(
        server.logs.some((line) => line.includes('"packager failed"')),
        false,
        'a refusal is not reported as a failure',
      );

      // The creator fixes the encoder: the same key goes live, copied as it is.
      const fixed = pushEncoder(url, 30, { video: H264, audio: AAC });
      t.after(() => {
        fixed.stop();
      });
      await waitFor('live', async () => ((await get()).status === 'live' ? true : undefined), {
        timeoutMs: 15_000,
      });
    });

    test('over RTMP_MAX_CONNECTIONS an encoder is told the server is full', async (t) => {
      const server = await startMediaServer(t, { dialect, maxRtmpConnections: 1 });
      const account = await server.createAccount('Crowded');
      const stream = await server.createStream(account);
      const held = await RtmpTestClient.open(server.rtmpPort);
      t.after(() => {
        held.close();
      });
      const pushed = await pushEncoder(`${stream.ingest.rtmp_url}/${stream.ingest.stream_key}`, 5).exited;
      assert.notEqual(pushed.code, 0);
      assert.match(
        pushed.stderr,
        /Server error: The server is at its limit of 1 encoder connections\. Try again in a minute\./,
      );
      const status = await statusFor(server.rtmpPort, stream.ingest.stream_key);
      assert.equal(status?.code, 'NetStream.Publish.Rejected');
      assert.equal(
        (await server.request('GET', `/v1/streams/${stream.id}`, { key: account.readKey })).body.status,
        'scheduled',
      );
    });
  });
}
