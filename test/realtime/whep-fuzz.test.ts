// Hostile WHEP input (issue 30), bounded in count and time, on loopback: malformed and mutated
// SDP offers, huge offers, a flood of offers at once, DELETEs and PATCHes of sessions that do
// not exist, and garbage datagrams (random bytes, STUN-, DTLS- and RTP-shaped) at every UDP
// port the process has open (the WebRTC sessions' ICE/DTLS ports and the feeds' RTP ports).
// Nothing answers 500, the process stays up, and a Chromium viewer of another realtime stream
// keeps decoding frames throughout. Replay a run with WHEP_FUZZ_SEED.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import dgram from 'node:dgram';
import { test } from 'node:test';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { launchBrowser, WEBRTC_LOOPBACK_ARGS, waitUntilPlaying } from '../helpers/media-browser.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { pushTestPattern } from '../helpers/media-tools.ts';
import { prng, type Rng } from '../helpers/prng.ts';
import { waitFor } from '../helpers/wait.ts';
import { chromeLikeOffer } from './chrome-offer.ts';

const run = promisify(execFile);
const SEED = Number(process.env.WHEP_FUZZ_SEED ?? Date.now() % 1_000_000);
const OFFERS = 150;
const DATAGRAMS_PER_PORT = 400;
const ALLOWED = new Set([201, 400, 404, 405, 409, 413, 415, 429, 503]);

function framesShown(page: Page): Promise<number> {
  return page.evaluate(() =>
    Number((globalThis as any).document.querySelector('#player').getVideoPlaybackQuality().totalVideoFrames),
  );
}

/** One malformed variant of a good offer: lines dropped, doubled, cut, or replaced with noise. */
function mutate(rng: Rng, offer: string): string {
  const lines = offer.split('\r\n');
  const edits = 1 + rng.int(6);
  for (let i = 0; i < edits; i++) {
    const at = rng.int(lines.length);
    const line = lines[at] ?? '';
    switch (rng.int(7)) {
      case 0:
        lines.splice(at, 1);
        break;
      case 1:
        lines.splice(at, 0, line, line);
        break;
      case 2:
        lines[at] = line.slice(0, rng.int(line.length + 1));
        break;
      case 3:
        lines[at] = Array.from({ length: rng.int(200) }, () => String.fromCharCode(rng.int(0x250))).join('');
        break;
      case 4:
        lines[at] = line.replace(/\d+/g, () => String(rng.pick([0, -1, 65536, 2 ** 32, 999999999999, 127])));
        break;
      case 5:
        lines.splice(
          at,
          0,
          rng.pick([
            'm=video 9 UDP/TLS/RTP/SAVPF 102',
            'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
            'a=mid:',
            'a=rtpmap:102 H264/90000',
            'a=ssrc:1 cname:x',
            'a=extmap:15 x',
          ]),
        );
        break;
      default:
        lines[at] = `${line}${'\u0000'.repeat(rng.int(4))};;==`;
    }
  }
  return lines.join(rng.chance(0.5) ? '\r\n' : '\n');
}

function datagram(rng: Rng): Buffer {
  const size = 1 + rng.int(1400);
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = rng.int(256);
  switch (rng.int(4)) {
    case 0: // STUN binding request shape with the magic cookie
      if (size >= 20) {
        bytes.writeUInt16BE(0x0001, 0);
        bytes.writeUInt16BE(Math.max(0, size - 20), 2);
        bytes.writeUInt32BE(0x2112a442, 4);
      }
      break;
    case 1: // DTLS record shape (handshake, application data)
      bytes[0] = rng.pick([20, 21, 22, 23]);
      if (size > 2) {
        bytes[1] = 0xfe;
        bytes[2] = 0xfd;
      }
      break;
    case 2: // RTP/RTCP shape
      bytes[0] = 0x80;
      if (size > 1) bytes[1] = rng.pick([96, 111, 200, 201, 205, 206, 0x80 | 96]);
      break;
    default:
  }
  return bytes;
}

/** The UDP ports this process has open (ss lists them with their owner). */
async function ownUdpPorts(): Promise<number[]> {
  const { stdout } = await run('ss', ['-uanp']);
  const ports = new Set<number>();
  for (const line of stdout.split('\n')) {
    if (!line.includes(`pid=${process.pid},`)) continue;
    const local = line.trim().split(/\s+/)[3] ?? '';
    const port = Number(local.slice(local.lastIndexOf(':') + 1));
    if (port > 0) ports.add(port);
  }
  return [...ports];
}

