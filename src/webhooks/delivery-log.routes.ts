import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../http/access.ts';
import { keysetPage, type CursorCodec } from '../http/pagination.ts';
import { commonErrorResponses, ErrorResponse, NoQuery } from '../http/schemas.ts';
import {
  DeliveryDetail,
  DeliveryPage,
  DeliveryPathParams,
  DeliverySummary,
  ListDeliveriesQuery,
  WebhookPathParams,
} from './webhook-management.schemas.ts';
import { toDeliveryDetail, toDeliverySummary } from './webhook-management.serializer.ts';
import type { WebhookManagementService } from './webhook-management.service.ts';

export interface DeliveryLogRoutesOptions {
  management: WebhookManagementService;
  cursors: CursorCodec;
}

export const deliveryLogRoutes: FastifyPluginAsyncTypebox<DeliveryLogRoutesOptions> = async (
  app,
  { management, cursors },
) => {
  app.get(
    '/webhooks/:id/deliveries',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: "List a webhook's deliveries, newest first",
        tags: ['webhooks'],
        params: WebhookPathParams,
        querystring: ListDeliveriesQuery,
        response: { 200: DeliveryPage, 404: ErrorResponse, ...commonErrorResponses },
      },
    },
    async (request) => {
      const { limit = 20, cursor, status, event_type } = request.query;
      const webhookId = request.params.id;
      return keysetPage(
        cursors,
        // The webhook is one of the filters, so a cursor of one webhook's log is refused by another's.
        { list: 'webhook_deliveries', limit, cursor, filters: { webhook_id: webhookId, status, event_type } },
        (after) =>
          management.listDeliveries(callerOf(request).userId, webhookId, {
            status,
            eventType: event_type,
            after,
            take: limit + 1,
          }),
        (row) => ({ sortKey: row.created_at, id: row.id }),
        toDeliverySummary,
      );
    },
  );

  app.get(
    '/webhooks/:id/deliveries/:event_id',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'getWebhookDelivery',
        summary: "One event's delivery to this webhook, with all its attempts",
        tags: ['webhooks'],
        params: DeliveryPathParams,
        querystring: NoQuery,
        response: { 200: DeliveryDetail, 404: ErrorResponse, ...commonErrorResponses },
      },
    },
    async (request) =>
      toDeliveryDetail(
        await management.getDelivery(callerOf(request).userId, request.params.id, request.params.event_id),
      ),
  );

  app.post(
    '/webhooks/:id/deliveries/:event_id/resend',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'resendWebhookDelivery',
        summary: 'Send this event to this webhook again now, with the same event id',
        tags: ['webhooks'],
        params: DeliveryPathParams,
        querystring: NoQuery,
        response: {
          202: DeliverySummary,
          403: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
          ...commonErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const delivery = await management.resend(
        callerOf(request).userId,
        request.params.id,
        request.params.event_id,
      );
      return reply.code(202).send(toDeliverySummary(delivery));
    },
  );
};
