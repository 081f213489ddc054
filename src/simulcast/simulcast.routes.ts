// A creator's simulcast destinations: a stream's own under /streams/{id}/simulcast-targets, and
// the channel defaults every new stream starts with under /ingest/simulcast-targets. All need a
// write-scoped key, reads included (like GET /ingest): a destination's URL says where the creator
// publishes, and a key that may publish is as powerful as one that may reset it. Owner only:
// another account's stream or destination answers 404 as a missing one does.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../http/access.ts';
import { commonErrorResponses, ErrorResponse, IdParams, NoQuery } from '../http/schemas.ts';
import {
  CreateSimulcastTargetBody,
  DeletedSimulcastTarget,
  SimulcastTarget,
  SimulcastTargetList,
  StreamTargetParams,
  TargetParams,
  UpdateSimulcastTargetBody,
} from './simulcast.schemas.ts';
import { toSimulcastTarget } from './simulcast.serializer.ts';
import type { SimulcastService, TargetOwner } from './simulcast.service.ts';

export interface SimulcastRoutesOptions {
  simulcast: SimulcastService;
}

const NOTE =
  ' Changes to a destination of a live stream take effect at its next publish (a reconnect or the next stream).';

export const simulcastRoutes: FastifyPluginAsyncTypebox<SimulcastRoutesOptions> = async (
  app,
  { simulcast },
) => {
  // Each resource's five operations, once for a stream's destinations and once for the defaults.
  const kinds = [
    {
      base: '/streams/:id/simulcast-targets',
      one: '/streams/:id/simulcast-targets/:target_id',
      names: {
        create: 'createStreamSimulcastTarget',
        list: 'listStreamSimulcastTargets',
        get: 'getStreamSimulcastTarget',
        update: 'updateStreamSimulcastTarget',
        delete: 'deleteStreamSimulcastTarget',
      },
      what: "the stream's",
      listParams: IdParams,
      oneParams: StreamTargetParams,
      owner: (params: { id?: string }): TargetOwner => params.id ?? null,
    },
    {
      base: '/ingest/simulcast-targets',
      one: '/ingest/simulcast-targets/:target_id',
      names: {
        create: 'createSimulcastDefault',
        list: 'listSimulcastDefaults',
        get: 'getSimulcastDefault',
        update: 'updateSimulcastDefault',
        delete: 'deleteSimulcastDefault',
      },
      what: "the caller's default (copied into every stream created afterwards)",
      listParams: undefined,
      oneParams: TargetParams,
      owner: (): TargetOwner => null,
    },
  ] as const;

  for (const kind of kinds) {
    app.post(
      kind.base,
      {
        config: { access: 'write', idempotent: true },
        schema: {
          operationId: kind.names.create,
          summary: `Add a simulcast destination to ${kind.what}; at most 5`,
          description: `Stream copy to another platform's RTMP or RTMPS ingest. The stream key is stored sealed and never returned (only \`stream_key_hint\`).${NOTE}`,
          tags: ['simulcast'],
          ...(kind.listParams ? { params: kind.listParams } : {}),
          querystring: NoQuery,
          body: CreateSimulcastTargetBody,
          response: {
            201: SimulcastTarget,
            403: ErrorResponse,
            404: ErrorResponse,
            409: ErrorResponse,
            413: ErrorResponse,
            ...commonErrorResponses,
          },
        },
      },
      async (request, reply) => {
        const body = request.body;
        const created = await simulcast.create(
          callerOf(request).userId,
          kind.owner(request.params as { id?: string }),
          { url: body.url, streamKey: body.stream_key, name: body.name, enabled: body.enabled },
        );
        return reply.code(201).send(toSimulcastTarget(created));
      },
    );

    app.get(
      kind.base,
      {
        config: { access: 'write' },
        schema: {
          operationId: kind.names.list,
          summary: `List ${kind.what.replace(/ \(.*\)$/, '')} simulcast destinations, oldest first`,
          tags: ['simulcast'],
          ...(kind.listParams ? { params: kind.listParams } : {}),
          querystring: NoQuery,
          response: {
            200: SimulcastTargetList,
            403: ErrorResponse,
            404: ErrorResponse,
            ...commonErrorResponses,
          },
        },
      },
      async (request) => {
        const rows = await simulcast.list(
          callerOf(request).userId,
          kind.owner(request.params as { id?: string }),
        );
        return { data: rows.map(toSimulcastTarget) };
      },
    );

    app.get(
      kind.one,
      {
        config: { access: 'write' },
        schema: {
          operationId: kind.names.get,
          summary: 'Retrieve a simulcast destination, with its state',
          tags: ['simulcast'],
          params: kind.oneParams,
          querystring: NoQuery,
          response: { 200: SimulcastTarget, 403: ErrorResponse, 404: ErrorResponse, ...commonErrorResponses },
        },
      },
      async (request) => {
        const params = request.params as { id?: string; target_id: string };
        return toSimulcastTarget(
          await simulcast.get(callerOf(request).userId, kind.owner(params), params.target_id),
        );
      },
    );

    app.patch(
      kind.one,
      {
        config: { access: 'write' },
        schema: {
          operationId: kind.names.update,
          summary: "Change a simulcast destination's URL, key, name or whether it is enabled",
          description: `Only the fields given change; \`name: null\` clears the label.${NOTE}`,
          tags: ['simulcast'],
          params: kind.oneParams,
          querystring: NoQuery,
          body: UpdateSimulcastTargetBody,
          response: {
            200: SimulcastTarget,
            403: ErrorResponse,
            404: ErrorResponse,
            413: ErrorResponse,
            ...commonErrorResponses,
          },
        },
      },
      async (request) => {
        const params = request.params as { id?: string; target_id: string };
        const body = request.body;
        const updated = await simulcast.update(
          callerOf(request).userId,
          kind.owner(params),
          params.target_id,
          {
            url: body.url,
            streamKey: body.stream_key,
            name: body.name,
            enabled: body.enabled,
          },
        );
        return toSimulcastTarget(updated);
      },
    );

    app.delete(
      kind.one,
      {
        config: { access: 'write' },
        schema: {
          operationId: kind.names.delete,
          summary: 'Delete a simulcast destination (a live stream stops sending there at its next publish)',
          tags: ['simulcast'],
          params: kind.oneParams,
          querystring: NoQuery,
          response: {
            200: DeletedSimulcastTarget,
            403: ErrorResponse,
            404: ErrorResponse,
            ...commonErrorResponses,
          },
        },
      },
      async (request) => {
        const params = request.params as { id?: string; target_id: string };
        await simulcast.delete(callerOf(request).userId, kind.owner(params), params.target_id);
        return { deleted: true as const, id: params.target_id };
      },
    );
  }
};
