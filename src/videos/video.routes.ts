import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../http/access.ts';
import { keysetPage, type CursorCodec } from '../http/pagination.ts';
import { commonErrorResponses, ErrorResponse, IdParams, NoQuery } from '../http/schemas.ts';
import type { PublicUrls } from '../shared/public-urls.ts';
import { DeletedVideo, ListVideosQuery, UpdateVideoBody, VideoDetail, VideoPage } from './video.schemas.ts';
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

  app.patch(
    '/videos/:id',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'updateVideo',
        summary: "Change a published video's details (creator only)",
        tags: ['videos'],
        params: IdParams,
        querystring: NoQuery,
        body: UpdateVideoBody,
        response: {
          200: VideoDetail,
          403: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
          413: ErrorResponse,
          ...commonErrorResponses,
        },
      },
    },
    async (request) => {
      const body = request.body;
      const updated = await videos.update(request.params.id, callerOf(request).userId, {
        title: body.title,
        description: body.description,
        category: body.category,
        privacy: body.privacy,
        tags: body.tags,
        chapters: body.chapters,
      });
      return toVideoDetail(updated, urls);
    },
  );

  app.delete(
    '/videos/:id',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'deleteVideo',
        summary: 'Delete a published video and its media for good (creator only)',
        tags: ['videos'],
        params: IdParams,
        querystring: NoQuery,
        response: {
          200: DeletedVideo,
          403: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
          ...commonErrorResponses,
        },
      },
    },
    async (request) => {
      await videos.delete(request.params.id, callerOf(request).userId);
      return { deleted: true as const, id: request.params.id };
    },
  );
};
