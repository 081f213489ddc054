// The creator's dashboard under /dashboard: streams, videos and webhooks. Every page calls the
// same services as the API; the few reads it adds (viewer samples, delivery counts) live in
// their features' repositories. Every route is the signed-in user's: one preHandler sends a
// visitor to sign in, and a route on one of their resources has it loaded by another (owned.ts).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { WebRoutesOptions } from '../web-options.ts';
import { ViewerSamples } from '../../streams/viewer-samples.ts';
import { DeliveryChart } from '../../webhooks/delivery-chart.ts';
import { PAGE, signedIn } from './core.ts';
import type { DashboardDeps } from './dashboard.deps.ts';
import { ownedResources } from './owned.ts';
import { StreamEvents } from './stream-events.ts';
import { healthPanelContent } from './health-pages.ts';
import { dashboardStreamManageRoutes } from './stream-manage.routes.ts';
import { dashboardStreamRoutes } from './streams.routes.ts';
import { dashboardGoLiveRoutes } from './go-live.routes.ts';
import { dashboardSimulcastRoutes } from './simulcast.routes.ts';
import { dashboardVideoManageRoutes } from './video-manage.routes.ts';
import { dashboardUploadRoutes } from './uploads.routes.ts';
import { dashboardVideoRoutes } from './videos.routes.ts';
import { dashboardWebhookRoutes } from './webhooks.routes.ts';
import { dashboardChatRoutes } from './chat.routes.ts';
import { orMissing } from './not-found.ts';

export async function dashboardRoutes(parent: FastifyInstance, options: WebRoutesOptions): Promise<void> {
  const { services } = options;
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  app.addHook('preHandler', signedIn);
  const events = new StreamEvents({
    readStream: (id) => orMissing(services.streams.get(id)),
    now: () => services.clock.now(),
    healthHtml: async (stream) => healthPanelContent(await services.streamHealth.report(stream)).toString(),
    onError: (error) => {
      app.log.warn({ err: error }, 'dashboard stream events failed');
    },
  });
  // Open event streams would keep a graceful shutdown waiting: they end as it begins.
  app.addHook('preClose', async () => {
    events.closeAll();
  });
  const deps: DashboardDeps = {
    services,
    flash: options.flash,
    samples: new ViewerSamples(services.database.db, services.clock),
    events,
    deliveryChart: new DeliveryChart(services.database.db, services.clock, services.webhookManagement),
    // A live connection ends once its session does (sign-out, sign-out everywhere, expiry).
    sessionCheck: (request) => {
      const token = request.webSessionToken;
      return async () => token !== null && (await services.sessions.resume(token)) !== undefined;
    },
    owned: ownedResources(app, services),
  };

  app.get('/dashboard', { config: PAGE, schema: { hide: true } }, async (_request, reply) =>
    reply.redirect('/dashboard/streams', 303),
  );
  await dashboardStreamRoutes(app, deps);
  await dashboardGoLiveRoutes(app, deps);
  await dashboardStreamManageRoutes(app, deps);
  await dashboardSimulcastRoutes(app, deps);
  await dashboardVideoRoutes(app, deps);
  await dashboardChatRoutes(app, deps);
  await dashboardVideoManageRoutes(app, deps);
  await dashboardUploadRoutes(app, deps);
  await dashboardWebhookRoutes(app, deps);
}
