// The chat moderation page's and a stream page's chat routes for test/web/csrf.test.ts. A refused
// request must leave the channel's moderators, blocked words, bans and room settings as they were.
import assert from 'node:assert/strict';
import type { CsrfCase, CsrfContext, CsrfRoute } from './csrf-routes.ts';

async function unchanged(context: CsrfContext, moderators: number): Promise<void> {
  const chat = context.server.services.chat;
  assert.equal((await chat.moderators(context.userId)).length, moderators);
  assert.deepEqual(await chat.blockedWords(context.userId), []);
}

export const CSRF_ROUTES: CsrfRoute[] = [
  {
    method: 'POST',
    route: '/dashboard/chat/moderators',
    async setup(context) {
      const mod = await context.server.services.accounts.createUser('Would-be mod');
      return {
        as: 'user',
        path: '/dashboard/chat/moderators',
        form: { user_id: mod.id },
        unchanged: () => unchanged(context, 0),
      };
    },
  },
  {
    method: 'POST',
    route: '/dashboard/chat/moderators/remove',
    async setup(context) {
      const mod = await context.server.services.accounts.createUser('Mod');
      await context.server.services.chat.addModerator(context.userId, mod.id);
      return {
        as: 'user',
        path: '/dashboard/chat/moderators/remove',
        form: { user_id: mod.id },
        unchanged: () => unchanged(context, 1),
      };
    },
  },
  {
    method: 'POST',
    route: '/dashboard/chat/blocked-words',
    setup(context) {
      return Promise.resolve({
        as: 'user',
        path: '/dashboard/chat/blocked-words',
        form: { words: 'spoiler' },
        unchanged: () => unchanged(context, 0),
      });
    },
  },
  {
    method: 'POST',
    route: '/dashboard/chat/lift',
    async setup(context) {
      return liftCase(context, '/dashboard/chat/lift');
    },
  },
  {
    method: 'POST',
    route: '/dashboard/streams/:id/chat/lift',
    async setup(context) {
      const streamId = await ownStream(context);
      return liftCase(context, `/dashboard/streams/${streamId}/chat/lift`, streamId);
    },
  },
  {
    method: 'POST',
    route: '/dashboard/streams/:id/chat/settings',
    async setup(context) {
      const streamId = await ownStream(context);
      const chat = context.server.services.chat;
      return {
        as: 'user',
        path: `/dashboard/streams/${streamId}/chat/settings`,
        form: { slow_mode_seconds: '10', followers_only: 'on', max_length: '100' },
        unchanged: async () => {
          assert.deepEqual(await chat.settings(streamId), {
            slow_mode_seconds: 0,
            followers_only: false,
            max_length: 500,
          });
        },
      };
    },
  },
];

async function ownStream(context: CsrfContext): Promise<string> {
  return (await context.server.services.streams.create(context.userId, { title: 'Chatty' })).stream.id;
}

/** A banned user whose ban the form would lift. */
async function liftCase(context: CsrfContext, path: string, streamId?: string): Promise<CsrfCase> {
  const chat = context.server.services.chat;
  const user = await context.server.services.accounts.createUser('Banned');
  await chat.ban(streamId ?? (await ownStream(context)), context.userId, user.id, null);
  return {
    as: 'user',
    path,
    form: { user_id: user.id },
    unchanged: async () => {
      assert.equal((await chat.restrictions(context.userId)).length, 1);
    },
  };
}
