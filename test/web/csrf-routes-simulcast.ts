// The simulcast pages' state-changing routes, for test/web/csrf.test.ts: adding, enabling or
// disabling and removing a stream's destination or a channel default, and resetting the
// channel key on the channel page.
import assert from 'node:assert/strict';
import type { CsrfContext, CsrfRoute } from './csrf-routes.ts';

const DESTINATION = { url: 'rtmp://live.example.com/app', stream_key: 'guarded-key-1234' };

async function ownStream(context: CsrfContext): Promise<string> {
  return (await context.server.services.streams.create(context.userId, { title: 'Guarded' })).stream.id;
}

async function ownTarget(context: CsrfContext, streamId: string | null): Promise<string> {
  const row = await context.server.services.simulcast.create(context.userId, streamId, {
    url: DESTINATION.url,
    streamKey: DESTINATION.stream_key,
  });
  return row.id;
}

async function targets(context: CsrfContext, streamId: string | null): Promise<string> {
  const rows = await context.server.services.simulcast.list(context.userId, streamId);
  return rows.map((row) => `${row.id}:${row.enabled}`).join(',');
}

function destinationRoutes(prefix: 'stream' | 'ingest'): CsrfRoute[] {
  const base = prefix === 'stream' ? '/dashboard/streams/:id/simulcast' : '/dashboard/ingest/simulcast';
  const owner = async (context: CsrfContext) => (prefix === 'stream' ? await ownStream(context) : null);
  const path = (streamId: string | null) =>
    streamId === null ? '/dashboard/ingest/simulcast' : `/dashboard/streams/${streamId}/simulcast`;
  return [
    {
      method: 'POST',
      route: base,
      async setup(context) {
        const streamId = await owner(context);
        return {
          as: 'user',
          path: path(streamId),
          form: { ...DESTINATION, enabled: 'on' },
          unchanged: async () => {
            assert.equal(await targets(context, streamId), '', 'no destination added');
          },
        };
      },
    },
    {
      method: 'POST',
      route: `${base}/:target_id/toggle`,
      async setup(context) {
        const streamId = await owner(context);
        const id = await ownTarget(context, streamId);
        const before = await targets(context, streamId);
        return {
          as: 'user',
          path: `${path(streamId)}/${id}/toggle`,
          form: { enabled: 'false' },
          unchanged: async () => {
            assert.equal(await targets(context, streamId), before, 'not disabled');
          },
        };
      },
    },
    {
      method: 'POST',
      route: `${base}/:target_id/delete`,
      async setup(context) {
        const streamId = await owner(context);
        const id = await ownTarget(context, streamId);
        const before = await targets(context, streamId);
        return {
          as: 'user',
          path: `${path(streamId)}/${id}/delete`,
          form: {},
          unchanged: async () => {
            assert.equal(await targets(context, streamId), before, 'not removed');
          },
        };
      },
    },
  ];
}

export const CSRF_ROUTES: CsrfRoute[] = [
  ...destinationRoutes('stream'),
  ...destinationRoutes('ingest'),
  {
    method: 'POST',
    route: '/dashboard/ingest/reset-key',
    async setup(context) {
      const { streamKey } = await context.server.services.channels.show(context.userId);
      return {
        as: 'user',
        path: '/dashboard/ingest/reset-key',
        form: {},
        unchanged: async () => {
          const now = await context.server.services.channels.show(context.userId);
          assert.equal(now.streamKey, streamKey, 'the channel key was not reset');
        },
      };
    },
  },
];
