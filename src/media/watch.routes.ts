// The JSON an open watch page polls for status and viewers. The page itself (`stream_url`,
// `video_url`) is the web app's (src/web/viewer/), in the site's layout; its assets (/assets/...)
// are served by src/web/assets.routes.ts with the app's own.
import type { FastifyInstance } from 'fastify';
import type { PublicUrls } from '../shared/public-urls.ts';
import { AppError } from '../shared/errors.ts';
import type { MediaCache } from './media-cache.ts';
import { pageInfo } from './watch-page.ts';
import type { WatchService } from './watch.service.ts';

export interface WatchRoutesOptions {
  watch: WatchService;
  urls: PublicUrls;
  cache: MediaCache;
}

export async function watchRoutes(app: FastifyInstance, options: WatchRoutesOptions): Promise<void> {
  const { watch, urls } = options;
  const schema = { hide: true };

  // Polled by open pages every few seconds, hence no rate limit (like the media it describes).
  app.get<{ Params: { id: string } }>(
    '/watch/:id/info',
    { config: { access: 'public', rateLimit: false }, schema },
    async (request, reply) => {
      const info = await watch.find(request.params.id);
      if (!info) throw new AppError('resource_not_found', 'No stream or video with this id can be watched.');
      return reply.header('Cache-Control', 'no-cache').send(pageInfo(info, urls));
    },
  );
}
