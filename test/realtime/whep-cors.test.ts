// A WHEP player served from another origin (the WHEP draft's CORS): the preflight is answered,
// and every answer of the WHEP routes (the 201 with its Location, the refusals a player falls
// back on) may be read by the player's page; the rest of the API and the pages stay
// same-origin (no Access-Control-Allow-Origin anywhere else).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import nodeDataChannel from 'node-datachannel';
import { startMediaServer } from '../helpers/media-server.ts';
import { pushTestPattern } from '../helpers/media-tools.ts';
import { joinOverWhep, waitUntilServedOverWebRtc } from '../helpers/whep-viewer.ts';

const PLAYER_ORIGIN = 'https://player.example';

function exposed(response: Response): string[] {
  return (response.headers.get('access-control-expose-headers') ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
}

test('WHEP answers a cross-origin player: preflight, the answer and refusals readable, nothing else opened', async (t) => {
  const server = await startMediaServer(t, { dialect: 'sqlite' });
  const creator = await server.createAccount();
  const stream = await server.createStream(creator, { latency_mode: 'realtime', record: false });
  const whep = `${server.origin}/v1/streams/${stream.id}/whep`;

  // The preflight of the POST a player's fetch() makes (Content-Type: application/sdp is not a
  // "simple" type, so the browser asks first).
  const preflight = await fetch(whep, {
    method: 'OPTIONS',
    headers: {
      origin: PLAYER_ORIGIN,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    },
  });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
  assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /\bPOST\b/);
  assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /\bcontent-type\b/i);
  assert.ok(Number(preflight.headers.get('access-control-max-age')) > 0);
  const sessionPreflight = await fetch(`${whep}/whep_anything`, {
    method: 'OPTIONS',
    headers: { origin: PLAYER_ORIGIN, 'access-control-request-method': 'DELETE' },
  });
  assert.equal(sessionPreflight.status, 204);
  assert.match(sessionPreflight.headers.get('access-control-allow-methods') ?? '', /\bDELETE\b/);

  // A refusal (not live yet) is readable too: the player falls back to HLS on it.
  const refused = await fetch(whep, {
    method: 'POST',
    headers: { origin: PLAYER_ORIGIN, 'content-type': 'application/sdp' },
    body: 'v=0\r\n',
  });
  assert.equal(refused.status, 409);
  assert.equal(refused.headers.get('access-control-allow-origin'), '*');
  assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'stream_not_live');

  // The rest of the API, an unknown OPTIONS and the pages: no CORS.
  const api = await fetch(`${server.origin}/v1/streams/${stream.id}`, { headers: { origin: PLAYER_ORIGIN } });
  assert.equal(api.headers.get('access-control-allow-origin'), null);
  await api.arrayBuffer();
  const otherPreflight = await fetch(`${server.origin}/v1/streams`, {
    method: 'OPTIONS',
    headers: { origin: PLAYER_ORIGIN, 'access-control-request-method': 'POST' },
  });
  assert.equal(otherPreflight.headers.get('access-control-allow-origin'), null);
  assert.notEqual(otherPreflight.status, 204);
  await otherPreflight.arrayBuffer();
  const page = await fetch(`${server.origin}/watch/${stream.id}`, { headers: { origin: PLAYER_ORIGIN } });
  assert.equal(page.headers.get('access-control-allow-origin'), null);
  await page.arrayBuffer();

  // Live: the 201's Location (and WHEP's other headers) are exposed to the player's script.
  const push = pushTestPattern(`${stream.ingest.rtmp_url}/${stream.ingest.stream_key}`, 60, {
    size: '320x180',
  });
  t.after(() => {
    push.stop();
  });
  await waitUntilServedOverWebRtc(server, stream.id, creator.readKey);
  const viewer = await joinOverWhep(server.origin, stream.id, {
    label: 'cross-origin',
    headers: { origin: PLAYER_ORIGIN },
  });
  t.after(() => {
    viewer.close();
    // node-datachannel's threads keep the process alive until its cleanup.
    nodeDataChannel.cleanup();
  });
  assert.equal(viewer.response.status, 201);
  assert.equal(viewer.response.headers.get('access-control-allow-origin'), '*');
  assert.ok(viewer.location?.startsWith(`/v1/streams/${stream.id}/whep/`), String(viewer.location));
  for (const name of ['location', 'etag', 'link', 'accept-patch']) {
    assert.ok(
      exposed(viewer.response).includes(name),
      `${name} exposed: ${exposed(viewer.response).join(', ')}`,
    );
  }
  const ended = await fetch(`${server.origin}${viewer.location}`, {
    method: 'DELETE',
    headers: { origin: PLAYER_ORIGIN },
  });
  assert.equal(ended.status, 204);
  assert.equal(ended.headers.get('access-control-allow-origin'), '*');
});
