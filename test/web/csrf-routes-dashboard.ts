// The creator dashboard's state-changing page routes, for test/web/csrf.test.ts: each with a
// form that would succeed, and a check that the refused requests changed nothing.
import assert from 'node:assert/strict';
import { fanOutAll } from '../../src/webhooks/delivery/fan-out.ts';
import type { CsrfContext, CsrfRoute } from './csrf-routes.ts';

async function ownStream(context: CsrfContext): Promise<{ id: string; key: string }> {
  const created = await context.server.services.streams.create(context.userId, { title: 'Guarded' });
  return { id: created.stream.id, key: created.streamKey };
}

async function ownVideo(context: CsrfContext): Promise<string> {
  const video = await context.server.services.videos.publish({
    creatorId: context.userId,
    title: 'Guarded video',
    durationSeconds: 60,
  });
  return video.id;
}

async function videoTitle(context: CsrfContext, id: string): Promise<string | undefined> {
  const row = await context.server.handle.db
    .selectFrom('videos')
    .select('title')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.title;
}

async function ownWebhook(context: CsrfContext): Promise<{ id: string; secret: string }> {
  const { row, secret } = await context.server.services.webhooks.register(context.userId, {
    url: 'https://127.0.0.1:9/csrf-hook',
    events: ['*'],
  });
  return { id: row.id, secret };
}

async function streamCount(context: CsrfContext): Promise<number> {
  return (
    await context.server.services.streams.list({
      viewerId: context.userId,
      creatorId: context.userId,
      limit: 50,
    })
  ).length;
}

async function webhookStatusAndCount(context: CsrfContext): Promise<string> {
  const rows = await context.server.services.webhooks.list(context.userId);
  return rows.map((row) => `${row.id}:${row.status}`).join(',');
}

async function events(context: CsrfContext): Promise<number> {
  const rows = await context.server.handle.db.selectFrom('events').select('id').execute();
  return rows.length;
}

