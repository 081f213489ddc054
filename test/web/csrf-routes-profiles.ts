// The profile forms' state-changing routes for test/web/csrf.test.ts: the profile, the email
// and the two images. A refused request leaves the profile and the email as they were.
import assert from 'node:assert/strict';
import type { CsrfContext, CsrfRoute } from './csrf-routes.ts';

/** The header of a 64x64 PNG: enough for the upload to be taken (the media job is not run here). */
const PNG_64 = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  Buffer.from('IHDR'),
  Buffer.from([0, 0, 0, 64, 0, 0, 0, 64, 8, 6, 0, 0, 0]),
]);

async function unchangedProfile(context: CsrfContext): Promise<void> {
  const profile = await context.server.services.profiles.find(context.userId);
  assert.ok(profile);
  assert.notEqual(profile.name, 'Changed by another site');
  assert.equal(profile.bio, null);
  assert.equal(profile.avatar.status, 'none');
  assert.equal(profile.banner.status, 'none');
}

export const CSRF_ROUTES: CsrfRoute[] = [
  {
    method: 'POST',
    route: '/account/profile',
    async setup(context) {
      return {
        as: 'user',
        path: '/account/profile',
        form: { name: 'Changed by another site', bio: 'Hello', links: '' },
        unchanged: () => unchangedProfile(context),
      };
    },
  },
  {
    method: 'POST',
    route: '/account/email',
    async setup(context) {
      const before = (await context.server.services.logins.findUser(context.userId))?.email;
      return {
        as: 'user',
        path: '/account/email',
        form: { email: 'taken-over@example.com', current_password: 'csrf user password' },
        unchanged: async () => {
          assert.equal((await context.server.services.logins.findUser(context.userId))?.email, before);
        },
      };
    },
  },
  ...(['avatar', 'banner'] as const).map((kind): CsrfRoute => ({
    method: 'POST',
    route: `/account/${kind}`,
    async setup(context) {
      return {
        as: 'user',
        path: `/account/${kind}`,
        form: {},
        unchanged: () => unchangedProfile(context),
        accept: async (token) => {
          const form = new FormData();
          form.append('_csrf', token);
          form.append('image', new Blob([new Uint8Array(PNG_64)], { type: 'image/png' }), 'me.png');
          return fetch(`${context.server.origin}/account/${kind}`, {
            method: 'POST',
            headers: { cookie: context.user.cookie, 'sec-fetch-site': 'same-origin' },
            body: form,
            redirect: 'manual',
          });
        },
      };
    },
  })),
];
