// The media and watch routes' edges: what a request may name, what a missing file answers,
// escaping on the page, assets from the project, no rate limit on media, and a service that
// runs without ffmpeg.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { DIALECTS } from '../helpers/databases.ts';
import { startMediaServer } from '../helpers/media-server.ts';

for (const dialect of DIALECTS) {
  describe(`media routes on ${dialect}`, () => {
    test('media URLs name only files inside a stream or video folder; the rest is a JSON 404', async (t) => {
      const server = await startMediaServer(t, { dialect });
      fs.writeFileSync(path.join(server.dataDir, 'secret.txt'), 'do not serve');
      const streamDir = path.join(server.dataDir, 'media', 'streams', 'str_abc');
      fs.mkdirSync(path.join(streamDir, 'p0'), { recursive: true });
      fs.writeFileSync(path.join(streamDir, 'p0', 'seg00000.ts'), 'segment');
      fs.writeFileSync(path.join(streamDir, 'p0', 'notes.txt'), 'not media');

      const ok = await fetch(`${server.origin}/media/streams/str_abc/p0/seg00000.ts`);
      assert.equal(ok.status, 200);
      assert.equal(await ok.text(), 'segment');
      for (const url of [
        '/media/streams/str_abc/p0/notes.txt',
        '/media/streams/str_abc/p0/seg00001.ts',
        '/media/streams/str_abc/%2e%2e%2f%2e%2e%2f%2e%2e%2fsecret.txt',
        '/media/streams/..%2f..%2fsecret.txt/index.m3u8',
        '/media/streams/vid_abc/index.m3u8',
        '/media/videos/str_abc/p0/seg00000.ts',
        '/media/videos/vid_missing/index.m3u8',
      ]) {
        const res = await fetch(`${server.origin}${url}`);
        assert.equal(res.status, 404, url);
        const body = (await res.json()) as any;
        assert.equal(body.error.code, 'resource_not_found', url);
      }
    });

    test('a player may fetch media as often as it needs: no per-IP limit on /media', async (t) => {
      const server = await startMediaServer(t, { dialect, rateLimitPerIp: 10 });
      const dir = path.join(server.dataDir, 'media', 'videos', 'vid_abc');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'index.m3u8'), '#EXTM3U\n#EXT-X-ENDLIST\n');
      for (let i = 0; i < 30; i++) {
        const res = await fetch(`${server.origin}/media/videos/vid_abc/index.m3u8`);
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('x-ratelimit-limit'), null);
        await res.arrayBuffer();
      }
      // The watch page itself is an ordinary anonymous request, limited per IP.
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await fetch(`${server.origin}/watch/vid_abc`)).status);
      assert.ok(statuses.includes(429));
    });

    test('the watch page escapes what creators typed and loads only the project own scripts', async (t) => {
      const server = await startMediaServer(t, { dialect });
      const account = await server.createAccount('Eve </script><script>alert(1)</script>');
      const stream = await server.createStream(account, {
        title: '<img src=x onerror=alert(1)>',
        description: '"quoted" & <b>bold</b>',
      });
      const page = await fetch(stream.stream_url);
      assert.equal(page.status, 200);
      assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
      const html = await page.text();
      assert.doesNotMatch(html, /<img src=x/);
      assert.doesNotMatch(html, /<script>alert/);
      assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
      assert.match(html, /&quot;quoted&quot; &amp; &lt;b&gt;bold&lt;\/b&gt;/);
      const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
      assert.deepEqual(scripts, [
        '/assets/app.js',
        '/assets/hls.min.js',
        '/assets/realtime.js',
        '/assets/subscribe.js',
        '/assets/watch.js',
        '/assets/chat.js',
      ]);
      assert.match(html, /Starting soon/);

      const hls = await fetch(`${server.origin}/assets/hls.min.js`);
      assert.equal(hls.status, 200);
      assert.equal(hls.headers.get('content-type'), 'text/javascript; charset=utf-8');
      const shipped = fs.readFileSync(path.join('node_modules', 'hls.js', 'dist', 'hls.min.js'), 'utf8');
      assert.equal(await hls.text(), shipped);
      assert.equal((await fetch(`${server.origin}/assets/watch.js`)).status, 200);
      assert.equal((await fetch(`${server.origin}/assets/other.js`)).status, 404);

      const info = await fetch(`${server.origin}/watch/${stream.id}/info`);
      const body = (await info.json()) as any;
      assert.equal(body.status, 'scheduled');
      assert.equal(body.playback_url, null);
      assert.equal(body.creator.name, 'Eve </script><script>alert(1)</script>');
    });

    test('unknown and unpublished ids have no watch page', async (t) => {
      const server = await startMediaServer(t, { dialect });
      const account = await server.createAccount();
      const draft = await server.services.videos.createDraft({
        creatorId: account.userId,
        title: 'Processing',
      });
      for (const id of ['str_nothing', 'vid_nothing', 'usr_x', draft.id]) {
        const page = await fetch(`${server.origin}/watch/${id}`);
        assert.equal(page.status, 404, id);
        assert.match(await page.text(), /Nothing to watch here/);
        const info = await fetch(`${server.origin}/watch/${id}/info`);
        assert.equal(info.status, 404);
        assert.equal(((await info.json()) as any).error.code, 'resource_not_found');
      }
    });

    test('without ffmpeg the service starts, says why media is off, and the API works', async (t) => {
      const server = await startMediaServer(t, { dialect, ffmpegPath: '/nonexistent/ffmpeg' });
      const ingest = server.ingest;
      if (ingest.enabled) assert.fail('ingest should be off without ffmpeg');
      assert.match(ingest.reason, /ffmpeg was not found at FFMPEG_PATH="\/nonexistent\/ffmpeg"/);
      const warning = server.logs.map((line) => JSON.parse(line)).find((entry) => entry.level === 40);
      assert.equal(warning?.msg, 'live ingest and media processing are off');
      const account = await server.createAccount();
      const stream = await server.createStream(account);
      assert.equal(stream.status, 'scheduled');
      assert.equal((await fetch(stream.stream_url)).status, 200);
    });
  });
}
