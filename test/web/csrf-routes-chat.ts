// The chat moderation page's state-changing routes for test/web/csrf.test.ts. A refused request
// must leave the channel's moderators and blocked words as they were.
import assert from 'node:assert/strict';
import type { CsrfContext, CsrfRoute } from './csrf-routes.ts';

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
];
