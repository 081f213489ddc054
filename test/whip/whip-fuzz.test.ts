// Hostile WHIP input on loopback, bounded in count and time: mutated and random SDP offers,
// huge offers, floods of offers for one key and for unknown keys, then garbage datagrams
// (random bytes, DTLS- and STUN-shaped records) at the UDP ports an answered session opened.
// None of it may end the process, produce a 500, leave a session behind, or disturb another
// stream that is live over RTMP meanwhile (its playlist keeps growing). Mutated offers that
// pass the SDP checks are admitted and answered, then ended: before closed peer connections were
// held a while (whip-publisher.ts), about ten of those crashed the process in node-datachannel.
import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import { test } from 'node:test';
import { startMediaServer } from '../helpers/media-server.ts';
import { countSegments, pushTestPattern, waitFor } from '../helpers/media-tools.ts';
import { prng, type Rng } from '../helpers/prng.ts';
import { makeOffer } from '../helpers/whip-offer.ts';

const CASES = Number(process.env.WHIP_FUZZ_CASES ?? 400);
const SEED = Number(process.env.WHIP_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 32));
const DATAGRAMS = Number(process.env.WHIP_FUZZ_DATAGRAMS ?? 3000);
const ANSWERED = new Set([201, 400, 401, 409, 413, 415, 429, 503]);

function mutate(random: Rng, offer: string): string {
  const lines = offer.split('\r\n');
  switch (random.int(8)) {
    case 0: // drop lines
      return lines.filter(() => !random.chance(0.2)).join('\r\n');
    case 1: // duplicate lines
      return lines.flatMap((line) => (random.chance(0.2) ? [line, line] : [line])).join('\r\n');
    case 2: // flip bytes
      return offer
        .split('')
        .map((c) => (random.chance(0.02) ? String.fromCharCode(random.int(256)) : c))
        .join('');
    case 3: // truncate
      return offer.slice(0, random.int(offer.length));
    case 4: // many media sections
      return offer + 'm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=mid:x\r\n'.repeat(1 + random.int(200));
    case 5: // absurd numbers
      return offer.replace(/\d+/g, (n) =>
        random.chance(0.3) ? String(random.int(2 ** 31)) + '9'.repeat(random.int(30)) : n,
      );
    case 6: // random text
      return Array.from({ length: random.int(4000) }, () => String.fromCharCode(32 + random.int(95))).join(
        '',
      );
    default: // long lines
      return lines
        .map((line) => (random.chance(0.1) ? line + 'x'.repeat(random.int(10_000)) : line))
        .join('\r\n');
  }
}

