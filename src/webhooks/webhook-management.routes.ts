import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../http/access.ts';
import { commonErrorResponses, ErrorResponse, NoQuery } from '../http/schemas.ts';
import {
  RecoverBody,
  Recovery,
  RecoveryPathParams,
  TestWebhookResult,
  UpdateWebhookBody,
  WebhookPathParams,
} from './webhook-management.schemas.ts';
import { toRecovery } from './webhook-management.serializer.ts';
import type { WebhookManagementService } from './webhook-management.service.ts';
import { Webhook } from './webhook.schemas.ts';
import { toWebhook } from './webhook.serializer.ts';

export interface WebhookManagementRoutesOptions {
  management: WebhookManagementService;
}

const WEBHOOK_EXAMPLE = {
  id: 'wh_3fQk9ZrT1bX8cV2nM5pL7a',
  url: 'https://example.com/hooks/tributary',
  events: ['stream.started', 'stream.ended'],
  status: 'active',
  created_at: '2026-11-22T10:00:00.000Z',
};
const WebhookWithExample = { ...Webhook, examples: [WEBHOOK_EXAMPLE] };

export const webhookManagementRoutes: FastifyPluginAsyncTypebox<WebhookManagementRoutesOptions> = async (
  app,
  { management },
) => {
  app.get(
    '/webhooks/:id',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'getWebhook',
        summary: 'Retrieve a webhook (without its secret)',
        tags: ['webhooks'],
        params: WebhookPathParams,
        querystring: NoQuery,
        response: { 200: WebhookWithExample, 404: ErrorResponse, ...commonErrorResponses },
      },
    },
    async (request) => toWebhook(await management.get(callerOf(request).userId, request.params.id)),
  );

  app.patch(
    '/webhooks/:id',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'updateWebhook',
        summary: "Change a webhook's URL and/or events, checked as on creation",
        tags: ['webhooks'],
        params: WebhookPathParams,
        querystring: NoQuery,
        body: UpdateWebhookBody,
        response: {
          200: WebhookWithExample,
          403: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
          413: ErrorResponse,
          ...commonErrorResponses,
        },
      },
    },
    async (request) =>
      toWebhook(await management.update(callerOf(request).userId, request.params.id, request.body)),
  );

  app.post(
    '/webhooks/:id/enable',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'enableWebhook',
        summary: 'Make a disabled webhook active again, with its failure count reset',
        tags: ['webhooks'],
        params: WebhookPathParams,
        querystring: NoQuery,
        response: {
          200: WebhookWithExample,
          403: ErrorResponse,
          404: ErrorResponse,
          ...commonErrorResponses,
        },
      },
    },
    async (request) => toWebhook(await management.enable(callerOf(request).userId, request.params.id)),
  );

  app.post(
    '/webhooks/:id/test',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'testWebhook',
        summary: 'Send a ping to this webhook now, as an ordinary logged delivery',
        tags: ['webhooks'],
        params: WebhookPathParams,
        querystring: NoQuery,
        response: {
          202: TestWebhookResult,
          403: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
          ...commonErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const eventId = await management.test(callerOf(request).userId, request.params.id);
      return reply.code(202).send({ event_id: eventId, type: 'ping' as const });
    },
  );

  app.post(
    '/webhooks/:id/recover',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'recoverWebhook',
        summary: 'Send again, oldest first, the events of a time window this webhook did not receive',
        tags: ['webhooks'],
        params: WebhookPathParams,
        querystring: NoQuery,
        body: RecoverBody,
        response: {
          202: Recovery,
          403: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
          413: ErrorResponse,
          ...commonErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const recovery = await management.recover(callerOf(request).userId, request.params.id, request.body);
      return reply.code(202).send(toRecovery(recovery));
    },
  );

  app.get(
    '/webhooks/:id/recoveries/:recovery_id',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'getWebhookRecovery',
        summary: 'Follow a recovery: running until every event of its window is queued',
        tags: ['webhooks'],
        params: RecoveryPathParams,
        querystring: NoQuery,
        response: { 200: Recovery, 404: ErrorResponse, ...commonErrorResponses },
      },
    },
    async (request) =>
      toRecovery(
        await management.getRecovery(callerOf(request).userId, request.params.id, request.params.recovery_id),
      ),
  );
};
