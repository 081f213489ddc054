// The caller's own ingest settings: the server URL and their channel stream key, which stays in
// the streaming software across broadcasts. Per caller (no id in the path): a creator can read or
// reset only their own key, and only with a write-scoped key, since a key that may publish is as
// powerful as one that may reset it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../http/access.ts';
import { commonErrorResponses, ErrorResponse, NoQuery } from '../http/schemas.ts';
import type { PublicUrls } from '../shared/public-urls.ts';
import type { ChannelKeyService } from './channel-key.service.ts';
import { IngestSettings } from './ingest-settings.schemas.ts';
import { toIngestSettings } from './ingest-settings.serializer.ts';

export interface IngestSettingsRoutesOptions {
  channels: ChannelKeyService;
  urls: PublicUrls;
}

export const ingestSettingsRoutes: FastifyPluginAsyncTypebox<IngestSettingsRoutesOptions> = async (
  app,
  { channels, urls },
) => {
  app.get(
    '/ingest',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'getIngestSettings',
        summary: "The caller's RTMP server URL and channel stream key (created on first read)",
        tags: ['streams'],
        querystring: NoQuery,
        response: { 200: IngestSettings, 403: ErrorResponse, ...commonErrorResponses },
      },
    },
    async (request) => toIngestSettings(await channels.show(callerOf(request).userId), urls),
  );

  app.post(
    '/ingest/reset-key',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'resetChannelKey',
        summary: "Replace the caller's channel stream key; the old one stops working for new publishes",
        tags: ['streams'],
        querystring: NoQuery,
        response: { 200: IngestSettings, 403: ErrorResponse, ...commonErrorResponses },
      },
    },
    async (request) => toIngestSettings(await channels.reset(callerOf(request).userId), urls),
  );
};
