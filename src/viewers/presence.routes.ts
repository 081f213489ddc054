// POST /watch/{id}/presence: the player's own periodic signal (every 5 s while playing, and once
// at start), which counts live viewers and views now that an edge cache answers most playlist
// fetches (viewer-contract.md). Not cached anywhere (`no-store`), not under the API's per-key
// limit (there is no key), but limited per client address like the playlists.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../shared/errors.ts';
import { clientKey } from '../shared/client-address.ts';
import type { PlaylistLimiter } from '../media/playlist-limiter.ts';
import type { PresenceService } from './presence.service.ts';
import { PresenceParams, PresenceQuery } from './presence.schemas.ts';
import type { ViewerIdentities } from './viewer-identity.ts';

export interface PresenceRoutesOptions {
  presence: PresenceService;
  identities: ViewerIdentities;
  limiter: PlaylistLimiter;
  /** The public URL is https: cookies are marked Secure whatever the hop to this process. */
  httpsPublicUrl: boolean;
}

/** The limiter's key for presence: one budget per client address over all streams and videos. */
const ANY_TARGET = 'presence';

export const presenceRoutes: FastifyPluginAsyncTypebox<PresenceRoutesOptions> = async (
  app,
  { presence, identities, limiter, httpsPublicUrl },
) => {
  app.post(
    '/watch/:id/presence',
    {
      config: { access: 'public', rateLimit: false },
      schema: { hide: true, params: PresenceParams, querystring: PresenceQuery },
      // Counted before any body is read, as the API's own limits are: a refusal then closes a
      // connection that still has a body coming (sendError), instead of reading it for nothing.
      onRequest: (request, reply, done) => {
        reply.header('Cache-Control', 'no-store');
        const retryAfter = limiter.hit(clientKey(request.ip), ANY_TARGET);
        if (retryAfter === 0) {
          done();
          return;
        }
        reply.header('Retry-After', retryAfter);
        done(
          new AppError(
            'rate_limit_exceeded',
            `More than ${limiter.limit} presence signals came from this address this minute ` +
              '(a player sends 12); retry after the window resets.',
          ),
        );
      },
    },
    async (request, reply) => {
      const client = clientKey(request.ip);
      const identity = identities.identify({
        cookieHeader: request.headers.cookie,
        queryViewer: request.query.viewer,
        userAgent: request.headers['user-agent'],
        secure: httpsPublicUrl || request.protocol === 'https',
      });
      await presence.record(request.params.id, client, identity.id);
      if (identity.setCookie !== undefined) reply.header('Set-Cookie', identity.setCookie);
      return reply.code(204).send();
    },
  );
};
