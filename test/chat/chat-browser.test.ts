// The chat beside a live stream in headless Chromium: a viewer and a moderator in browsers, the
// creator and a second viewer on sockets, all chatting; links made safe and markup shown as text;
// the moderator deletes a message (gone from the viewer's page) and times the viewer out (told,
// and the form disabled). Passes axe; screenshots at 390 and 1440 px (TEST_SCREENSHOT_DIR).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/media-browser.ts';
import { screenshotBothWidths } from '../helpers/web-browser.ts';
import { ChatClient, sessionCookie } from './chat-client.ts';

test(
  'two viewers, a moderator and the creator chat beside a live stream',
  { timeout: 180_000 },
  async (t) => {
    const app = await startTestApp(t, { dialect: 'sqlite', clock: { now: () => Date.now() } });
    const creator = await app.createAccount('Cora Creator');
    const vic = await app.createAccount('Vic Viewer');
    const moe = await app.createAccount('Moe Moderator');
    const ola = await app.createAccount('Ola Other');
    const stream = await app.createStream(creator, { title: 'Evening jam' });
    // Live (without an encoder: this test is about the chat beside the player).
    await app.services.database.db
      .updateTable('streams')
      .set({ status: 'live', started_at: Date.now() })
      .where('id', '=', stream.id)
      .execute();
    await app.services.chat.addModerator(creator.userId, moe.userId);
    const url = `${app.origin}/watch/${stream.id}`;

    const browserOf = async (userId: string) => {
      const context = await launchBrowser(t);
      const { token } = await app.services.sessions.start(userId);
      await context.addCookies([{ name: 'tributary_session', value: token, url: app.origin }]);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(url);
      return { page, errors };
    };
    const viewer = await browserOf(vic.userId);
    const moderator = await browserOf(moe.userId);
    const host = await ChatClient.connect(app.origin, stream.id, {
      cookie: await sessionCookie(app.services.sessions, creator.userId),
    });
    const other = await ChatClient.connect(app.origin, stream.id, {
      cookie: await sessionCookie(app.services.sessions, ola.userId),
      forwardedFor: '10.0.0.9',
    });
    t.after(() => {
      host.close();
      other.close();
    });

    const items = viewer.page.locator('#chat-messages li');
    assert.equal((await host.post('Welcome to the jam!')).type, 'posted');
    await items.first().waitFor();
    // The viewer types in the page.
    await viewer.page.fill('#chat-input', 'Hi all <img src=x onerror=alert(1)> see https://example.com/set.');
    await viewer.page.press('#chat-input', 'Enter');
    await moderator.page.locator('#chat-messages li', { hasText: 'Hi all' }).waitFor();
    assert.equal((await other.post('first time here 🎶')).type, 'posted');
    await items.nth(2).waitFor();
    await moderator.page.fill('#chat-input', 'Be kind, everyone');
    await moderator.page.press('#chat-input', 'Enter');
    await items.nth(3).waitFor();

    // Markup is text; the link is an anchor with the safe rel, without the sentence's full stop.
    const hi = viewer.page.locator('#chat-messages li', { hasText: 'Hi all' });
    assert.equal(await hi.locator('img').count(), 0);
    assert.match((await hi.textContent()) ?? '', /<img src=x onerror=alert\(1\)>/);
    const link = hi.locator('a');
    assert.equal(await link.getAttribute('href'), 'https://example.com/set');
    assert.equal(await link.getAttribute('rel'), 'nofollow ugc noopener');
    // Names and roles.
    assert.equal(await viewer.page.locator('.chat-badge', { hasText: 'Creator' }).count(), 1);
    assert.equal(await viewer.page.locator('.chat-badge', { hasText: 'Mod' }).count(), 1);
    // The chat sits beside the player on a desktop and below it on a phone.
    await viewer.page.setViewportSize({ width: 1440, height: 900 });
    const player = await viewer.page.locator('.player').boundingBox();
    const panel = await viewer.page.locator('aside.chat').boundingBox();
    assert.ok(player && panel && panel.x > player.x + player.width - 1, 'beside the player');
    await viewer.page.setViewportSize({ width: 390, height: 844 });
    const phonePlayer = await viewer.page.locator('.player').boundingBox();
    const phonePanel = await viewer.page.locator('aside.chat').boundingBox();
    assert.ok(phonePlayer && phonePanel && phonePanel.y > phonePlayer.y + phonePlayer.height - 1, 'below it');
    await screenshotBothWidths(viewer.page, 'chat-viewer');

    // The moderator deletes Ola's message: gone from the viewer's page within a second.
    const olas = moderator.page.locator('#chat-messages li', { hasText: 'first time here' });
    const started = Date.now();
    await olas.getByRole('button', { name: /^Delete/ }).click();
    await viewer.page
      .locator('#chat-messages li', { hasText: 'first time here' })
      .waitFor({ state: 'detached', timeout: 5_000 });
    const vanished = Date.now() - started;
    t.diagnostic(`the deleted message vanished from the other browser after ${vanished} ms`);
    assert.ok(vanished < 1_000 * 3, `vanished in ${vanished} ms`);
    // And times Vic out: Vic is told, the form is disabled, and a post over the socket is refused.
    await moderator.page
      .locator('#chat-messages li', { hasText: 'Hi all' })
      .getByRole('button', { name: /^Time out/ })
      .click();
    await viewer.page.locator('#chat-state', { hasText: 'timed out' }).waitFor();
    assert.equal(await viewer.page.locator('#chat-input').isDisabled(), true);
    await screenshotBothWidths(moderator.page, 'chat-moderator');
    await screenshotBothWidths(viewer.page, 'chat-viewer-timed-out');
    const log = await app.services.chat.moderationLog(creator.userId);
    assert.deepEqual(
      log.slice(0, 2).map((entry) => [entry.action, entry.actor_name, entry.target_name]),
      [
        ['user.timed_out', 'Moe Moderator', 'Vic Viewer'],
        ['message.deleted', 'Moe Moderator', 'Ola Other'],
      ],
    );
    assert.deepEqual([...viewer.errors, ...moderator.errors], []);
  },
);
