// deploy/nginx.conf as the media origin (issue 16): Debian's nginx sends HLS playlists, segments
// and thumbnails from the disk the real service writes them to, with the service's headers,
// and hands everything it cannot answer from disk to the service, whose JSON envelope the
// client gets. A real ffmpeg push, then the recording it becomes; SQLite only (what is tested
// is file serving, the same on either database).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { Client } from 'undici';
import { freePort, type TestApp } from '../helpers/app.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { pushTestPattern, waitFor } from '../helpers/media-tools.ts';
import { NGINX_BIN, startEdge, startOrigin, type Nginx } from './nginx.ts';

if (process.env.CI === 'true' && NGINX_BIN === undefined) {
  throw new Error('CI must install nginx (Debian package "nginx") to test deploy/nginx.conf');
}

/** The headers the service chooses for each kind of file, which nginx must send the same. */
const SAME_HEADERS = ['content-type', 'cache-control', 'x-content-type-options', 'accept-ranges'];

interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
}

async function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  const response = await fetch(url, { method, headers });
  return {
    status: response.status,
    headers: response.headers,
    body: Buffer.from(await response.arrayBuffer()),
  };
}

function envelope(answer: Answer, context = ''): { code: string; message: string } {
  assert.match(
    answer.headers.get('content-type') ?? '',
    /^application\/json/,
    `${context} ${answer.status}: ${answer.body.toString('utf8').slice(0, 200)}`,
  );
  return (JSON.parse(answer.body.toString('utf8')) as { error: { code: string; message: string } }).error;
}

/** nginx's log lines for this path (`METHOD URI STATUS CACHE UPSTREAM`). */
function logged(origin: Nginx, uri: string): string[] {
  return origin.accessLog().filter((line) => line.split(' ')[1] === uri);
}

/** nginx logs a request just after answering it: its lines for this path once there are `count`. */
function loggedAtLeast(origin: Nginx, uri: string, count: number): Promise<string[]> {
  return waitFor(
    `nginx to log ${count} request(s) for ${uri}`,
    () => {
      const lines = logged(origin, uri);
      return lines.length >= count ? lines : undefined;
    },
    { intervalMs: 20 },
  );
}

/** Whether nginx answered this path from disk (its log names no upstream) every time it was asked. */
async function fromDisk(origin: Nginx, uri: string): Promise<boolean> {
  const lines = await loggedAtLeast(origin, uri, 1);
  return lines.every((line) => line.split(' ')[4] === '-');
}

/** The service's own access log lines for this path. */
function serviceRequests(server: TestApp, uri: string): number {
  return server.logs.filter((line) => line.includes('"msg":"request"') && line.includes(`"url":"${uri}`))
    .length;
}

/**
 * The same file through nginx and through the service: the same bytes and headers. A live
 * playlist may gain a segment between the two reads, so those are read again until they agree.
 */
async function assertServedAlike(server: TestApp, origin: Nginx, uri: string): Promise<Answer> {
  let pair: [Answer, Answer] | undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    pair = [await get(`${origin.url}${uri}`), await get(`${server.origin}${uri}`)];
    if (pair[0].body.equals(pair[1].body)) break;
  }
  const [viaNginx, viaService] = pair!;
  assert.equal(viaNginx.status, 200, uri);
  assert.equal(viaService.status, 200, uri);
  assert.ok(viaNginx.body.equals(viaService.body), `${uri}: the same bytes`);
  for (const name of SAME_HEADERS)
    assert.equal(viaNginx.headers.get(name), viaService.headers.get(name), `${uri}: ${name}`);
  assert.equal(viaNginx.headers.get('content-length'), String(viaNginx.body.length));
  assert.ok(viaNginx.headers.get('etag'), `${uri}: an ETag`);
  assert.ok(viaNginx.headers.get('last-modified'), `${uri}: Last-Modified`);
  return viaNginx;
}

