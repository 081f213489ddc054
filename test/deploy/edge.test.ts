// deploy/nginx-edge.conf, run by Debian's nginx as a caching edge in front of the real service
// (HTTP, RTMP ingest, ffmpeg packaging) with a real ffmpeg push: a few hundred simulated HLS
// viewers through two edges, then the origin cut off for a moment. SQLite only: what is tested
// is real-time media, the same on either database. The 2,000-viewer minute is
// `npm run bench -- --edge` (bench/edge.ts).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { systemClock } from '../../src/shared/clock.ts';
import { freePort, startTestApp, type TestApp } from '../helpers/app.ts';
import { startPush, waitFor } from '../helpers/media-tools.ts';
import { NGINX_BIN, startEdge, type Nginx } from './nginx.ts';
import { runViewers } from './hls-viewers.ts';
import { probeLatency, SEGMENT } from './latency-probe.ts';
import { startOriginSwitch } from './origin-switch.ts';

if (process.env.CI === 'true' && NGINX_BIN === undefined) {
  throw new Error('CI must install nginx (Debian package "nginx") to test deploy/nginx-edge.conf');
}

const VIEWERS = Number(process.env.TEST_EDGE_VIEWERS ?? 200);
const RUN_MS = 20_000;
/** Two edges in front of the one origin, the viewers spread over them. */
const EDGES = 2;

/** A small, low-bitrate live picture (about 250 kb/s): the viewers' bytes stay modest. */
function pushSmallPicture(url: string) {
  return startPush([
    ...['-re', '-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=15'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '200k', '-pix_fmt', 'yuv420p'],
    ...['-g', '30', '-keyint_min', '30', '-sc_threshold', '0'],
    ...['-c:a', 'aac', '-b:a', '32k', '-f', 'flv', url],
  ]);
}

interface OriginRequest {
  url: string;
  status: number;
  at: number;
}

/** The origin's access log: one line per request it answered. */
function originRequests(server: TestApp): OriginRequest[] {
  return server.logs
    .filter((line) => line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as { url: string; status: number; time: string })
    .map(({ url, status, time }) => ({ url, status, at: Date.parse(time) }));
}

