// The mail links' and settings' state-changing page routes for test/web/csrf.test.ts (issue
// 27). A refused request must change nothing: no mail queued, no password, no address.
import assert from 'node:assert/strict';
import type { CsrfContext, CsrfRoute } from './csrf-routes.ts';

async function mailCount(context: CsrfContext): Promise<number> {
  const row = await context.server.services.database.db
    .selectFrom('mail_messages')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function userEmail(context: CsrfContext): Promise<string | null | undefined> {
  return (await context.server.services.logins.findUser(context.userId))?.email;
}

export const CSRF_ROUTES: CsrfRoute[] = [
  {
    method: 'POST',
    route: '/forgot-password',
    async setup(context) {
      const email = (await userEmail(context)) ?? '';
      const before = await mailCount(context);
      return {
        as: 'visitor',
        path: '/forgot-password',
        form: { email },
        unchanged: async () => {
          assert.equal(await mailCount(context), before, 'no reset mail');
        },
      };
    },
  },
  {
    method: 'POST',
    route: '/reset-password/:token',
    async setup(context) {
      const email = (await userEmail(context)) ?? '';
      const token = await context.server.services.logins.createEmailToken(context.userId, 'reset', email);
      return {
        as: 'visitor',
        path: `/reset-password/${token}`,
        form: { password: 'a password from elsewhere' },
        unchanged: async () => {
          assert.ok(
            await context.server.services.logins.peekEmailToken(token, 'reset'),
            'the link is unused',
          );
        },
      };
    },
  },
  {
    method: 'POST',
    route: '/verify-email/:token',
    async setup(context) {
      const token = await context.server.services.logins.createEmailToken(
        context.userId,
        'verify',
        'elsewhere@example.com',
      );
      return {
        as: 'user',
        path: `/verify-email/${token}`,
        form: {},
        unchanged: async () => {
          assert.notEqual(await userEmail(context), 'elsewhere@example.com');
        },
      };
    },
  },
  // POST /account/email is in csrf-routes-profiles.ts (its form is the profile page's).
  {
    method: 'POST',
    route: '/account/verification',
    async setup(context) {
      const before = await mailCount(context);
      return {
        as: 'user',
        path: '/account/verification',
        form: {},
        unchanged: async () => {
          assert.equal(await mailCount(context), before, 'no mail');
        },
      };
    },
  },
  {
    method: 'POST',
    route: '/channels/:id/notifications',
    async setup(context) {
      const creatorId = (await context.server.services.accounts.createUser('CSRF channel')).id;
      await context.server.services.subscriptions.subscribeOnce(context.userId, creatorId);
      return {
        as: 'user',
        path: `/channels/${creatorId}/notifications`,
        form: { notify: 'off' },
        unchanged: async () => {
          assert.equal(
            await context.server.services.subscriptions.notifiesLive(context.userId, creatorId),
            true,
          );
        },
      };
    },
  },
];
