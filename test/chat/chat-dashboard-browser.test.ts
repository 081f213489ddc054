// A creator's stream page in headless Chromium while live: slow mode, followers-only and the
// length limit switched from the chat panel, a ban lifted after the confirmation dialog, and the
// moderation log showing both; then the channel's moderation page. Passes axe; screenshots at
// 390 and 1440 px (TEST_SCREENSHOT_DIR).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/media-browser.ts';
import { signInBrowser, signUp } from '../helpers/web.ts';
import { screenshotBothWidths } from '../helpers/web-browser.ts';

test(
  'the creator switches chat modes and lifts a ban from a live stream page',
  { timeout: 180_000 },
  async (t) => {
    const app = await startTestApp(t, { dialect: 'sqlite', clock: { now: () => Date.now() } });
    const login = { name: 'Cora Creator', email: 'cora@example.com', password: 'a long password here' };
    await signUp(app.origin, login);
    const creatorId = (
      await app.services.database.db
        .selectFrom('users')
        .select('id')
        .where('name', '=', login.name)
        .executeTakeFirstOrThrow()
    ).id;
    const stream = (await app.services.streams.create(creatorId, { title: 'Evening jam' })).stream;
    await app.services.database.db
      .updateTable('streams')
      .set({ status: 'live', started_at: Date.now() })
      .where('id', '=', stream.id)
      .execute();
    const vic = await app.createAccount('Vic Viewer');
    const sam = await app.createAccount('Sam Spammer');
    await app.services.chat.ban(stream.id, creatorId, vic.userId, 'links in every message');
    await app.services.chat.timeout(stream.id, creatorId, sam.userId, 600, null);

    const context = await launchBrowser(t);
    await signInBrowser(context, app.origin, login);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${app.origin}/dashboard/streams/${stream.id}`);
    const panel = page.locator('#chat-panel');
    await panel.waitFor();
    assert.match(await page.locator('#chat-state').innerText(), /slow mode off/);

    await page.getByLabel('Slow mode').fill('15');
    await page.getByLabel(/Followers-only/).check();
    await page.getByLabel('Longest message').fill('200');
    await Promise.all([
      page.waitForURL(/chat=saved/),
      page.getByRole('button', { name: 'Save chat settings' }).click(),
    ]);
    await page.getByText('Chat settings saved').waitFor();
    assert.match(
      await page.locator('#chat-state').innerText(),
      /slow mode 15 s, followers-only, at most 200 characters/,
    );
    assert.equal(await page.getByLabel(/Followers-only/).isChecked(), true);
    assert.deepEqual(await app.services.chat.settings(stream.id), {
      slow_mode_seconds: 15,
      followers_only: true,
      max_length: 200,
    });
    assert.match(await page.locator('#stream-moderation-log').innerText(), /settings\.updated/);
    await panel.scrollIntoViewIfNeeded();
    await screenshotBothWidths(page, 'chat-dashboard-stream');

    // Lifting asks first; Cancel keeps the ban.
    const liftVic = page.getByRole('button', { name: 'Lift ban of Vic Viewer' });
    await liftVic.click();
    const dialog = page.locator('#confirm-dialog');
    await dialog.waitFor();
    assert.match(await dialog.innerText(), /Lift Vic Viewer's ban\? They can chat again at once\./);
    await screenshotBothWidths(page, 'chat-dashboard-lift-confirm');
    await page.locator('#confirm-no').click();
    assert.equal((await app.services.chat.restrictions(creatorId)).length, 2);
    await liftVic.click();
    await Promise.all([page.waitForURL(/chat=lifted/), page.locator('#confirm-yes').click()]);
    await page.getByText('Lifted: they can chat again now.').waitFor();
    const left = await app.services.chat.restrictions(creatorId);
    assert.deepEqual(
      left.map((r) => r.user_id),
      [sam.userId],
    );
    assert.equal(await page.getByRole('button', { name: 'Lift ban of Vic Viewer' }).count(), 0);
    assert.match(await page.locator('#stream-moderation-log').innerText(), /ban lifted/);

    // Vic may chat again, as a follower would have to (followers-only is on): refused for that only.
    const said = await app.request('POST', `/v1/streams/${stream.id}/chat/messages`, {
      key: vic.writeKey,
      body: { text: 'thanks!' },
    });
    assert.equal(said.body.error.code, 'chat_followers_only');

    await page.goto(`${app.origin}/dashboard/chat`);
    await page.locator('#moderation-log').waitFor();
    assert.match(await page.locator('#restrictions-list').innerText(), /Sam Spammer/);
    await screenshotBothWidths(page, 'chat-dashboard-channel');
    assert.deepEqual(errors, []);
  },
);
