// Watch pages (`stream_url`, `video_url`), the JSON they poll for status and viewers, and
// their assets: the project's own player script and hls.js from node_modules, never a CDN.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { PublicUrls } from '../shared/public-urls.ts';
import { AppError } from '../shared/errors.ts';
import type { MediaCache } from './media-cache.ts';
import { renderNotFoundPage, renderWatchPage, WATCH_PAGE_CSP } from './watch-page.ts';
import type { WatchInfo, WatchService } from './watch.service.ts';

export interface WatchRoutesOptions {
  watch: WatchService;
  urls: PublicUrls;
  cache: MediaCache;
}

// Their assets (/assets/...) are served by src/web/assets.routes.ts with the app's own.

export async function watchRoutes(app: FastifyInstance, options: WatchRoutesOptions): Promise<void> {
  const { watch, urls } = options;
  const schema = { hide: true };
  const assets = `${urls.basePath}/assets`;

  /** The page's copy of the info links media by path, so it plays under any host name. */
  const forPage = (info: WatchInfo): WatchInfo => ({
    ...info,
    playback_url: info.playback_url === null ? null : urls.pathOf(info.playback_url),
    thumbnail_url: info.thumbnail_url === null ? null : urls.pathOf(info.thumbnail_url),
  });

  // The page itself counts against the per-IP limit like any anonymous request.
  app.get<{ Params: { id: string } }>(
    '/watch/:id',
    { config: { access: 'public' }, schema },
    async (request, reply: FastifyReply) => {
      const info = await watch.find(request.params.id);
      reply.header('Cache-Control', 'no-cache').header('X-Content-Type-Options', 'nosniff');
      if (!info) return reply.code(404).type('text/html; charset=utf-8').send(renderNotFoundPage());
      return reply
        .type('text/html; charset=utf-8')
        .header('Content-Security-Policy', WATCH_PAGE_CSP)
        .send(
          renderWatchPage(forPage(info), {
            assets,
            info: `${urls.basePath}/watch/${encodeURIComponent(info.id)}/info`,
          }),
        );
    },
  );

  // Polled by open pages every few seconds, hence no rate limit (like the media it describes).
  app.get<{ Params: { id: string } }>(
    '/watch/:id/info',
    { config: { access: 'public', rateLimit: false }, schema },
    async (request, reply) => {
      const info = await watch.find(request.params.id);
      if (!info) throw new AppError('resource_not_found', 'No stream or video with this id can be watched.');
      return reply.header('Cache-Control', 'no-cache').send(forPage(info));
    },
  );
}