test('hostile WHIP offers and datagrams never end the process nor disturb another live stream', async (t) => {
  t.diagnostic(`seed ${SEED} (WHIP_FUZZ_SEED), ${CASES} offers, ${DATAGRAMS} datagrams`);
  const random = prng(SEED);
  const server = await startMediaServer(t, {
    dialect: 'sqlite',
    reconnectWindowSeconds: 5,
    rateLimitPerIp: 1_000_000,
  });
  const account = await server.createAccount('Fuzzed');
  const bystander = await server.createStream(account, { title: 'Bystander' });
  const target = await server.createStream(account, { title: 'Target' });
  const key: string = target.ingest.stream_key;
  // Some mutated offers carry this ended stream's key (refused by admission); an unknown key
  // would lock the address out (penalty-box.ts), which the refusal tests cover.
  const over = await server.createStream(account, { title: 'Over' });
  await server.services.streams.goLive(over.id);
  await server.services.streams.end(over.id);
  const endedKey: string = over.ingest.stream_key;
  const url = `${server.origin}/v1/whip`;
  const playlist = `${server.origin}/media/streams/${bystander.id}/index.m3u8`;

  // Another stream, live over RTMP throughout.
  const push = pushTestPattern(`${bystander.ingest.rtmp_url}/${bystander.ingest.stream_key}`, 600);
  t.after(() => {
    push.stop();
  });
  await waitFor(
    'the bystander to have a segment',
    async () => {
      const response = await fetch(playlist);
      return response.status === 200 && countSegments(await response.text()) >= 1 ? true : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 500 },
  );
  const segmentsBefore = countSegments(await (await fetch(playlist)).text());

  // The offer's own candidate is replaced by a port nobody listens on: the server's ICE checks
  // go nowhere, as from a publisher that vanished.
  const sdp = (await makeOffer(t)).sdp.replace(/(a=candidate:\S+ 1 UDP \d+ 127\.0\.0\.1 )\d+/g, '$19');
  const statuses = new Map<number, number>();
  const post = async (body: string, token: string, type = 'application/sdp') => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': type, authorization: `Bearer ${token}` },
      body,
    });
    const text = await response.text();
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    assert.ok(ANSWERED.has(response.status), `unexpected ${response.status}: ${text.slice(0, 200)}`);
    if (response.status !== 201) assert.match(text, /^\{"error":\{"code":"/);
    return { status: response.status, text, location: response.headers.get('location') };
  };
  const started = Date.now();

  // Mutated offers with the real key, eight at a time; whatever is answered is ended again.
  for (let index = 0; index < CASES; index += 8) {
    const batch = Array.from({ length: Math.min(8, CASES - index) }, () => mutate(random, sdp));
    const answers = await Promise.all(batch.map((body) => post(body, random.chance(0.1) ? endedKey : key)));
    for (const answer of answers.filter((a) => a.status === 201)) {
      await fetch(`${server.origin}${answer.location}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${key}` },
      });
    }
  }
  // A huge offer, and a flood of valid offers at once: one publisher at most gets through.
  assert.equal((await post(`v=0\r\n${'a=x\r\n'.repeat(40_000)}`, key)).status, 413);
  const flood = await Promise.all(Array.from({ length: 24 }, () => post(sdp, key)));
  const admitted = flood.filter((answer) => answer.status === 201);
  assert.ok(admitted.length <= 1, `${admitted.length} publishers admitted at once`);
  assert.ok(flood.every((answer) => answer.status === 201 || answer.status === 409 || answer.status === 503));

  // Garbage at the UDP ports the admitted session's answer names.
  const answer = admitted[0] ?? (await post(sdp, key));
  // Each candidate's port (the stack binds them on every interface, loopback included).
  const ports = [
    ...new Set(
      [...answer.text.matchAll(/a=candidate:\S+ 1 UDP \d+ [\d.]+ (\d+) typ/gi)].map((m) => Number(m[1])),
    ),
  ];
  assert.ok(ports.length > 0, 'the answer names its UDP ports');
  t.diagnostic(`garbage to UDP ports ${ports.join(',')}`);
  const socket = dgram.createSocket('udp4');
  t.after(() => {
    socket.close();
  });
  for (let sent = 0; sent < DATAGRAMS && ports.length > 0; sent += 1) {
    const size = 1 + random.int(1400);
    const datagram = Buffer.from(Array.from({ length: size }, () => random.int(256)));
    const shape = random.int(4);
    if (shape === 1) datagram[0] = 22; // a DTLS handshake record
    if (shape === 2) datagram[0] = 23; // DTLS application data
    if (shape === 3 && size >= 20) datagram.writeUInt32BE(0x2112a442, 4); // STUN's magic cookie
    socket.send(datagram, random.pick(ports), '127.0.0.1');
    if (sent % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  if (answer.location) {
    await fetch(`${server.origin}${answer.location}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${key}` },
    });
  }
  t.diagnostic(`answers: ${JSON.stringify(Object.fromEntries(statuses))} in ${Date.now() - started} ms`);

  // The process answers, no WHIP session is left, and the bystander is still live and growing.
  assert.equal((await fetch(`${server.origin}/healthz`)).status, 200);
  await waitFor('every WHIP session to end', () => (server.whip.size === 0 ? true : undefined), {
    timeoutMs: 30_000,
  });
  await waitFor(
    'the bystander playlist to grow',
    async () => (countSegments(await (await fetch(playlist)).text()) > segmentsBefore + 1 ? true : undefined),
    { timeoutMs: 30_000, intervalMs: 1000 },
  );
  const status = (await server.request('GET', `/v1/streams/${bystander.id}`, { key: account.readKey })).body
    .status;
  assert.equal(status, 'live');
  assert.ok(
    !server.logs.some((line) => line.includes('"level":50') && !line.includes('publish output')),
    'no error logged',
  );
});
