// The media origin as players and caches use it (issue 16): validators and 304s, byte ranges
// (206, 416) from memory and from disk, HEAD, live playlists that change under the cache,
// the cache's memory bound, and many requests for one file at once. Real server, real fetch,
// real files.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { writeFileAtomic } from '../../src/hls/hls-playlist.ts';
import { MediaCache } from '../../src/media/media-cache.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { startMediaServer, type MediaTestServer } from '../helpers/media-server.ts';

const STREAM = 'str_origin';

function livePlaylist(segments: number): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:6', '#EXT-X-TARGETDURATION:2', '#EXT-X-PLAYLIST-TYPE:EVENT'];
  for (let i = 0; i < segments; i++)
    lines.push('#EXTINF:2.000000,', `p0/seg${String(i).padStart(5, '0')}.ts`);
  return `${lines.join('\n')}\n`;
}

interface Fixture {
  server: MediaTestServer;
  dir: string;
  url: (name: string) => string;
  /** A 200 KB segment, served from memory. */
  segment: Buffer;
  /** A 9 MB segment, above what the cache keeps: streamed from disk. */
  large: Buffer;
}

async function fixture(t: TestContext, dialect: (typeof DIALECTS)[number], cacheBytes?: number) {
  const server = await startMediaServer(t, {
    dialect,
    ...(cacheBytes === undefined ? {} : { mediaCacheBytes: cacheBytes }),
  });
  const dir = path.join(server.dataDir, 'media', 'streams', STREAM);
  fs.mkdirSync(path.join(dir, 'p0'), { recursive: true });
  const segment = randomBytes(200_000);
  const large = randomBytes(9 * 1024 * 1024);
  fs.writeFileSync(path.join(dir, 'p0', 'seg00000.ts'), segment);
  fs.writeFileSync(path.join(dir, 'p0', 'seg00001.ts'), large);
  const url = (name: string) => `${server.origin}/media/streams/${STREAM}/${name}`;
  return { server, dir, url, segment, large } satisfies Fixture;
}

