import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../http/access.ts';
import { commonErrorResponses, ErrorResponse, IdParams, NoQuery } from '../http/schemas.ts';
import { CreatedWebhook, CreateWebhookBody, DeletedWebhook, WebhookList } from './webhook.schemas.ts';
import { toWebhook } from './webhook.serializer.ts';
import type { WebhookService } from './webhook.service.ts';

export interface WebhookRoutesOptions {
  webhooks: WebhookService;
}

export const webhookRoutes: FastifyPluginAsyncTypebox<WebhookRoutesOptions> = async (app, { webhooks }) => {
  app.post(
    '/webhooks',
    {
      config: { access: 'write', idempotent: true },
      schema: {
        operationId: 'createWebhook',
        summary: 'Register a webhook; its secret is shown only in this response, and a ping follows',
        tags: ['webhooks'],
        querystring: NoQuery,
        body: CreateWebhookBody,
        response: {
          201: CreatedWebhook,
          403: ErrorResponse,
          409: ErrorResponse,
          413: ErrorResponse,
          ...commonErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const { row, secret } = await webhooks.register(callerOf(request).userId, request.body);
      return reply.code(201).send({ ...toWebhook(row), secret });
    },
  );

  app.get(
    '/webhooks',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'listWebhooks',
        summary: "List the account's webhooks (without secrets)",
        tags: ['webhooks'],
        querystring: NoQuery,
        response: { 200: WebhookList, ...commonErrorResponses },
      },
    },
    async (request) => ({ data: (await webhooks.list(callerOf(request).userId)).map(toWebhook) }),
  );

  app.delete(
    '/webhooks/:id',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook for good; deliveries to it stop at once',
        tags: ['webhooks'],
        params: IdParams,
        querystring: NoQuery,
        response: { 200: DeletedWebhook, 403: ErrorResponse, 404: ErrorResponse, ...commonErrorResponses },
      },
    },
    async (request) => {
      await webhooks.delete(callerOf(request).userId, request.params.id);
      return { deleted: true as const, id: request.params.id };
    },
  );
};