export const CSRF_ROUTES: CsrfRoute[] = [
  {
    method: 'POST',
    route: '/dashboard/streams',
    async setup(context) {
      const before = await streamCount(context);
      return {
        as: 'user',
        path: '/dashboard/streams',
        form: { title: 'Forged stream', record: 'on' },
        unchanged: async () => {
          assert.equal(await streamCount(context), before, 'no stream created');
        },
      };
    },
  },
  {
    method: 'POST',
    route: '/dashboard/streams/:id/reset-key',
    async setup(context) {
      const stream = await ownStream(context);
      return {
        as: 'user',
        path: `/dashboard/streams/${stream.id}/reset-key`,
        form: {},
        unchanged: async () => {
          const found = await context.server.services.streams.findByStreamKey(stream.key);
          assert.equal(found?.id, stream.id, 'the key still works');
        },
      };
    },
  },
  {
    method: 'POST',
    route: '/dashboard/streams/:id',
    async setup(context) {
      const stream = await ownStream(context);
      return {
        as: 'user',
        path: `/dashboard/streams/${stream.id}`,
        form: { title: 'Forged title', privacy: 'private' },
        unchanged: async () => {
          const now = await context.server.services.streams.get(stream.id);
          assert.equal(now.title, 'Guarded', 'not renamed');
          assert.equal(now.privacy, 'public', 'still public');
        },
      };
    },
  },
  {
    method: 'POST',
    route: '/dashboard/streams/:id/end',
    async setup(context) {
      const stream = await ownStream(context);
      await context.server.services.streams.goLive(stream.id);
      return {
        as: 'user',
        path: `/dashboard/streams/${stream.id}/end`,
        form: {},
        unchanged: async () => {
          assert.equal((await context.server.services.streams.get(stream.id)).status, 'live', 'still live');
        },
      };
    },
  },
  {
    method: 'POST',
    route: '/dashboard/videos/:id',
    async setup(context) {
      const id = await ownVideo(context);
      return {
        as: 'user',
        path: `/dashboard/videos/${id}`,
        form: { title: 'Forged title', tags: 'forged' },
        unchanged: async () => {
          assert.equal(await videoTitle(context, id), 'Guarded video', 'not renamed');
        },
      };
    },
  },
  {
    method: 'POST',
    route: '/dashboard/videos/:id/delete',
    async setup(context) {
      const id = await ownVideo(context);
      return {
        as: 'user',
        path: `/dashboard/videos/${id}/delete`,
        form: {},
        unchanged: async () => {
          assert.equal(await videoTitle(context, id), 'Guarded video', 'not deleted');
        },
      };
    },
  },
  {
    method: 'POST',
    route: '/dashboard/webhooks',
    async setup(context) {
      return {
        as: 'user',
        path: '/dashboard/webhooks',
        form: { url: 'https://127.0.0.1:9/forged', 'event-all': 'on' },
        unchanged: async () => {
          assert.equal(await webhookStatusAndCount(context), '', 'no webhook registered');
        },
      };
    },
  },
  {
    method: 'POST',
    route: '/dashboard/webhooks/:id/test',
    async setup(context) {
      const webhook = await ownWebhook(context);
      const before = await events(context);
      return {
        as: 'user',
        path: `/dashboard/webhooks/${webhook.id}/test`,
        form: {},
        unchanged: async () => {
          assert.equal(await events(context), before, 'no test event recorded');
        },
      };
    },
  },
  {
    method: 'POST',
    route: '/dashboard/webhooks/:id/enable',
    async setup(context) {
      const webhook = await ownWebhook(context);
      await context.server.handle.db
        .updateTable('webhooks')
        .set({ status: 'disabled' })
        .where('id', '=', webhook.id)
        .execute();
      return {
        as: 'user',
        path: `/dashboard/webhooks/${webhook.id}/enable`,
        form: {},
        unchanged: async () => {
          assert.equal(await webhookStatusAndCount(context), `${webhook.id}:disabled`, 'still disabled');
        },
      };
    },
  },
  {
    method: 'POST',
    route: '/dashboard/webhooks/:id/rotate-secret',
    async setup(context) {
      const webhook = await ownWebhook(context);
      const sealed = async () =>
        (
          await context.server.handle.db
            .selectFrom('webhooks')
            .select('secret_ciphertext')
            .where('id', '=', webhook.id)
            .executeTakeFirstOrThrow()
        ).secret_ciphertext;
      const before = await sealed();
      return {
        as: 'user',
        path: `/dashboard/webhooks/${webhook.id}/rotate-secret`,
        form: {},
        unchanged: async () => {
          assert.equal(await sealed(), before, 'the secret is unchanged');
        },
      };
    },
  },
  {
    method: 'POST',
    route: '/dashboard/webhooks/:id/delete',
    async setup(context) {
      const webhook = await ownWebhook(context);
      return {
        as: 'user',
        path: `/dashboard/webhooks/${webhook.id}/delete`,
        form: {},
        unchanged: async () => {
          assert.equal(await webhookStatusAndCount(context), `${webhook.id}:active`, 'not deleted');
        },
      };
    },
  },
  {
    method: 'POST',
    route: '/dashboard/webhooks/:id/deliveries/:event_id/resend',
    async setup(context) {
      const webhook = await ownWebhook(context);
      // The registration's ping becomes a delivery, as the worker's fan-out makes it.
      await fanOutAll(context.server.handle.db, () => Date.now());
      const delivery = await context.server.handle.db
        .selectFrom('webhook_deliveries')
        .select(['event_id', 'next_attempt_at'])
        .where('webhook_id', '=', webhook.id)
        .executeTakeFirstOrThrow();
      return {
        as: 'user',
        path: `/dashboard/webhooks/${webhook.id}/deliveries/${delivery.event_id}/resend`,
        form: {},
        unchanged: async () => {
          const now = await context.server.handle.db
            .selectFrom('webhook_deliveries')
            .select('next_attempt_at')
            .where('webhook_id', '=', webhook.id)
            .executeTakeFirstOrThrow();
          assert.equal(now.next_attempt_at, delivery.next_attempt_at, 'not rescheduled');
        },
      };
    },
  },
];
