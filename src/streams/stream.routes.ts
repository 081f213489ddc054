import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { CursorCodec } from '../http/pagination.ts';
import { keysetPage } from '../http/pagination.ts';
import { callerOf } from '../http/access.ts';
import { commonErrorResponses, ErrorResponse, IdParams, NoQuery } from '../http/schemas.ts';
import type { StreamHealth } from '../ingest/health/stream-health.ts';
import type { PublicUrls } from '../shared/public-urls.ts';
import type { Principal } from '../accounts/account.service.ts';
import {
  CreateStreamBody,
  DeletedStream,
  ListStreamsQuery,
  StreamDetail,
  StreamPage,
  UpdateStreamBody,
} from './stream.schemas.ts';
import { toStreamDetail, toStreamListItem } from './stream.serializer.ts';
import type { StreamService } from './stream.service.ts';

export interface StreamRoutesOptions {
  streams: StreamService;
  cursors: CursorCodec;
  urls: PublicUrls;
  /** Encoder health, measured by whichever ingest process holds the stream (creator only, with the key). */
  health?: Pick<StreamHealth, 'report'>;
}

export const streamRoutes: FastifyPluginAsyncTypebox<StreamRoutesOptions> = async (
  app,
  { streams, cursors, urls, health },
) => {
  app.get(
    '/streams',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'listStreams',
        summary: 'List streams, newest first',
        tags: ['streams'],
        querystring: ListStreamsQuery,
        response: { 200: StreamPage, ...commonErrorResponses },
      },
    },
    async (request) => {
      const { limit = 20, cursor, ...filters } = request.query;
      return keysetPage(
        cursors,
        { list: 'streams', limit, cursor, filters },
        (after) =>
          streams.list({
            viewerId: callerOf(request).userId,
            status: filters.status,
            creatorId: filters.creator_id,
            category: filters.category,
            limit,
            after,
          }),
        (row) => ({ sortKey: row.created_at, id: row.id }),
        (row) => toStreamListItem(row, urls),
      );
    },
  );

  app.get(
    '/streams/:id',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'getStream',
        summary: 'Retrieve a stream',
        tags: ['streams'],
        params: IdParams,
        querystring: NoQuery,
        response: { 200: StreamDetail, 404: ErrorResponse, ...commonErrorResponses },
      },
    },
    async (request) => detailFor(request.params.id, callerOf(request)),
  );

  /** The detail object as GET /streams/{id} gives it to this caller (the key and health to its creator). */
  async function detailFor(id: string, caller: Pick<Principal, 'userId' | 'scope'>) {
    const { stream, streamKey } = await streams.getWithKey(id, caller);
    const measured = streamKey === undefined ? null : ((await health?.report(stream)) ?? null);
    return toStreamDetail(stream, urls, streamKey, measured);
  }

  app.post(
    '/streams',
    {
      config: { access: 'write', idempotent: true },
      schema: {
        operationId: 'createStream',
        summary: 'Create a stream, scheduled or in standby',
        tags: ['streams'],
        querystring: NoQuery,
        body: CreateStreamBody,
        response: { 201: StreamDetail, 403: ErrorResponse, 413: ErrorResponse, ...commonErrorResponses },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const created = await streams.create(callerOf(request).userId, {
        title: body.title,
        description: body.description,
        scheduledAt: body.scheduled_at,
        category: body.category,
        privacy: body.privacy,
        record: body.record,
        latencyMode: body.latency_mode,
      });
      return reply.code(201).send(toStreamDetail(created.stream, urls, created.streamKey));
    },
  );

  app.post(
    '/streams/:id/reset-stream-key',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'resetStreamKey',
        summary: "Replace a stream's secret stream key (creator only)",
        tags: ['streams'],
        params: IdParams,
        querystring: NoQuery,
        response: { 200: StreamDetail, 403: ErrorResponse, 404: ErrorResponse, ...commonErrorResponses },
      },
    },
    async (request) => {
      const reset = await streams.resetStreamKey(request.params.id, callerOf(request).userId);
      return toStreamDetail(reset.stream, urls, reset.streamKey);
    },
  );

  app.patch(
    '/streams/:id',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'updateStream',
        summary: "Change a stream's details (creator only); when it goes live only before it has",
        tags: ['streams'],
        params: IdParams,
        querystring: NoQuery,
        body: UpdateStreamBody,
        response: {
          200: StreamDetail,
          403: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
          413: ErrorResponse,
          ...commonErrorResponses,
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const body = request.body;
      await streams.update(request.params.id, caller.userId, {
        title: body.title,
        description: body.description,
        category: body.category,
        privacy: body.privacy,
        scheduledAt: body.scheduled_at,
        latencyMode: body.latency_mode,
      });
      return detailFor(request.params.id, caller);
    },
  );

  app.delete(
    '/streams/:id',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'deleteStream',
        summary: 'Delete a stream that is not live (creator only); videos recorded from it stay',
        tags: ['streams'],
        params: IdParams,
        querystring: NoQuery,
        response: {
          200: DeletedStream,
          403: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
          ...commonErrorResponses,
        },
      },
    },
    async (request) => {
      await streams.delete(request.params.id, callerOf(request).userId);
      return { deleted: true as const, id: request.params.id };
    },
  );

  app.post(
    '/streams/:id/end',
    {
      config: { access: 'write', idempotent: true },
      schema: {
        operationId: 'endStream',
        summary: 'End a live stream (creator only): the encoder is disconnected, the recording kept',
        tags: ['streams'],
        params: IdParams,
        querystring: NoQuery,
        response: {
          200: StreamDetail,
          403: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
          ...commonErrorResponses,
        },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      await streams.endByCreator(request.params.id, caller.userId);
      return detailFor(request.params.id, caller);
    },
  );
};
