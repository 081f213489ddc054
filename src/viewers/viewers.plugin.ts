// Viewer counting for buildApp's `plugins`: the presence endpoint, with the live viewers it
// shares with the ingest (which writes viewer_count) and the views it writes to the videos.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { DatabaseHandle } from '../db/database.ts';
import { PlaylistLimiter } from '../media/playlist-limiter.ts';
import type { Clock } from '../shared/clock.ts';
import type { PublicUrls } from '../shared/public-urls.ts';
import { deriveKey } from '../shared/secret-key.ts';
import type { LiveViewers } from './live-viewers.ts';
import { presenceRoutes } from './presence.routes.ts';
import { PresenceService } from './presence.service.ts';
import { ViewerIdentities } from './viewer-identity.ts';

export interface ViewersPluginOptions {
  services: { database: DatabaseHandle; urls: PublicUrls; clock: Clock };
  secretKey: Buffer;
  live: LiveViewers;
  logger: Pick<Logger, 'error'>;
  /** Presence signals per client address per minute (PLAYLIST_FETCHES_PER_MINUTE). */
  presencePerMinute?: number;
  /** Views one address adds to one video per day. */
  viewsPerAddressPerDay?: number;
}

export function viewerIdentities(secretKey: Buffer, urls: PublicUrls): ViewerIdentities {
  return new ViewerIdentities(deriveKey(secretKey, 'viewer-cookies'), urls.basePath);
}

export function viewersPlugin(options: ViewersPluginOptions): (app: FastifyInstance) => Promise<void> {
  const { services } = options;
  const identities = viewerIdentities(options.secretKey, services.urls);
  const presence = new PresenceService({
    db: services.database.db,
    clock: services.clock,
    live: options.live,
    hashKey: deriveKey(options.secretKey, 'viewer-cookies'),
    logger: options.logger,
    ...(options.viewsPerAddressPerDay === undefined
      ? {}
      : { viewsPerAddressPerDay: options.viewsPerAddressPerDay }),
  });
  const limiter = new PlaylistLimiter(services.clock, options.presencePerMinute);
  return async (app) => {
    await app.register(presenceRoutes, {
      presence,
      identities,
      limiter,
      httpsPublicUrl: services.urls.streamPage('').startsWith('https:'),
    });
  };
}
