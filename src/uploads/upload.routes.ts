import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../http/access.ts';
import { keysetPage, type CursorCodec } from '../http/pagination.ts';
import { commonErrorResponses, ErrorResponse, IdParams, NoQuery } from '../http/schemas.ts';
import { CreateUploadBody, ListUploadsQuery, Upload, UploadPage } from './upload.schemas.ts';
import { toUpload } from './upload.serializer.ts';
import type { UploadService } from './upload.service.ts';

export interface UploadRoutesOptions {
  uploads: UploadService;
  cursors: CursorCodec;
}

export const uploadRoutes: FastifyPluginAsyncTypebox<UploadRoutesOptions> = async (
  app,
  { uploads, cursors },
) => {
  app.post(
    '/uploads',
    {
      config: { access: 'write', idempotent: true },
      schema: {
        operationId: 'createUpload',
        summary: 'Start an upload: declare the file and the video, get a tus URL to send the bytes to',
        tags: ['uploads'],
        querystring: NoQuery,
        body: CreateUploadBody,
        response: {
          201: Upload,
          403: ErrorResponse,
          409: ErrorResponse,
          413: ErrorResponse,
          ...commonErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const { size, title, description, category, privacy, tags, chapters } = request.body;
      const created = await uploads.create({
        creatorId: callerOf(request).userId,
        size,
        title,
        description,
        category,
        privacy,
        tags,
        chapters,
      });
      return reply.code(201).send(toUpload(created, uploads.urls));
    },
  );

  app.get(
    '/uploads',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'listUploads',
        summary: "List the account's uploads, newest first",
        tags: ['uploads'],
        querystring: ListUploadsQuery,
        response: { 200: UploadPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      const { limit = 20, cursor } = request.query;
      const creatorId = callerOf(request).userId;
      return keysetPage(
        cursors,
        { list: 'uploads', limit, cursor, filters: { account: creatorId } },
        (after) => uploads.list(creatorId, after, limit + 1),
        (row) => ({ sortKey: row.created_at, id: row.id }),
        (row) => toUpload(row, uploads.urls),
      );
    },
  );

  app.get(
    '/uploads/:id',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'getUpload',
        summary: 'Retrieve an upload: its status, progress and, once ready, its video',
        tags: ['uploads'],
        params: IdParams,
        querystring: NoQuery,
        response: { 200: Upload, 404: ErrorResponse, ...commonErrorResponses },
      },
    },
    async (request) => toUpload(await uploads.get(request.params.id, callerOf(request).userId), uploads.urls),
  );

  app.delete(
    '/uploads/:id',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'cancelUpload',
        summary: 'Cancel an upload that is still waiting for or receiving bytes; its bytes are removed',
        tags: ['uploads'],
        params: IdParams,
        querystring: NoQuery,
        response: {
          200: Upload,
          403: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
          ...commonErrorResponses,
        },
      },
    },
    async (request) =>
      toUpload(await uploads.cancel(request.params.id, callerOf(request).userId), uploads.urls),
  );
};
