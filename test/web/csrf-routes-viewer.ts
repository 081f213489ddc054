// The viewer pages' state-changing routes for test/web/csrf.test.ts: subscribing and
// unsubscribing. A refused request must leave the subscription as it was.
import assert from 'node:assert/strict';
import type { CsrfContext, CsrfRoute } from './csrf-routes.ts';

async function creatorFor(context: CsrfContext): Promise<string> {
  return (await context.server.services.accounts.createUser('CSRF creator')).id;
}

export const CSRF_ROUTES: CsrfRoute[] = [
  {
    method: 'POST',
    route: '/channels/:id/subscribe',
    async setup(context) {
      const creatorId = await creatorFor(context);
      return {
        as: 'user',
        path: `/channels/${creatorId}/subscribe`,
        form: {},
        unchanged: async () => {
          const subscriptions = context.server.services.subscriptions;
          assert.equal(await subscriptions.isSubscribed(context.userId, creatorId), false, 'not subscribed');
          assert.equal(await subscriptions.countSubscribers(creatorId), 0);
        },
      };
    },
  },
  {
    method: 'POST',
    route: '/channels/:id/unsubscribe',
    async setup(context) {
      const creatorId = await creatorFor(context);
      await context.server.services.subscriptions.subscribeOnce(context.userId, creatorId);
      return {
        as: 'user',
        path: `/channels/${creatorId}/unsubscribe`,
        form: {},
        unchanged: async () => {
          const subscriptions = context.server.services.subscriptions;
          assert.equal(await subscriptions.isSubscribed(context.userId, creatorId), true, 'still subscribed');
        },
      };
    },
  },
];