test(
  'deploy/nginx-edge.conf in front of a live stream',
  {
    skip: NGINX_BIN === undefined ? 'nginx is not installed (apt-get install nginx)' : false,
    timeout: 180_000,
  },
  async (t) => {
    const server = await startTestApp(t, {
      dialect: 'sqlite',
      clock: systemClock,
      rateLimitPerIp: 1000,
      logger: 'capture',
      secretKey: Buffer.alloc(32, 9),
      // The edge reaches the origin through the relay on 127.0.0.1 and names the viewer.
      trustProxy: '127.0.0.1',
      media: {},
    });
    const relay = await startOriginSwitch(server.port);
    t.after(() => relay.close());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-edge-'));
    t.after(() => {
      fs.rmSync(dir, { recursive: true, force: true });
    });
    // nginx's workers (nobody, when the tests run as root) must reach each edge's folder.
    fs.chmodSync(dir, 0o755);
    const edges: Nginx[] = [];
    for (let i = 0; i < EDGES; i += 1) {
      const edgeDir = path.join(dir, `edge-${i}`);
      fs.mkdirSync(edgeDir);
      const started = await startEdge({ dir: edgeDir, listenPort: await freePort(), originPort: relay.port });
      t.after(() => started.stop());
      edges.push(started);
    }
    const edge = edges[0]!;
    const edgeUrl = edge.url;

    const account = await server.createAccount('Edgar Edge');
    const settings = (await server.request('GET', '/v1/ingest', { key: account.writeKey })).body;
    const push = pushSmallPicture(`${settings.rtmp_url}/${settings.stream_key}`);
    t.after(() => {
      push.stop();
    });
    const stream = await waitFor(
      'the stream to go live with a thumbnail',
      async () => {
        const res = await server.request('GET', `/v1/streams?creator_id=${account.userId}`, {
          key: account.readKey,
        });
        return res.body.data.find(
          (s: { status: string; thumbnail_url: string | null }) => s.status === 'live' && s.thumbnail_url,
        );
      },
      { timeoutMs: 30_000 },
    );
    const mediaPath = `/media/streams/${stream.id}/`;
    const playlistPath = `${mediaPath}index.m3u8`;
    const thumbnailPath = new URL(stream.thumbnail_url).pathname + new URL(stream.thumbnail_url).search;
    // Cached now; its ten seconds are over by the time the origin is cut off below.
    const thumbnail = await fetch(`${edgeUrl}${thumbnailPath}`);
    assert.equal(thumbnail.status, 200);
    const thumbnailBytes = Buffer.from(await thumbnail.arrayBuffer());

    await t.test(`${VIEWERS} viewers through ${EDGES} edges for ${RUN_MS / 1000} s`, async () => {
      const probe = probeLatency(server.origin, edgeUrl, playlistPath);
      const viewerCounts: { at: number; count: number }[] = [];
      const startedAt = Date.now();
      const result = await runViewers({
        url: edges.map((e) => e.url),
        streamId: stream.id,
        viewers: VIEWERS,
        durationMs: RUN_MS,
        onTick: () => {
          // The count the API shows, once every viewer has signalled twice (5 s apart).
          if (Date.now() - startedAt < RUN_MS - 8_000) return;
          void server
            .request('GET', `/v1/streams/${stream.id}`, { key: account.readKey })
            .then((res) => viewerCounts.push({ at: Date.now(), count: res.body.viewer_count }));
        },
      });
      const endedAt = Date.now();
      await probe.stop();
      t.diagnostic(JSON.stringify(result));

      assert.equal(result.failures, 0, result.failureSamples.join('\n'));
      // Every viewer fetched the playlist on the player's schedule and kept up with the stream.
      assert.ok(result.playlists >= VIEWERS * (RUN_MS / 2000 - 2), `playlists: ${result.playlists}`);
      assert.ok(result.segments >= VIEWERS * (RUN_MS / 2000 - 3), `segments: ${result.segments}`);
      assert.ok(result.presences >= VIEWERS * 3, `presences: ${result.presences}`);

      const requests = originRequests(server).filter((r) => r.at >= startedAt && r.at <= endedAt + 1000);
      // Every segment came from the origin at most once per edge, however many viewers fetched it.
      const segmentFetches = new Map<string, number>();
      for (const { url } of requests.filter((r) => r.url.startsWith(mediaPath) && r.url.endsWith('.ts')))
        segmentFetches.set(url, (segmentFetches.get(url) ?? 0) + 1);
      assert.ok(segmentFetches.size >= RUN_MS / 2000 - 2, `segments at the origin: ${segmentFetches.size}`);
      for (const [url, count] of segmentFetches) assert.ok(count <= EDGES, `${url} fetched ${count} times`);

      // The live playlist: one origin request per slot (three a second) per edge at most, the
      // probe's own reads at the origin aside, whatever the number of viewers.
      const playlistFetches = requests.filter(
        (r) => r.url.startsWith(playlistPath) && !r.url.includes('probe=origin'),
      ).length;
      const seconds = (endedAt - startedAt) / 1000;
      const perEdgeBound = Math.ceil(seconds * 3) + 2;
      t.diagnostic(`origin playlist fetches: ${playlistFetches} in ${seconds.toFixed(1)} s`);
      assert.ok(playlistFetches <= perEdgeBound * EDGES, `${playlistFetches} in ${seconds} s`);
      // Each edge on its own: what it asked the origin for (an upstream address in its log),
      // each segment once and the playlist once per slot, and it answered the rest from its cache.
      for (const [i, each] of edges.entries()) {
        const log = each.accessLog().map((line) => line.split(' '));
        const fromOrigin = log.filter(([method, , , , upstream]) => method === 'GET' && upstream !== '-');
        const segmentsFromOrigin = new Map<string, number>();
        for (const [, uri] of fromOrigin.filter(
          ([, uri]) => uri?.startsWith(mediaPath) && uri.endsWith('.ts'),
        ))
          segmentsFromOrigin.set(uri!, (segmentsFromOrigin.get(uri!) ?? 0) + 1);
        assert.ok(segmentsFromOrigin.size > 0, `edge ${i} fetched segments`);
        for (const [uri, count] of segmentsFromOrigin)
          assert.equal(count, 1, `edge ${i} fetched ${uri} from the origin ${count} times`);
        const playlistsFromOrigin = fromOrigin.filter(([, uri]) => uri === playlistPath).length;
        assert.ok(playlistsFromOrigin <= perEdgeBound, `edge ${i}: ${playlistsFromOrigin} playlist fetches`);
        const hits = log.filter(
          ([, uri, status, cache]) => uri === playlistPath && status === '200' && cache === 'HIT',
        ).length;
        t.diagnostic(
          `edge ${i}: ${segmentsFromOrigin.size} segments and ${playlistsFromOrigin} playlists from the origin, ${hits} playlist hits`,
        );
        assert.ok(hits > Math.max(1, playlistsFromOrigin) * 5, `edge ${i}: ${hits} playlist hits`);
      }

      // The viewer count the API shows is the simulated audience, within 5%.
      t.diagnostic(`viewer counts: ${JSON.stringify(viewerCounts.map((c) => c.count))}`);
      const last = viewerCounts.at(-1);
      assert.ok(last !== undefined, 'the viewer count was read');
      assert.ok(
        Math.abs(last.count - VIEWERS) <= VIEWERS * 0.05,
        `viewer_count ${last.count} for ${VIEWERS}`,
      );

      // Latency: a new segment appears in the playlist through the edge within half a second
      // of its appearance at the origin. The median: the origin shares this process with the
      // viewers, and a busy moment of its event loop delays one reading now and then.
      const delays = [...probe.seen.origin]
        .filter(([name, at]) => at > startedAt && probe.seen.edge.has(name))
        .map(([name, at]) => probe.seen.edge.get(name)! - at)
        .sort((x, y) => x - y);
      t.diagnostic(`edge delay per new segment (ms), sorted: ${JSON.stringify(delays)}`);
      t.diagnostic(`probe's edge reads: ${JSON.stringify(probe.edgeReads)}`);
      assert.ok(delays.length >= RUN_MS / 2000 - 2, `segments probed: ${delays.length}`);
      const median = delays[Math.floor(delays.length / 2)]!;
      assert.ok(median <= 500, `median delay ${median} ms`);
    });

    await t.test('with the origin cut off, the edge keeps serving the media it has', async () => {
      const playlist = await (await fetch(`${edgeUrl}${playlistPath}`)).text();
      const segmentName = playlist
        .split('\n')
        .filter((line) => SEGMENT.test(line))
        .at(-1)!;
      const segment = await fetch(`${edgeUrl}${mediaPath}${segmentName}`);
      const segmentBytes = Buffer.from(await segment.arrayBuffer());
      assert.equal(segment.status, 200);

      relay.cut();
      try {
        // Segments are kept for good.
        const again = await fetch(`${edgeUrl}${mediaPath}${segmentName}`);
        assert.equal(again.status, 200);
        assert.equal(again.headers.get('x-cache-status'), 'HIT');
        assert.deepEqual(Buffer.from(await again.arrayBuffer()), segmentBytes);
        // The thumbnail's ten seconds are over: served stale rather than an error.
        const stale = await fetch(`${edgeUrl}${thumbnailPath}`);
        assert.equal(stale.status, 200);
        assert.equal(stale.headers.get('x-cache-status'), 'STALE');
        assert.deepEqual(Buffer.from(await stale.arrayBuffer()), thumbnailBytes);
        // What the edge cannot answer gets the API's error envelope, never nginx's page: the
        // API, and a live playlist once its slot is over (a live playlist is not
        // served stale: it would only say nothing new is coming).
        const unavailable = [
          await fetch(`${edgeUrl}/v1/streams/${stream.id}`),
          await waitFor('the live playlist slot to pass', async () => {
            const res = await fetch(`${edgeUrl}${playlistPath}`);
            if (res.headers.get('x-cache-status') !== 'HIT') return res;
            await res.arrayBuffer();
            return undefined;
          }),
        ];
        for (const res of unavailable) {
          assert.equal(res.status, 503, res.url);
          assert.equal(res.headers.get('retry-after'), '2');
          assert.equal(res.headers.get('cache-control'), 'no-store');
          assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'service_unavailable');
        }
      } finally {
        relay.restore();
      }
      // Back: the live playlist moves on through the edge.
      const newest = await waitFor('the playlist through the edge to list a newer segment', async () => {
        const res = await fetch(`${edgeUrl}${playlistPath}`);
        if (res.status !== 200) return undefined;
        const last = (await res.text())
          .split('\n')
          .filter((line) => SEGMENT.test(line))
          .at(-1);
        return last !== undefined && last > segmentName ? last : undefined;
      });
      assert.ok(newest > segmentName);
    });
  },
);