test(
  'deploy/nginx.conf sends media from disk as the service would, and leaves the rest to it',
  {
    skip: NGINX_BIN === undefined ? 'nginx is not installed (apt-get install nginx)' : false,
    timeout: 180_000,
  },
  async (t) => {
    const server = await startMediaServer(t, { dialect: 'sqlite', reconnectWindowSeconds: 1 });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-origin-'));
    t.after(() => {
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const originPort = await freePort();
    const origin = await startOrigin({
      dir,
      listenPort: originPort,
      apiPort: server.port,
      dataDir: server.dataDir,
    });
    t.after(() => origin.stop());

    const account = await server.createAccount('Olga Origin');
    const created = await server.createStream(account, { title: 'From disk' });
    const push = pushTestPattern(`${created.ingest.rtmp_url}/${created.ingest.stream_key}`, 12, {
      size: '320x180',
    });
    t.after(() => {
      push.stop();
    });
    const live = await waitFor('the stream to go live with a thumbnail', async () => {
      const res = await server.request('GET', `/v1/streams/${created.id}`, { key: account.readKey });
      return res.body.status === 'live' && res.body.thumbnail_url ? res.body : undefined;
    });
    const media = `/media/streams/${created.id}`;

    await t.test('a live stream: its playlist, a segment and its thumbnail', async () => {
      const playlist = await assertServedAlike(server, origin, `${media}/index.m3u8`);
      assert.equal(playlist.headers.get('cache-control'), 'no-cache');
      const segmentName = /^(p\d+\/[^\n]+\.ts)$/m.exec(playlist.body.toString('utf8'))?.[1];
      assert.ok(segmentName, 'the playlist lists a segment');
      const segment = await assertServedAlike(server, origin, `${media}/${segmentName}`);
      assert.equal(segment.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(segment.body.readUInt8(0), 0x47, 'an MPEG-TS packet');
      const thumbnail = new URL(live.thumbnail_url as string);
      const picture = await assertServedAlike(server, origin, `${thumbnail.pathname}${thumbnail.search}`);
      assert.equal(picture.headers.get('cache-control'), 'public, max-age=10');

      // Validators and ranges, from nginx itself.
      const etag = segment.headers.get('etag')!;
      const unchanged = await get(`${origin.url}${media}/${segmentName}`, { 'If-None-Match': etag });
      assert.equal(unchanged.status, 304);
      assert.equal(unchanged.body.length, 0);
      const part = await get(`${origin.url}${media}/${segmentName}`, { Range: 'bytes=188-375' });
      assert.equal(part.status, 206);
      assert.equal(part.headers.get('content-range'), `bytes 188-375/${segment.body.length}`);
      assert.ok(part.body.equals(segment.body.subarray(188, 376)));
      const head = await get(`${origin.url}${media}/${segmentName}`, {}, 'HEAD');
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('content-length'), String(segment.body.length));

      // Answered from disk: nginx asked no upstream, the service saw none of these requests.
      for (const uri of [`${media}/index.m3u8`, `${media}/${segmentName}`, thumbnail.pathname])
        assert.ok(await fromDisk(origin, uri), `${uri} from disk`);
      assert.equal(serviceRequests(server, `${media}/${segmentName}`), 1, 'only the direct read');
    });

    await t.test('what nginx cannot answer from disk, the service answers in its envelope', async () => {
      const missing = await get(`${origin.url}${media}/p0/seg99999.ts`);
      assert.equal(missing.status, 404);
      assert.equal(envelope(missing).code, 'resource_not_found');

      const playlist = (await get(`${origin.url}${media}/index.m3u8`)).body.toString('utf8');
      const segmentName = /^(p\d+\/[^\n]+\.ts)$/m.exec(playlist)![1]!;
      const size = fs.statSync(path.join(server.dataDir, media, segmentName)).size;
      const pastEnd = await get(`${origin.url}${media}/${segmentName}`, { Range: `bytes=${size + 10}-` });
      assert.equal(pastEnd.status, 416);
      assert.equal(envelope(pastEnd).code, 'range_not_satisfiable');
      assert.equal(pastEnd.headers.get('content-range'), `bytes */${size}`);

      const posted = await get(`${origin.url}${media}/${segmentName}`, {}, 'POST');
      assert.ok(posted.status >= 400 && posted.status < 500, `POST: ${posted.status}`);
      assert.ok(envelope(posted).code);

      // Names the service would not serve are not files nginx looks for; nothing outside the
      // media folders is reachable.
      fs.writeFileSync(path.join(server.dataDir, 'media', 'streams', created.id, 'notes.txt'), 'private');
      for (const uri of [
        `${media}/notes.txt`,
        `${media}/%2e%2e/%2e%2e/%2e%2e/tributary.db`,
        `/media/streams/..%2f..%2f${created.id}/index.m3u8`,
        `/media/videos/${created.id}/index.m3u8`,
        '/media/streams/str_none/index.m3u8',
      ]) {
        const refused = await get(`${origin.url}${uri}`);
        assert.equal(refused.status, 404, uri);
        // No such media file, or (a path nginx resolved outside /media/) no such route.
        assert.match(envelope(refused).code, /^(resource|route)_not_found$/, uri);
      }

      // The API is untouched by all this.
      const api = await fetch(`${origin.url}/v1/streams/${created.id}`, {
        headers: { Authorization: `Bearer ${account.readKey}` },
      });
      assert.equal(api.status, 200);
      assert.equal(((await api.json()) as { id: string }).id, created.id);
    });

    await t.test('an edge in front of the origin keeps what nginx sends from disk', async () => {
      const edgeDir = path.join(dir, 'edge');
      fs.mkdirSync(edgeDir);
      // The edge's workers run as nobody when the tests run as root: they must reach its folder.
      fs.chmodSync(dir, 0o755);
      const edge = await startEdge({ dir: edgeDir, listenPort: await freePort(), originPort });
      t.after(() => edge.stop());
      const playlist = await get(`${edge.url}${media}/index.m3u8`);
      assert.equal(playlist.status, 200, playlist.body.toString('utf8'));
      const segmentName = /^(p\d+\/[^\n]+\.ts)$/m.exec(playlist.body.toString('utf8'))![1]!;
      const uri = `${media}/${segmentName}`;
      // The live test's reads of this segment, logged long since.
      const before = logged(origin, uri).length;
      const first = await get(`${edge.url}${uri}`);
      const second = await get(`${edge.url}${uri}`);
      assert.equal(first.status, 200);
      assert.equal(first.headers.get('x-cache-status'), 'MISS');
      assert.equal(second.headers.get('x-cache-status'), 'HIT');
      assert.ok(second.body.equals(fs.readFileSync(path.join(server.dataDir, uri))));
      // Wait for the edge's request in the origin's log; a second one would have been made
      // during the second fetch, which has been answered already.
      const after = await loggedAtLeast(origin, uri, before + 1);
      assert.equal(after.length - before, 1, 'the edge asked the origin once');
      // A URL neither nginx can parse: refused in the envelope by the edge and by the origin.
      for (const base of [edge.url, origin.url]) {
        const malformed = await get(`${base}/media/streams/%zz/index.m3u8`);
        assert.equal(malformed.status, 400, base);
        assert.equal(envelope(malformed, base).code, 'malformed_request');
      }
    });

    await t.test('random media paths: never a 5xx, always a file or the envelope', async () => {
      const pieces = [
        created.id,
        'str_',
        'vid_',
        'p0',
        'p99999',
        'index.m3u8',
        'thumbnail.jpg',
        'seg00000.ts',
        '..',
        '.',
        '%2e%2e',
        '%2f',
        '%00',
        '%ff',
        '%',
        '//',
        'a'.repeat(300),
        'x.ts?x=%',
        'ü',
        ';',
        '*',
        '\\',
      ];
      let seed = 16_016;
      const random = (n: number) => {
        seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
        return seed % n;
      };
      for (let i = 0; i < 300; i++) {
        const parts = Array.from({ length: 1 + random(4) }, () => pieces[random(pieces.length)]!);
        const uri = `/media/${['streams', 'videos', 'x'][random(3)]}/${parts.join(['/', '', '_'][random(3)])}`;
        const answer = await get(`${origin.url}${encodeURI(uri).replace(/%25/g, '%')}`).catch(
          () => undefined,
        );
        if (answer === undefined) continue; // a URL fetch itself refuses to send
        assert.ok(answer.status < 500, `${uri}: ${answer.status}`);
        if (answer.status >= 400) assert.ok(envelope(answer, uri).code, uri);
      }
    });

    await t.test('a live playlist is limited per viewer and stream, in the envelope', async () => {
      // The tests' clients sit on loopback, which the rendered file trusts to name the viewer
      // (as edges are trusted in production): two viewers, one of them asking far too often.
      const client = new Client(origin.url);
      t.after(() => client.close());
      const fetchAs = async (viewer: string) => {
        const response = await client.request({
          path: `${media}/index.m3u8`,
          method: 'GET',
          headers: { 'X-Forwarded-For': viewer },
        });
        return { status: response.statusCode, headers: response.headers, body: await response.body.text() };
      };
      const statuses: number[] = [];
      let refusal: Awaited<ReturnType<typeof fetchAs>> | undefined;
      for (let i = 0; i < 90; i++) {
        const answer = await fetchAs('203.0.113.7');
        statuses.push(answer.status);
        if (answer.status === 429) refusal ??= answer;
      }
      const allowed = statuses.filter((status) => status === 200).length;
      // A burst of 60 beyond the steady two a second; the rest refused.
      assert.ok(allowed >= 61 && allowed <= 70, `${allowed} of 90 allowed`);
      assert.ok(refusal, 'a refusal');
      assert.equal(refusal.headers['retry-after'], '1');
      assert.equal(
        (JSON.parse(refusal.body) as { error: { code: string } }).error.code,
        'rate_limit_exceeded',
      );
      // Another viewer of the same stream is not affected.
      assert.equal((await fetchAs('203.0.113.8')).status, 200);
    });

    await t.test('the recording, once published: a finished playlist, segments and thumbnail', async () => {
      await waitFor(
        'the recording to be published',
        async () => ((await server.events('video.published')).length > 0 ? true : undefined),
        { timeoutMs: 60_000 },
      );
      const [published] = await server.events('video.published');
      const videoId = published!.data.id as string;
      const video = `/media/videos/${videoId}`;
      const playlist = await assertServedAlike(server, origin, `${video}/index.m3u8`);
      assert.equal(playlist.headers.get('cache-control'), 'public, max-age=86400');
      assert.match(playlist.body.toString('utf8'), /#EXT-X-ENDLIST/);
      const segmentName = /^(p\d+\/[^\n]+\.ts)$/m.exec(playlist.body.toString('utf8'))?.[1];
      assert.ok(segmentName, 'the recording lists a segment');
      const segment = await assertServedAlike(server, origin, `${video}/${segmentName}`);
      assert.equal(segment.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      const thumbnail = await assertServedAlike(server, origin, `${video}/thumbnail.jpg`);
      assert.equal(thumbnail.headers.get('cache-control'), 'public, max-age=86400');
      for (const uri of [`${video}/index.m3u8`, `${video}/${segmentName}`, `${video}/thumbnail.jpg`])
        assert.ok(await fromDisk(origin, uri), `${uri} from disk`);

      // The ended stream's playlist: the service knows it is finished (a day's caching); nginx
      // cannot read that from the file's name, so it keeps the live rule (docs/deploy.md).
      const ended = await get(`${origin.url}${media}/index.m3u8`, { 'X-Forwarded-For': '203.0.113.9' });
      assert.equal(ended.status, 200);
      assert.match(ended.body.toString('utf8'), /#EXT-X-ENDLIST/);
      assert.equal(ended.headers.get('cache-control'), 'no-cache');
    });
  },
);
