import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toIso } from '../shared/clock.ts';
import { callerOf } from '../http/access.ts';
import { commonErrorResponses, ErrorResponse, IdParams, NoQuery } from '../http/schemas.ts';
import { RotatedWebhook } from './webhook.schemas.ts';
import { toWebhook } from './webhook.serializer.ts';
import type { WebhookService } from './webhook.service.ts';

export interface SecretRotationRoutesOptions {
  webhooks: WebhookService;
}

export const secretRotationRoutes: FastifyPluginAsyncTypebox<SecretRotationRoutesOptions> = async (
  app,
  { webhooks },
) => {
  app.post(
    '/webhooks/:id/rotate-secret',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'rotateWebhookSecret',
        summary:
          'Replace the signing secret; the new one is shown only in this response, and deliveries carry signatures with both for 24 hours',
        tags: ['webhooks'],
        params: IdParams,
        querystring: NoQuery,
        response: { 200: RotatedWebhook, 403: ErrorResponse, 404: ErrorResponse, ...commonErrorResponses },
      },
    },
    async (request) => {
      const rotated = await webhooks.rotateSecret(callerOf(request).userId, request.params.id);
      return {
        ...toWebhook(rotated.row),
        secret: rotated.secret,
        previous_secret_expires_at: toIso(rotated.previousExpiresAt),
      };
    },
  );
};
