// The upload page's state-changing routes (src/web/dashboard/uploads.routes.ts), for
// test/web/csrf.test.ts: creating an upload and cancelling one.
import assert from 'node:assert/strict';
import type { CsrfContext, CsrfRoute } from './csrf-routes.ts';

async function uploadStatuses(context: CsrfContext): Promise<string> {
  const rows = await context.server.services.uploads.list(context.userId, undefined, 50);
  return rows.map((row) => `${row.id}:${row.status}`).join(',');
}

export const CSRF_ROUTES: CsrfRoute[] = [
  {
    method: 'POST',
    route: '/dashboard/uploads',
    async setup(context) {
      return {
        as: 'user',
        path: '/dashboard/uploads',
        form: { title: 'Forged upload', size: '1000', privacy: 'public' },
        unchanged: async () => {
          assert.equal(await uploadStatuses(context), '', 'no upload created');
        },
      };
    },
  },
  {
    method: 'POST',
    route: '/dashboard/uploads/:id/cancel',
    async setup(context) {
      const upload = await context.server.services.uploads.create({
        creatorId: context.userId,
        size: 1000,
        title: 'Guarded upload',
      });
      return {
        as: 'user',
        path: `/dashboard/uploads/${upload.id}/cancel`,
        form: {},
        unchanged: async () => {
          assert.equal(await uploadStatuses(context), `${upload.id}:waiting`, 'not cancelled');
        },
      };
    },
  },
];
