// The creator's videos: the list (published ones, newest first) and one video's page.
import { keysetPage } from '../../http/pagination.ts';
import { PAGE, renderPage, sendPage, userOf } from './core.ts';
import type { DashboardApp, DashboardDeps } from './dashboard.deps.ts';
import { IdParams } from './owned.ts';
import { videoListBody, videoPageBody } from './video-pages.ts';

const PAGE_SIZE = 50;
const STYLES = ['/assets/dashboard.css'];

export async function dashboardVideoRoutes(
  app: DashboardApp,
  { services, owned }: DashboardDeps,
): Promise<void> {
  const { videos, cursors, urls } = services;

  app.get('/dashboard/videos', { config: PAGE, schema: { hide: true } }, async (request, reply) => {
    const user = userOf(request);
    const cursor = (request.query as Record<string, string | undefined>).cursor;
    const page = await keysetPage(
      cursors,
      { list: 'dashboard_videos', limit: PAGE_SIZE, cursor, filters: { creator_id: user.id } },
      (after) => videos.list({ viewerId: user.id, creatorId: user.id, limit: PAGE_SIZE, after }),
      (row) => ({ sortKey: row.published_at ?? row.created_at, id: row.id }),
      (row) => row,
    );
    const deleted = (request.query as Record<string, string | undefined>).deleted === '1';
    const body = videoListBody(
      page.data,
      page.pagination.next_cursor,
      deleted ? 'Video deleted.' : undefined,
    );
    return sendPage(reply, renderPage({ title: 'Videos', request, body, section: 'videos', styles: STYLES }));
  });

  app.get(
    '/dashboard/videos/:id',
    { config: PAGE, schema: { hide: true, params: IdParams }, preHandler: owned.video.preHandler },
    async (request, reply) => {
      const video = owned.video.of(request);
      const body = videoPageBody(
        video,
        video.published_at === null ? null : urls.pathOf(urls.videoPlayback(video.id)),
        urls.pathOf(urls.videoPage(video.id)),
        (request.query as Record<string, string | undefined>).updated === '1'
          ? 'Video details saved.'
          : undefined,
      );
      return sendPage(
        reply,
        renderPage({
          title: video.title,
          request,
          body,
          section: 'videos',
          styles: STYLES,
          scripts: ['/assets/hls.min.js', '/assets/dashboard-video.js'],
        }),
      );
    },
  );
}
