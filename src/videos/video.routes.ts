import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../http/access.ts';
import { keysetPage, type CursorCodec } from '../http/pagination.ts';
import { commonErrorResponses, ErrorResponse, IdParams, NoQuery } from '../http/schemas.ts';
import type { PublicUrls } from '../shared/public-urls.ts';
import { ListVideosQuery, VideoDetail, VideoPage } from './video.schemas.ts';
import { toVideoDetail, toVideoListItem } from './video.serializer.ts';
import type { VideoService } from './video.service.ts';

export interface VideoRoutesOptions {
  videos: VideoService;
  cursors: CursorCodec;
  urls: PublicUrls;
}

export const videoRoutes: FastifyPluginAsyncTypebox<VideoRoutesOptions> = async (
  app,
  { videos, cursors, urls },
) => {
  app.get(
    '/videos',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'listVideos',
        summary: 'List published videos, newest first',
        tags: ['videos'],
        querystring: ListVideosQuery,
        response: { 200: VideoPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      const { limit = 20, cursor, ...filters } = request.query;
      return keysetPage(
        cursors,
        { list: 'videos', limit, cursor, filters },
        (after) =>
          videos.list({
            viewerId: callerOf(request).userId,
            creatorId: filters.creator_id,
            category: filters.category,
            limit,
            after,
          }),
        (row) => ({ sortKey: row.published_at ?? row.created_at, id: row.id }),
        (row) => toVideoListItem(row, urls),
      );
    },
  );

  app.get(
    '/videos/:id',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'getVideo',
        summary: 'Retrieve a video',
        tags: ['videos'],
        params: IdParams,
        querystring: NoQuery,
        response: { 200: VideoDetail, 404: ErrorResponse, ...commonErrorResponses },
      },
    },
    async (request) => toVideoDetail(await videos.get(request.params.id, callerOf(request).userId), urls),
  );
};
