// The session tells a clean stop from a drop: an encoder that stops on purpose (OBS's Stop
// Streaming, ffmpeg at the end of its input) sends FCUnpublish and deleteStream before it hangs
// up, and the session reports that; a connection that just goes away never does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HANDSHAKE_SIZE } from '../../src/rtmp/handshake.ts';
import { RtmpSession, type PublishRequest } from '../../src/rtmp/session.ts';
import { amf, chunkMessage, command, handshakeC0C1, MSG } from '../helpers/rtmp-client.ts';

/** A session fed by hand, recording what it reports. */
function session() {
  const heard: string[] = [];
  const published: PublishRequest[] = [];
  const rtmp = new RtmpSession({
    send: () => undefined,
    publish: (request) => {
      published.push(request);
      heard.push('publish');
    },
    media: () => undefined,
    unpublish: () => heard.push('unpublish'),
    end: (reason) => heard.push(`end: ${reason}`),
  });
  const invoke = (name: string, transactionId: number, values: unknown[], streamId = 0) => {
    rtmp.feed(
      chunkMessage({ csid: 3, type: MSG.invoke, streamId, payload: command(name, transactionId, ...values) }),
    );
  };
  // The plain handshake (C2 is not checked), then connect, createStream and publish.
  rtmp.feed(handshakeC0C1());
  rtmp.feed(Buffer.alloc(HANDSHAKE_SIZE));
  invoke('connect', 1, [amf.object({ app: amf.string('live') })]);
  invoke('createStream', 2, [null]);
  return { rtmp, heard, published, invoke };
}

test('FCUnpublish then deleteStream after publishing is a clean stop, reported before the end', () => {
  const { heard, published, invoke } = session();
  invoke('publish', 3, [null, 'sk_key?x=1', 'live'], 1);
  assert.deepEqual(published, [{ app: 'live', streamName: 'sk_key' }]);
  invoke('FCUnpublish', 4, [null, 'sk_key']);
  // FCUnpublish alone does not hang up: deleteStream follows, and the encoder is still writing.
  assert.deepEqual(heard, ['publish', 'unpublish']);
  invoke('deleteStream', 5, [null, 1]);
  assert.deepEqual(heard, ['publish', 'unpublish', 'unpublish', 'end: the publisher closed its stream']);
  // Nothing after the end is heard.
  invoke('closeStream', 6, [null], 1);
  assert.equal(heard.length, 4);
});

test('closeStream alone is a clean stop too', () => {
  const { heard, invoke } = session();
  invoke('publish', 3, [null, 'sk_key', 'live'], 1);
  invoke('closeStream', 4, [null], 1);
  assert.deepEqual(heard, ['publish', 'unpublish', 'end: the publisher closed its stream']);
});

test('unpublishing before publishing is not a stop, and bytes that simply stop are not one either', () => {
  const { rtmp, heard, invoke } = session();
  invoke('FCUnpublish', 3, [null, 'sk_key']);
  invoke('deleteStream', 4, [null, 1]);
  assert.deepEqual(heard, []);
  invoke('publish', 5, [null, 'sk_key', 'live'], 1);
  // The connection is then cut (the server stops the session as its socket closes): no report.
  rtmp.stop();
  invoke('deleteStream', 6, [null, 1]);
  assert.deepEqual(heard, ['publish']);
});