async function bytesOf(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

for (const dialect of DIALECTS) {
  describe(`the media origin on ${dialect}`, () => {
    test('a segment carries a strong ETag and Last-Modified, and a revalidation is a 304', async (t) => {
      const { url, segment } = await fixture(t, dialect);
      const first = await fetch(url('p0/seg00000.ts'));
      assert.equal(first.status, 200);
      assert.deepEqual(await bytesOf(first), segment);
      assert.equal(first.headers.get('content-length'), String(segment.length));
      assert.equal(first.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(first.headers.get('accept-ranges'), 'bytes');
      const etag = first.headers.get('etag');
      const lastModified = first.headers.get('last-modified');
      assert.match(etag ?? '', /^"[^"]+"$/);
      assert.ok(lastModified);

      for (const headers of [
        { 'if-none-match': etag! },
        { 'if-none-match': `"other", W/${etag}` },
        { 'if-none-match': '*' },
        { 'if-modified-since': lastModified },
        { 'if-modified-since': new Date(Date.now() + 60_000).toUTCString() },
      ]) {
        const res = await fetch(url('p0/seg00000.ts'), { headers });
        assert.equal(res.status, 304, JSON.stringify(headers));
        assert.equal(res.headers.get('etag'), etag);
        assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
        assert.equal((await bytesOf(res)).length, 0);
      }
      for (const headers of [
        { 'if-none-match': '"other"' },
        // If-None-Match decides when both are sent (RFC 9110, 13.2.2).
        { 'if-none-match': '"other"', 'if-modified-since': lastModified },
        { 'if-modified-since': 'yesterday, maybe' },
        { 'if-modified-since': new Date(Date.parse(lastModified) - 60_000).toUTCString() },
      ]) {
        const res = await fetch(url('p0/seg00000.ts'), { headers });
        assert.equal(res.status, 200, JSON.stringify(headers));
        assert.deepEqual(await bytesOf(res), segment);
      }
    });

    test('byte ranges answer 206 from memory and from disk, 416 past the end, the whole file otherwise', async (t) => {
      const { url, segment, large } = await fixture(t, dialect);
      for (const [name, body] of [
        ['p0/seg00000.ts', segment],
        ['p0/seg00001.ts', large],
      ] as const) {
        const size = body.length;
        const etag = (await fetch(url(name), { method: 'HEAD' })).headers.get('etag')!;
        for (const [range, start, end] of [
          ['bytes=0-99', 0, 99],
          ['bytes=100-', 100, size - 1],
          ['bytes=-50', size - 50, size - 1],
          [`bytes=10-${size * 10}`, 10, size - 1],
          [`bytes=-${size + 5}`, 0, size - 1],
          [`BYTES = ${size - 1}-${size - 1}`, size - 1, size - 1],
        ] as const) {
          const res = await fetch(url(name), { headers: { range } });
          assert.equal(res.status, 206, `${name} ${range}`);
          assert.equal(res.headers.get('content-range'), `bytes ${start}-${end}/${size}`);
          assert.equal(res.headers.get('content-length'), String(end - start + 1));
          assert.deepEqual(await bytesOf(res), body.subarray(start, end + 1), `${name} ${range}`);
        }
        for (const range of [
          `bytes=${size}-`,
          `bytes=${size}-${size + 10}`,
          'bytes=-0',
          'bytes=99999999999999999999-',
        ]) {
          const res = await fetch(url(name), { headers: { range } });
          assert.equal(res.status, 416, `${name} ${range}`);
          assert.equal(res.headers.get('content-range'), `bytes */${size}`);
          const error = (await res.json()) as { error: { code: string } };
          assert.equal(error.error.code, 'range_not_satisfiable');
        }
        // Malformed, other units, several ranges, or a stale If-Range: the whole file, 200.
        for (const headers of [
          { range: 'bytes=5-2' },
          { range: 'bytes=abc' },
          { range: 'items=0-1' },
          { range: 'bytes=0-1,5-6' },
          { range: 'bytes=' },
          { range: 'bytes=0-1', 'if-range': '"stale"' },
          { range: 'bytes=0-1', 'if-range': `W/${etag}` },
          { range: 'bytes=0-1', 'if-range': 'not a date' },
        ]) {
          const res = await fetch(url(name), { headers });
          assert.equal(res.status, 200, `${name} ${JSON.stringify(headers)}`);
          assert.equal(res.headers.get('content-length'), String(size));
          assert.equal((await bytesOf(res)).length, size);
        }
        const current = await fetch(url(name), { headers: { range: 'bytes=0-1', 'if-range': etag } });
        assert.equal(current.status, 206);
        assert.deepEqual(await bytesOf(current), body.subarray(0, 2));
        // A validator that matches wins over a range: nothing to send at all.
        const unchanged = await fetch(url(name), {
          headers: { range: `bytes=${size}-`, 'if-none-match': etag },
        });
        assert.equal(unchanged.status, 304);
        await unchanged.arrayBuffer();
      }
    });

    test('HEAD answers the headers of a GET without a body, and ignores Range', async (t) => {
      const { url, segment, large } = await fixture(t, dialect);
      for (const [name, body] of [
        ['p0/seg00000.ts', segment],
        ['p0/seg00001.ts', large],
      ] as const) {
        const get = await fetch(url(name));
        await get.arrayBuffer();
        for (const headers of [{}, { range: 'bytes=0-9' }]) {
          const head = await fetch(url(name), { method: 'HEAD', headers });
          assert.equal(head.status, 200);
          assert.equal(head.headers.get('content-length'), String(body.length));
          assert.equal(head.headers.get('etag'), get.headers.get('etag'));
          assert.equal(head.headers.get('content-type'), 'video/mp2t');
          assert.equal((await bytesOf(head)).length, 0);
        }
      }
      const missing = await fetch(url('p0/seg00009.ts'), { method: 'HEAD' });
      assert.equal(missing.status, 404);
    });

    test('a live playlist is never served older than the file: its ETag follows every change', async (t) => {
      const { url, dir } = await fixture(t, dialect);
      const file = path.join(dir, 'index.m3u8');
      const seen = new Set<string>();
      let previousTag: string | undefined;
      for (let segments = 1; segments <= 6; segments++) {
        const text = livePlaylist(segments);
        // Alternately replaced by a rename, as the ingest writes it, and rewritten in place.
        if (segments % 2 === 0) await writeFileAtomic(file, text);
        else fs.writeFileSync(file, text);
        // Asked twice: the second answer may come from memory, and must be the same.
        for (let ask = 0; ask < 2; ask++) {
          const res = await fetch(url('index.m3u8'));
          assert.equal(res.status, 200);
          assert.equal(res.headers.get('cache-control'), 'no-cache');
          assert.equal(await res.text(), text);
          const etag = res.headers.get('etag')!;
          if (ask === 0) {
            assert.ok(!seen.has(etag), 'a new playlist has a new ETag');
            seen.add(etag);
            if (previousTag !== undefined) {
              const stale = await fetch(url('index.m3u8'), { headers: { 'if-none-match': previousTag } });
              assert.equal(stale.status, 200);
              assert.equal(await stale.text(), text);
            }
          }
          const fresh = await fetch(url('index.m3u8'), { headers: { 'if-none-match': etag } });
          assert.equal(fresh.status, 304);
          await fresh.arrayBuffer();
          previousTag = etag;
        }
      }
      // The same size, rewritten in place at once: different bytes must still show.
      const before = livePlaylist(6);
      const after = before.replace('seg00005', 'seg00009');
      assert.equal(after.length, before.length);
      fs.writeFileSync(file, after);
      const res = await fetch(url('index.m3u8'));
      assert.equal(await res.text(), after);
      assert.ok(!seen.has(res.headers.get('etag')!));
    });

    test('any Range or conditional header gets 200, 206, 304 or 416 with the right bytes, never a 500', async (t) => {
      const { url, segment } = await fixture(t, dialect);
      const size = segment.length;
      const etag = (await fetch(url('p0/seg00000.ts'), { method: 'HEAD' })).headers.get('etag')!;
      // A fixed seed: a failure names the headers, and the same run repeats it.
      let seed = 16;
      const random = (n: number) => {
        // mulberry32
        seed = (seed + 0x6d2b79f5) | 0;
        let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
        x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
        return Math.floor((((x ^ (x >>> 14)) >>> 0) / 2 ** 32) * n);
      };
      const pieces = [
        'bytes',
        '=',
        '-',
        ',',
        ' ',
        '0',
        '1',
        '9',
        String(size - 1),
        String(size),
        '99999999999999999999',
        'x',
        '"',
        'W/',
        etag,
        '*',
        ';',
        'GMT',
        'Mon, 01 Jan 2024 00:00:00 GMT',
        '\t',
        '+',
        'e5',
        '0x10',
        '.',
      ];
      const garbage = () =>
        Array.from({ length: 1 + random(8) }, () => pieces[random(pieces.length)]).join('');
      const pick = <T>(choices: readonly T[]): T => choices[random(choices.length)]!;
      const position = () =>
        pick([
          '',
          '0',
          '1',
          String(random(size)),
          String(size - 1),
          String(size),
          '99999999999999999999',
          garbage(),
        ]);
      const lastModified = new Date(Date.now() - 60_000).toUTCString();
      // Each header is left out, well-formed (valid or not for this file), or garbage.
      const values: Record<string, () => string> = {
        range: () =>
          pick([
            `bytes=${position()}-${position()}`,
            `bytes=-${position()}`,
            `bytes=${position()}-${position()},${position()}-`,
            garbage(),
          ]),
        'if-range': () => pick([etag, `W/${etag}`, '"stale"', new Date().toUTCString(), garbage()]),
        'if-none-match': () => pick([etag, `"stale", ${etag}`, '"stale"', '*', garbage()]),
        'if-modified-since': () =>
          pick([lastModified, new Date(Date.now() + 60_000).toUTCString(), garbage()]),
      };
      const statuses = new Set<number>();
      for (let i = 0; i < 400; i++) {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(values)) if (random(3) > 0) headers[name] = value();
        const res = await fetch(url('p0/seg00000.ts'), { headers });
        const body = await bytesOf(res);
        const where = JSON.stringify(headers);
        statuses.add(res.status);
        if (res.status === 200) {
          assert.deepEqual(body, segment, where);
        } else if (res.status === 206) {
          const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.headers.get('content-range') ?? '');
          assert.ok(match, where);
          const [start, end] = [Number(match[1]), Number(match[2])];
          assert.equal(Number(match[3]), size, where);
          assert.deepEqual(body, segment.subarray(start, end + 1), where);
        } else if (res.status === 304) {
          assert.equal(body.length, 0, where);
        } else {
          assert.equal(res.status, 416, where);
          assert.equal(res.headers.get('content-range'), `bytes */${size}`, where);
          assert.equal(
            (JSON.parse(body.toString()) as { error: { code: string } }).error.code,
            'range_not_satisfiable',
          );
        }
      }
      // The headers were varied enough to reach every kind of answer.
      assert.deepEqual([...statuses].sort(), [200, 206, 304, 416]);
    });

    test('many players asking for one file at once all get it whole', async (t) => {
      const { url, segment, large, dir } = await fixture(t, dialect);
      fs.writeFileSync(path.join(dir, 'index.m3u8'), livePlaylist(3));
      const answers = await Promise.all(
        Array.from({ length: 45 }, async (_, i) => {
          const name = ['p0/seg00000.ts', 'p0/seg00001.ts', 'index.m3u8'][i % 3]!;
          const res = await fetch(url(name));
          return { name, status: res.status, body: await bytesOf(res) };
        }),
      );
      for (const { name, status, body } of answers) {
        assert.equal(status, 200, name);
        if (name === 'p0/seg00000.ts') assert.deepEqual(body, segment);
        else if (name === 'p0/seg00001.ts') assert.ok(body.equals(large));
        else assert.equal(body.toString(), livePlaylist(3));
      }
    });

    test('with a cache far smaller than the media, every file is still served whole', async (t) => {
      const { url, dir } = await fixture(t, dialect, 300_000);
      const files = Array.from({ length: 6 }, (_, i) => {
        const body = randomBytes(120_000);
        const name = `p0/seg1000${i}.ts`;
        fs.writeFileSync(path.join(dir, name), body);
        return { name, body };
      });
      for (let round = 0; round < 2; round++) {
        for (const { name, body } of files) {
          const res = await fetch(url(name));
          assert.equal(res.status, 200);
          assert.deepEqual(await bytesOf(res), body);
        }
      }
    });
  });
}

