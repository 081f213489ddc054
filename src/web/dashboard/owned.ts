// The dashboard's routes on one of the signed-in user's resources (a stream, a video, a
// webhook, a delivery) load it in a preHandler, as fastify/demo's routes check access before
// their handler: the resource the path names is kept on the request for the handler, and a
// missing one or another account's is answered with the same 404 page, so an id reveals
// nothing. Path parameters are declared with TypeBox; they are any text, as before (a
// malformed id is a missing resource, not a 400).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Services } from '../../container.ts';
import type { StreamWithKey } from '../../streams/stream.service.ts';
import type { StreamRow } from '../../streams/stream.table.ts';
import type { VideoRow } from '../../videos/video.table.ts';
import { userOf, type WebUser } from './core.ts';
import { orMissing, sendNotFound } from './not-found.ts';

export const IdParams = Type.Object({ id: Type.String() });
export type IdParams = Static<typeof IdParams>;
export const DeliveryParams = Type.Object({ id: Type.String(), event_id: Type.String() });
export type DeliveryParams = Static<typeof DeliveryParams>;

export interface Owned<T, P> {
  /** Loads the resource the path names onto the request, or answers the 404 page. */
  preHandler: (
    request: FastifyRequest & { params: P },
    reply: FastifyReply,
  ) => Promise<FastifyReply | undefined>;
  /** What the route's preHandler loaded. */
  of: (request: FastifyRequest) => T;
  /** The user's resource, or undefined (for a page shown again after a refused action). */
  load: (user: WebUser, params: P) => Promise<T | undefined>;
}

function owned<T, P>(
  app: FastifyInstance,
  decorator: string,
  what: string,
  load: (user: WebUser, params: P) => Promise<T | undefined>,
): Owned<T, P> {
  app.decorateRequest(decorator, null);
  return {
    load,
    preHandler: async (request, reply) => {
      const found = await load(userOf(request), request.params);
      if (found === undefined) return sendNotFound(request, reply, what);
      request.setDecorator(decorator, found);
      return undefined;
    },
    of: (request) => {
      const found = request.getDecorator<T | null>(decorator);
      if (found === null) throw new Error(`${request.routeOptions.url ?? request.url} loads no ${what}`);
      return found;
    },
  };
}

export type OwnedResources = ReturnType<typeof ownedResources>;

/** The loaders of the dashboard's resources, each the API service's read as the creator. */
export function ownedResources(app: FastifyInstance, { streams, videos, webhookManagement }: Services) {
  const mine = <R extends { creator_id: string }>(user: WebUser, row: R | undefined) =>
    row?.creator_id === user.id ? row : undefined;
  return {
    stream: owned(
      app,
      'dashboardStream',
      'stream',
      async (user, { id }: IdParams): Promise<StreamRow | undefined> =>
        mine(user, await orMissing(streams.getShown(id))),
    ),
    /** The stream with its key: as the API's creator with a write key (only their own has one). */
    streamWithKey: owned(
      app,
      'dashboardStreamWithKey',
      'stream',
      async (user, { id }: IdParams): Promise<StreamWithKey | undefined> => {
        const found = await orMissing(streams.getWithKey(id, { userId: user.id, scope: 'write' }));
        return found && mine(user, found.stream) ? found : undefined;
      },
    ),
    // Anyone may watch a published video; only its creator sees it in the dashboard (drafts too).
    video: owned(
      app,
      'dashboardVideo',
      'video',
      async (user, { id }: IdParams): Promise<VideoRow | undefined> =>
        mine(user, await orMissing(videos.get(id, user.id))),
    ),
    webhook: owned(app, 'dashboardWebhook', 'webhook', (user, { id }: IdParams) =>
      orMissing(webhookManagement.get(user.id, id)),
    ),
    delivery: owned(app, 'dashboardDelivery', 'delivery', (user, { id, event_id }: DeliveryParams) =>
      orMissing(webhookManagement.getDelivery(user.id, id, event_id)),
    ),
  };
}
