// Watch pages in a real browser: headless Chromium opens a live stream's stream_url while
// ffmpeg publishes to it, plays it with the project's hls.js, and is counted as a viewer through
// the page's presence signals; after the stream ends it opens the recording's video_url, plays
// that too, and counts one view (once, however long it plays or how often it reloads).
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { mediaDialects } from '../helpers/databases.ts';
import { launchBrowser, waitForText, waitUntilPlaying } from '../helpers/media-browser.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { pushTestPattern, waitFor } from '../helpers/media-tools.ts';

for (const { dialect, test } of mediaDialects(null)) {
  describe(`watch pages in Chromium on ${dialect}`, () => {
    test('stream_url plays live and counts its viewers; video_url plays the recording', async (t) => {
      // Pages signal presence every 5 s; an 8 s window tells a closed one quickly.
      const server = await startMediaServer(t, { dialect, reconnectWindowSeconds: 2, viewerWindowMs: 8000 });
      const browser = await launchBrowser(t);
      const account = await server.createAccount('Ada <Streams>');
      const created = await server.createStream(account, { title: 'Live & loud', privacy: 'private' });
      const get = async () =>
        (await server.request('GET', `/v1/streams/${created.id}`, { key: account.readKey })).body;

      // Pushed until the viewers have been counted, however long a loaded machine takes; the
      // 120 s of `-t` only bound a test that fails before it ends the push.
      const push = pushTestPattern(`${created.ingest.rtmp_url}/${created.ingest.stream_key}`, 120);
      t.after(() => {
        push.stop();
      });
      await waitFor('live', async () => (await get()).status === 'live');

      // Private is unlisted: the page needs no key, only the link.
      const first = await browser.newPage();
      const pageErrors: string[] = [];
      first.on('pageerror', (error) => pageErrors.push(error.message));
      const response = await first.goto(created.stream_url);
      assert.ok(response);
      assert.equal(response.status(), 200);
      assert.match(response.headers()['content-security-policy'] ?? '', /script-src 'self'/);
      assert.equal(await first.textContent('#title'), 'Live & loud');
      // The link's accessible name is the creator's name (the avatar's initial beside it is hidden).
      assert.equal(
        await first.getByRole('link', { name: 'Ada <Streams>', exact: true }).getAttribute('id'),
        'creator',
      );
      assert.equal(await first.textContent('#status'), 'Live');
      await waitUntilPlaying(first);

      // Each browser playing is one viewer (tabs of one browser share its cookie: one viewer);
      // the count reaches the API and the page.
      await waitFor('one viewer', async () => (await get()).viewer_count === 1, { timeoutMs: 10_000 });
      const otherBrowser = await launchBrowser(t);
      const second = await otherBrowser.newPage();
      await second.goto(created.stream_url);
      await waitUntilPlaying(second);
      const watched = await waitFor(
        'two viewers',
        async () => {
          const stream = await get();
          return stream.viewer_count === 2 ? stream : undefined;
        },
        { timeoutMs: 10_000 },
      );
      assert.equal(watched.peak_viewer_count, 2);
      await waitForText(first, '#viewers', '2 watching');

      // A closed player stops counting within the viewer window; the peak stays.
      await second.close();
      const afterLeave = await waitFor(
        'one viewer again',
        async () => {
          const stream = await get();
          return stream.viewer_count === 1 ? stream : undefined;
        },
        { timeoutMs: 20_000 },
      );
      assert.equal(afterLeave.peak_viewer_count, 2);

      // The stream ends and its recording is published; its page plays the video.
      push.end();
      await push.exited;
      await waitFor('the stream to end', async () => (await get()).status === 'ended', { timeoutMs: 15_000 });
      const published = await waitFor('video.published', async () => {
        const events = await server.events('video.published');
        return events[0];
      });
      const videoPage = await browser.newPage();
      const videoResponse = await videoPage.goto(published.data.video_url);
      assert.equal(videoResponse?.status(), 200);
      assert.equal(await videoPage.textContent('#title'), 'Live & loud');
      await waitUntilPlaying(videoPage, 2);
      const video = async () =>
        (await server.request('GET', `/v1/videos/${published.data.id}`, { key: account.readKey })).body;
      await waitFor('one view', async () => (await video()).view_count === 1, { timeoutMs: 10_000 });
      // Reloaded and played again in the same browser: the same viewer, the same day.
      await videoPage.reload();
      await waitUntilPlaying(videoPage, 2);
      await waitFor(
        'a presence after the reload',
        async () =>
          await videoPage.evaluate(() =>
            performance.getEntriesByType('resource').some((entry) => entry.name.includes('/presence')),
          ),
      );
      assert.equal((await video()).view_count, 1);
      assert.deepEqual(pageErrors, []);
    });
  });
}
