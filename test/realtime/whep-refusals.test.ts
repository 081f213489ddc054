// WHEP's refusals over HTTP (issue 30), each a JSON error envelope with its status: an unknown
// stream (404), a stream that is not realtime or not live (409), a body that is not
// application/sdp (415) or is too large (413), an offer that cannot be answered (400), this
// process's WebRTC capacity reached (503 realtime_capacity, counted in the metrics), an unknown
// session's DELETE (404) and trickle ICE (405). A parsed Chromium-like offer picks H.264 and Opus.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { processRegistry } from '../../src/metrics/process-metrics.ts';
import { parseWhepOffer } from '../../src/realtime/whep-offer.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { pushTestPattern } from '../helpers/media-tools.ts';
import { waitUntilServedOverWebRtc } from '../helpers/whep-viewer.ts';
import { chromeLikeOffer } from './chrome-offer.ts';

async function postOffer(origin: string, id: string, body: string, type = 'application/sdp') {
  const response = await fetch(`${origin}/v1/streams/${id}/whep`, {
    method: 'POST',
    headers: { 'content-type': type },
    body,
  });
  const text = await response.text();
  assert.match(response.headers.get('content-type') ?? '', /application\/json/, text);
  return {
    status: response.status,
    error: (JSON.parse(text) as { error: { code: string; message: string } }).error,
  };
}

test('the offer parser picks the H.264 format for the stream and Opus, and the playout-delay id', () => {
  const offer = parseWhepOffer(chromeLikeOffer());
  assert.deepEqual(offer.video, { mid: '0', payloadType: 106, profileLevelId: '42e01f', playoutDelayId: 12 });
  assert.deepEqual(offer.audio, { mid: '1', payloadType: 111 });
  assert.throws(() => parseWhepOffer(chromeLikeOffer({ h264: false })), /no H.264 video/);
  assert.throws(() => parseWhepOffer('hello'), /not an SDP offer/);
});

test('WHEP refusals are JSON errors with the right status', async (t) => {
  const server = await startMediaServer(t, { dialect: 'sqlite', realtime: { maxViewers: 0 } });
  const creator = await server.createAccount();
  const realtime = await server.createStream(creator, { latency_mode: 'realtime', record: false });
  const normal = await server.createStream(creator, { latency_mode: 'low', record: false });
  const offer = chromeLikeOffer();

  let res = await postOffer(server.origin, 'str_nothing', offer);
  assert.deepEqual([res.status, res.error.code], [404, 'resource_not_found']);
  res = await postOffer(server.origin, normal.id, offer);
  assert.deepEqual([res.status, res.error.code], [409, 'stream_not_realtime']);
  res = await postOffer(server.origin, realtime.id, offer);
  assert.deepEqual([res.status, res.error.code], [409, 'stream_not_live']);
  res = await postOffer(server.origin, realtime.id, JSON.stringify({ sdp: offer }), 'application/json');
  assert.deepEqual([res.status, res.error.code], [415, 'unsupported_media_type']);
  res = await postOffer(server.origin, realtime.id, offer, 'text/plain');
  assert.equal(res.status, 400);
  res = await postOffer(server.origin, realtime.id, `${offer}a=x-pad:${'x'.repeat(40 * 1024)}\r\n`);
  assert.deepEqual([res.status, res.error.code], [413, 'payload_too_large']);
  res = await postOffer(server.origin, realtime.id, `${offer}a=x-pad:${'x'.repeat(200 * 1024)}\r\n`);
  assert.deepEqual([res.status, res.error.code], [413, 'payload_too_large']);

  const push = pushTestPattern(`${realtime.ingest.rtmp_url}/${realtime.ingest.stream_key}`, 60, {
    size: '320x180',
  });
  t.after(() => {
    push.stop();
  });
  await waitUntilServedOverWebRtc(server, realtime.id, creator.readKey);
  res = await postOffer(server.origin, realtime.id, 'v=0\r\nthis is not sdp');
  assert.deepEqual([res.status, res.error.code], [400, 'invalid_sdp']);
  res = await postOffer(server.origin, realtime.id, chromeLikeOffer({ h264: false }));
  assert.deepEqual([res.status, res.error.code], [400, 'invalid_sdp']);
  assert.match(res.error.message, /H\.264/);
  // A good offer past the capacity (0 here): 503, told to play the HLS, counted.
  const before = await refusals('capacity');
  res = await postOffer(server.origin, realtime.id, offer);
  assert.deepEqual([res.status, res.error.code], [503, 'realtime_capacity']);
  assert.match(res.error.message, /HLS/);
  assert.equal(await refusals('capacity'), before + 1);
  assert.ok(server.logs.some((line) => line.includes('WebRTC playback refused')));

  const gone = await fetch(`${server.origin}/v1/streams/${realtime.id}/whep/whep_nothing`, {
    method: 'DELETE',
  });
  assert.equal(gone.status, 404);
  assert.equal(((await gone.json()) as { error: { code: string } }).error.code, 'resource_not_found');
  const patch = await fetch(`${server.origin}/v1/streams/${realtime.id}/whep/whep_nothing`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/trickle-ice-sdpfrag' },
    body: 'a=candidate:1 1 udp 1 127.0.0.1 1 typ host',
  });
  assert.equal(patch.status, 405);
  assert.equal(((await patch.json()) as { error: { code: string } }).error.code, 'method_not_allowed');
});

async function refusals(reason: string): Promise<number> {
  const metric = await processRegistry.getSingleMetric('tributary_realtime_refusals_total')?.get();
  return metric?.values.find((v) => v.labels.reason === reason)?.value ?? 0;
}
