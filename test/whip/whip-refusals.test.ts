// WHIP refusals over HTTP, each the JSON error envelope with its status: no key, a wrong key,
// an ended stream's key, a stream already published over RTMP, a malformed or unusable offer,
// an oversized body, a wrong content type, trickle ICE, an unknown session. Admission is the
// RTMP ingest's own, so an RTMP encoder and a WHIP publisher exclude each other.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { mediaDialects } from '../helpers/databases.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { pushTestPattern, waitFor } from '../helpers/media-tools.ts';
import { makeOffer } from '../helpers/whip-offer.ts';

interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

async function post(url: string, body: string, headers: Record<string, string>): Promise<Answer> {
  const response = await fetch(url, { method: 'POST', headers, body });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

function assertRefused(answer: Answer, status: number, code: string, message?: RegExp): void {
  assert.equal(answer.status, status, answer.body);
  assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
  const parsed = JSON.parse(answer.body) as { error: { code: string; message: string } };
  assert.equal(parsed.error.code, code, answer.body);
  if (message) assert.match(parsed.error.message, message);
}

for (const { dialect, test } of mediaDialects('WHIP refusals are HTTP errors in the envelope')) {
  describe(`WHIP refusals on ${dialect}`, () => {
    test('WHIP refusals are HTTP errors in the envelope', async (t) => {
      const server = await startMediaServer(t, { dialect, reconnectWindowSeconds: 5, rateLimitPerIp: 1000 });
      const account = await server.createAccount('Refused Browser');
      const stream = await server.createStream(account, { title: 'Refusals' });
      const key: string = stream.ingest.stream_key;
      const url = `${server.origin}/v1/whip`;
      const { sdp } = await makeOffer(t);
      const sdpHeaders = (token: string) => ({
        'content-type': 'application/sdp',
        authorization: `Bearer ${token}`,
      });

      assertRefused(
        await post(url, sdp, { 'content-type': 'application/sdp' }),
        401,
        'authentication_required',
      );
      assertRefused(
        await post(url, sdp, sdpHeaders(`sk_${'x'.repeat(32)}`)),
        401,
        'invalid_stream_key',
        /stream key is not valid/,
      );
      assertRefused(
        await post(url, sdp, { 'content-type': 'application/json', authorization: `Bearer ${key}` }),
        415,
        'unsupported_media_type',
      );
      assertRefused(
        await post(url, sdp, { 'content-type': 'text/plain', authorization: `Bearer ${key}` }),
        415,
        'unsupported_media_type',
      );
      assertRefused(
        await post(url, 'v=0\r\n'.padEnd(70 * 1024, 'a'), sdpHeaders(key)),
        413,
        'payload_too_large',
      );
      const malformed: [string, RegExp][] = [
        ['hello', /not an SDP offer/],
        ['', /not an SDP offer/],
        ['v=0\r\nm=video nine UDP/TLS/RTP/SAVPF 96\r\n', /malformed media line/],
        [sdp.replace(/a=rtpmap:96 H264\/90000/, 'a=rtpmap:96 VP8/90000'), /H\.264/],
        [sdp.replace(/m=audio[\s\S]*$/, '').replace(/m=video[\s\S]*$/, ''), /one video track/],
        [sdp.replace(/a=ice-ufrag:\S+\r\n/g, ''), /ice-ufrag/],
        [sdp.replace(/a=fingerprint:[^\r\n]+\r\n/g, ''), /fingerprint/],
        [sdp.replace(/a=rtpmap:111 opus\/48000\/2/, 'a=rtpmap:111 PCMU/8000'), /Opus/],
        [`${sdp}m=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n`, /malformed media line|nothing else/],
        [sdp.replace('a=sendonly', 'a=recvonly'), /sendonly/],
        [sdp.replace('v=0', 'v=0\u0000'), /not an SDP offer/],
      ];
      for (const [body, message] of malformed) {
        assertRefused(await post(url, body, sdpHeaders(key)), 400, 'invalid_sdp', message);
      }
      // Nothing of these reached admission: the stream is as it was.
      assert.equal(
        (await server.request('GET', `/v1/streams/${stream.id}`, { key: account.readKey })).body.status,
        'scheduled',
      );

      // Trickle ICE is not taken; an unknown session is not found.
      const patch = await fetch(`${url}/nosuchsession`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/trickle-ice-sdpfrag', authorization: `Bearer ${key}` },
        body: 'a=end-of-candidates\r\n',
      });
      assert.equal(patch.status, 405);
      assert.equal(patch.headers.get('allow'), 'DELETE');
      const unknown = await fetch(`${url}/nosuchsession`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${key}` },
      });
      assert.equal(unknown.status, 404);

      // An ended stream's key.
      const over = await server.createStream(account, { title: 'Over' });
      await server.services.streams.goLive(over.id);
      await server.services.streams.end(over.id);
      assertRefused(
        await post(url, sdp, sdpHeaders(over.ingest.stream_key)),
        409,
        'stream_ended',
        /has ended/,
      );

      // A stream an RTMP encoder publishes: a WHIP publisher is a second encoder.
      const rtmp = pushTestPattern(`${stream.ingest.rtmp_url}/${key}`, 120);
      t.after(() => {
        rtmp.stop();
      });
      await waitFor(
        'the RTMP publish to go live',
        async () =>
          (await server.request('GET', `/v1/streams/${stream.id}`, { key: account.readKey })).body.status ===
          'live'
            ? true
            : undefined,
        { timeoutMs: 60_000, intervalMs: 250 },
      );
      assertRefused(await post(url, sdp, sdpHeaders(key)), 409, 'already_publishing', /Another encoder/);
      // Refused WHIP publishers never became publishes.
      assert.equal(server.logs.filter((line) => line.includes('"publish started"')).length, 1);
      assert.equal(server.whip.size, 0);

      // A WHIP publisher admitted for a scheduled stream: 201, its session, and then an RTMP
      // encoder of the same key is refused in turn.
      const other = await server.createStream(account, { title: 'WHIP first' });
      const admitted = await post(url, (await makeOffer(t)).sdp, sdpHeaders(other.ingest.stream_key));
      assert.equal(admitted.status, 201, admitted.body);
      assert.match(admitted.body, /^v=0\r\n/);
      const second = pushTestPattern(`${other.ingest.rtmp_url}/${other.ingest.stream_key}`, 5);
      const exit = await second.exited;
      assert.match(exit.stderr, /Another encoder is already publishing this stream/);
      const location = admitted.headers.get('location') ?? '';
      const ended = await fetch(`${server.origin}${location}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${other.ingest.stream_key}` },
      });
      assert.equal(ended.status, 200);
      await waitFor('the WHIP session to close', () => (server.whip.size === 0 ? true : undefined));

      // A creator's channel key works as over RTMP: it publishes their next stream.
      const other2 = await server.createAccount('Channel Browser');
      await server.createStream(other2, { title: 'Next up' });
      const channel = await server.request('GET', '/v1/ingest', { key: other2.writeKey });
      const viaChannel = await post(url, (await makeOffer(t)).sdp, sdpHeaders(channel.body.stream_key));
      assert.equal(viaChannel.status, 201, viaChannel.body);
      const closed = await fetch(`${server.origin}${viaChannel.headers.get('location') ?? ''}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${channel.body.stream_key}` },
      });
      assert.equal(closed.status, 200);
      await waitFor('the channel-key session to close', () => (server.whip.size === 0 ? true : undefined));
    });
  });
}