test(`hostile WHEP input never ends the process nor disturbs another stream's viewer (seed ${SEED})`, async (t) => {
  const rng = prng(SEED);
  const server = await startMediaServer(t, {
    dialect: 'sqlite',
    // Every well-formed mutation reaches libdatachannel (no per-address limit in the way); the
    // capacity still bounds what the flood may hold.
    realtime: { maxViewers: 120, connectTimeoutMs: 3_000, maxConnectingPerAddress: 10_000 },
  });
  const creator = await server.createAccount();
  const watched = await server.createStream(creator, { latency_mode: 'realtime', record: false });
  const target = await server.createStream(creator, { latency_mode: 'realtime', record: false });
  const pushes = [watched, target].map((s) =>
    pushTestPattern(`${s.ingest.rtmp_url}/${s.ingest.stream_key}`, 240, { size: '320x180' }),
  );
  t.after(() => {
    for (const push of pushes) push.stop();
  });
  await waitFor(
    async () => {
      for (const s of [watched, target]) {
        const detail = await server.request('GET', `/v1/streams/${s.id}`, { key: creator.readKey });
        if (detail.body.status !== 'live' || !server.services.realtime.serves(s.id)) return false;
      }
      return true;
    },
    { timeoutMs: 40_000, what: 'both streams to be live over WebRTC' },
  );
  const browser = await launchBrowser(t, WEBRTC_LOOPBACK_ARGS);
  const viewer = await browser.newPage();
  await viewer.goto(`${server.origin}/watch/${watched.id}`);
  await waitFor(
    async () =>
      (await viewer.evaluate(
        () => (globalThis as any).document.getElementById('player-box').dataset.transport,
      )) === 'webrtc',
    { timeoutMs: 30_000, what: 'the viewer to play over WebRTC' },
  );
  await waitUntilPlaying(viewer, 1, 30_000);

  const statuses = new Map<number, number>();
  const note = (status: number, what: string) => {
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    assert.ok(ALLOWED.has(status), `${what}: status ${status} (seed ${SEED})`);
  };
  const post = async (body: string | Buffer, type = 'application/sdp') => {
    const response = await fetch(`${server.origin}/v1/streams/${target.id}/whep`, {
      method: 'POST',
      headers: { 'content-type': type },
      body,
    });
    const text = await response.text();
    note(response.status, `offer of ${body.length} bytes`);
    if (response.status !== 201) assert.match(text, /^\{"error":\{"code":"/);
    return response;
  };
  const good = chromeLikeOffer();

  // Malformed and mutated offers, one after another.
  for (let i = 0; i < OFFERS; i++) await post(mutate(rng, good));
  // Huge offers: just over the offer limit, over the app's body limit, and a megabyte.
  for (const size of [33 * 1024, 70 * 1024, 1024 * 1024])
    await post(`${good}a=x:${'y'.repeat(size)}\r\n`).catch((error: unknown) => {
      // The server may close the connection on a body far over its limit.
      assert.ok(size > 64 * 1024, String(error));
    });
  // A flood of good-looking offers at once (their ICE never completes).
  await Promise.all(Array.from({ length: 200 }, () => post(good)));
  assert.ok((statuses.get(503) ?? 0) > 0, 'the flood met the capacity');
  // Sessions that do not exist.
  for (let i = 0; i < 50; i++) {
    const id = rng.chance(0.5)
      ? `whep_${rng.int(1e9)}`
      : encodeURIComponent(String.fromCharCode(rng.int(0x3000)).repeat(rng.int(64)));
    for (const method of ['DELETE', 'PATCH']) {
      const response = await fetch(`${server.origin}/v1/streams/${target.id}/whep/${id}`, { method });
      note(response.status, `${method} of an unknown session`);
      await response.arrayBuffer();
    }
  }

  // Garbage at every UDP port the process holds (sessions' ICE/DTLS, feeds' RTP).
  const ports = await ownUdpPorts();
  assert.ok(ports.length >= 4, `UDP ports found: ${ports.join(', ')}`);
  const socket = dgram.createSocket('udp4');
  t.after(() => {
    socket.close();
  });
  for (const port of ports) {
    for (let i = 0; i < DATAGRAMS_PER_PORT; i++) {
      socket.send(datagram(rng), port, '127.0.0.1');
      if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  // The other stream's viewer still decodes, and the server still answers.
  const before = await framesShown(viewer);
  await waitFor(async () => (await framesShown(viewer)) > before + 30 || undefined, {
    timeoutMs: 15_000,
    what: `the viewer of the other stream to keep decoding (seed ${SEED})`,
  });
  const health = await fetch(`${server.origin}/healthz`);
  assert.equal(health.status, 200);
  // The half-open sessions of the flood time out and free their places.
  await waitFor(() => server.services.realtime.viewerCount <= 1 || undefined, {
    timeoutMs: 20_000,
    what: 'the flood sessions to time out',
  });
  t.diagnostic(`statuses: ${JSON.stringify(Object.fromEntries(statuses))}; UDP ports hit: ${ports.length}`);
});
