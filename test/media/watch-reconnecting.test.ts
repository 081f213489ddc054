// While a live stream's publisher is gone and ingest waits for it to come back (the reconnect
// window), the watch page says so instead of showing the frozen last frame as live: its info
// has `reconnecting: true`, and in Chromium the badge reads "Reconnecting" and a notice covers
// the player. When the encoder reconnects (OBS-style, with the same channel key) the same
// stream continues and the notice goes.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe } from 'node:test';
import { mediaDialects } from '../helpers/databases.ts';
import { launchBrowser, waitForText, waitUntilPlaying } from '../helpers/media-browser.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { pushTestPattern, waitFor } from '../helpers/media-tools.ts';

/** TEST_SCREENSHOT_DIR=dir keeps a picture of the page while it reconnects, for a person to look at. */
const SCREENSHOTS = process.env.TEST_SCREENSHOT_DIR;

for (const { dialect, test } of mediaDialects(
  'says reconnecting when the publisher drops, and live again when it is back',
)) {
  describe(`the watch page while a publisher reconnects, on ${dialect}`, () => {
    test('says reconnecting when the publisher drops, and live again when it is back', async (t) => {
      // A long window: the test, not the timer, decides when the publisher comes back.
      const server = await startMediaServer(t, { dialect, reconnectWindowSeconds: 120 });
      const browser = await launchBrowser(t);
      const account = await server.createAccount('Rita Reconnects');
      const settings = (await server.request('GET', '/v1/ingest', { key: account.writeKey })).body;
      const url = `${settings.rtmp_url}/${settings.stream_key}`;
      const first = pushTestPattern(url, 120, { size: '640x360' });
      t.after(() => {
        first.stop();
      });
      const stream = await waitFor('the stream to go live', async () => {
        const res = await server.request('GET', `/v1/streams?creator_id=${account.userId}`, {
          key: account.readKey,
        });
        return res.body.data.find((s: { status: string }) => s.status === 'live');
      });
      const info = async () => (await server.request('GET', `/watch/${stream.id}/info`)).body;
      assert.equal((await info()).reconnecting, false);

      const page = await browser.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto(stream.stream_url);
      await waitUntilPlaying(page);
      assert.equal(await page.textContent('#status'), 'Live');
      assert.equal(await page.isVisible('#notice'), false);

      // The encoder drops (its process dies, as a lost network would look).
      first.stop();
      await waitFor('the info to say reconnecting', async () => (await info()).reconnecting === true);
      const during = await info();
      assert.equal(during.status, 'live', 'the stream is still live inside the window');
      // The page polls its info every 5 s.
      await waitForText(page, '#status', 'Reconnecting', 15_000);
      assert.equal(await page.isVisible('#notice'), true);
      assert.match((await page.textContent('#notice')) ?? '', /lost their connection/);
      assert.match((await page.getAttribute('.player', 'class')) ?? '', /\breconnecting\b/);
      if (SCREENSHOTS !== undefined) {
        await page.screenshot({ path: path.join(SCREENSHOTS, `watch-reconnecting-${dialect}.png`) });
      }
      // A page opened now shows it from the start, on a phone's width too.
      const late = await browser.newPage();
      await late.setViewportSize({ width: 390, height: 844 });
      await late.goto(stream.stream_url);
      assert.equal(await late.textContent('#status'), 'Reconnecting');
      assert.equal(await late.isVisible('#notice'), true);
      if (SCREENSHOTS !== undefined) {
        await late.screenshot({ path: path.join(SCREENSHOTS, `watch-reconnecting-390-${dialect}.png`) });
      }
      await late.close();

      // The encoder reconnects with the same key: the same stream continues.
      const second = pushTestPattern(url, 120, { size: '640x360' });
      t.after(() => {
        second.stop();
      });
      await waitFor(
        'the info to stop saying reconnecting',
        async () => (await info()).reconnecting === false,
      );
      await waitForText(page, '#status', 'Live', 15_000);
      assert.equal(await page.isVisible('#notice'), false);
      assert.doesNotMatch((await page.getAttribute('.player', 'class')) ?? '', /\breconnecting\b/);
      const streams = await server.request('GET', `/v1/streams?creator_id=${account.userId}`, {
        key: account.readKey,
      });
      assert.deepEqual(
        streams.body.data.map((s: { id: string }) => s.id),
        [stream.id],
        'one stream, continued',
      );
      assert.equal((await server.events('stream.started')).length, 1);
      assert.deepEqual(pageErrors, []);
      if (SCREENSHOTS !== undefined) {
        await page.screenshot({ path: path.join(SCREENSHOTS, `watch-back-live-${dialect}.png`) });
      }
      second.stop();
    });
  });
}