describe('the media cache', () => {
  test('holds at most its byte bound, evicting the least recently used', async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-media-cache-'));
    t.after(() => {
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const cache = new MediaCache(1_000_000);
    const names = Array.from({ length: 12 }, (_, i) => {
      const file = path.join(dir, `seg${i}.ts`);
      fs.writeFileSync(file, randomBytes(300_000));
      return file;
    });
    const first = await cache.open(names[0]!);
    const bodies: (Buffer | undefined)[] = [];
    for (const file of names) {
      const opened = await cache.open(file);
      bodies.push(opened?.body);
      assert.equal(opened?.body?.length, 300_000);
      assert.ok(cache.size <= 1_000_000, `${cache.size} bytes held`);
      // The first file is used after every other, so it stays while the rest are evicted.
      assert.equal((await cache.open(names[0]!))?.body, first?.body);
    }
    assert.equal(cache.size, 900_000);
    // The latest file is still held; an early one was evicted and is read anew (same bytes).
    assert.equal((await cache.open(names[11]!))?.body, bodies[11]);
    const again = await cache.open(names[1]!);
    assert.notEqual(again?.body, bodies[1]);
    assert.deepEqual(again?.body, fs.readFileSync(names[1]!));
  });

  test('keeps nothing when its bound is 0, and nothing larger than the bound', async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-media-cache-'));
    t.after(() => {
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const file = path.join(dir, 'seg.ts');
    fs.writeFileSync(file, randomBytes(50_000));
    const none = new MediaCache(0);
    const small = new MediaCache(10_000);
    for (const cache of [none, small]) {
      // Too large for its memory: streamed from disk, read afresh each time.
      const a = await cache.open(file);
      const b = await cache.open(file);
      assert.ok(a !== undefined && b !== undefined);
      assert.equal(a.body, undefined);
      assert.equal(a.size, 50_000);
      assert.ok(a.handle !== undefined && b.handle !== undefined);
      await a.handle.close();
      await b.handle.close();
      assert.equal(cache.size, 0);
    }
  });

  test('bodies still being sent count against its memory: past twice the bound, files are streamed instead', async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-media-cache-'));
    t.after(() => {
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const cache = new MediaCache(1_000_000);
    const names = Array.from({ length: 10 }, (_, i) => {
      const file = path.join(dir, `seg${i}.ts`);
      fs.writeFileSync(file, randomBytes(300_000));
      return file;
    });
    // Slow clients each hold a different file: none of their responses ends.
    const releases: (() => void)[] = [];
    const served: ('memory' | 'disk')[] = [];
    for (const file of names) {
      const media = await cache.open(file);
      assert.ok(media);
      if (media.body === undefined) {
        served.push('disk');
        await media.handle?.close();
        continue;
      }
      served.push('memory');
      releases.push(cache.lend(media));
      assert.ok(cache.size + cache.lentBytes <= 2_000_000, `${cache.size + cache.lentBytes} bytes held`);
    }
    // Three kept plus three evicted but still being sent fill twice the bound; the rest stream.
    assert.deepEqual(served, [...Array<string>(6).fill('memory'), ...Array<string>(4).fill('disk')]);
    assert.equal(cache.lentBytes, 900_000);
    // Once those responses end their bytes are free, and files are answered from memory again.
    for (const release of releases) release();
    assert.equal(cache.lentBytes, 0);
    assert.ok((await cache.open(names[9]!))?.body);
  });

  test('a playlist is read whole even when its memory is full: the route parses it', async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-media-cache-'));
    t.after(() => {
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const file = path.join(dir, 'index.m3u8');
    fs.writeFileSync(file, '#EXTM3U\n#EXT-X-TARGETDURATION:2\n');
    const media = await new MediaCache(0).open(file);
    assert.equal(media?.body?.toString(), '#EXTM3U\n#EXT-X-TARGETDURATION:2\n');
  });

  test('a playlist changed within the last second is read anew each time; a settled one is kept until it changes', async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-media-cache-'));
    t.after(() => {
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const cache = new MediaCache();
    const file = path.join(dir, 'index.m3u8');
    const before = livePlaylist(3);
    fs.writeFileSync(file, before);
    // Just written: its mtime could be shared with a rewrite to come (coarse timestamps).
    const a = await cache.open(file);
    const b = await cache.open(file);
    assert.equal(b?.body?.toString(), before);
    assert.notEqual(a?.body, b.body);
    assert.equal(cache.size, 0);

    const past = new Date(Date.now() - 10_000);
    fs.utimesSync(file, past, past);
    const c = await cache.open(file);
    assert.equal((await cache.open(file))?.body, c?.body);
    assert.equal(cache.size, before.length);

    // Rewritten in place, same size, and its mtime put back as a coarse clock would leave it:
    // the change of ctime still shows, and the new content is served with a new ETag.
    const after = before.replace('seg00002', 'seg00009');
    fs.writeFileSync(file, after);
    fs.utimesSync(file, past, past);
    const d = await cache.open(file);
    assert.equal(d?.body?.toString(), after);
    assert.notEqual(d.etag, c?.etag);
  });
});
