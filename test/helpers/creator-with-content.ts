// A running app with one signed-up creator who owns a little of everything the dashboard lists:
// a live stream with a long title, a private and a scheduled one, two videos, a webhook whose
// ping was delivered to a real HTTPS receiver, and a write and a read key. For browser tests
// that look at pages as such a creator would.
import type { TestContext } from 'node:test';
import { systemClock } from '../../src/shared/clock.ts';
import { startTestApp, type TestApp } from './app.ts';
import { startReceiver } from './https-receiver.ts';
import { signUp } from './web.ts';

export const LONG_TITLE =
  'Friday night build: shipping the dashboard and fixing the player before the weekend';

export interface CreatorWithContent {
  server: TestApp;
  userId: string;
  email: string;
  password: string;
  webhookId: string;
}

export async function startCreatorWithContent(t: TestContext, name = 'Ada'): Promise<CreatorWithContent> {
  const email = 'ada@example.com';
  const password = 'browser test password';
  const server = await startTestApp(t, {
    dialect: 'sqlite',
    clock: systemClock,
    worker: true,
    rateLimitPerIp: 100_000,
  });
  const receiver = await startReceiver();
  t.after(() => receiver.close());
  await signUp(server.origin, { name, email, password });
  const { id: userId } = await server.services.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  const { streams, videos, webhooks, accounts } = server.services;
  const { stream: live } = await streams.create(userId, { title: LONG_TITLE, category: 'just-chatting' });
  await streams.goLive(live.id);
  await streams.create(userId, { title: 'Standby', category: 'science-and-technology', privacy: 'private' });
  await streams.create(userId, {
    title: 'Tomorrow',
    scheduledAt: new Date(Date.now() + 86_400_000).toISOString(),
  });
  for (const title of [LONG_TITLE, 'Last week']) {
    await videos.publish({
      creatorId: userId,
      title,
      durationSeconds: 3725,
      category: 'science-and-technology',
    });
  }
  const hook = await webhooks.register(userId, { url: receiver.url(), events: ['*'] });
  await accounts.createKey(userId, 'write');
  await accounts.createKey(userId, 'read');
  await receiver.waitForRequests(1);
  return { server, userId, email, password, webhookId: hook.row.id };
}
