import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Services } from '../../container.ts';
import type { Flash } from '../session/flash.ts';
import type { ViewerSamples } from '../../streams/viewer-samples.ts';
import type { DeliveryChart } from '../../webhooks/delivery-chart.ts';
import type { OwnedResources } from './owned.ts';
import type { StreamEvents } from './stream-events.ts';

/** The dashboard's scope: routes' params typed from their TypeBox schemas. */
export type DashboardApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What the dashboard's routes use: the API's own services, and the few things of its own. */
export interface DashboardDeps {
  services: Services;
  /** A secret shown once on the page a form redirects to (a webhook's signing secret). */
  flash: Flash;
  samples: ViewerSamples;
  events: StreamEvents;
  deliveryChart: DeliveryChart;
  /** For a long-lived response: whether the session that opened it is still signed in. */
  sessionCheck: (request: FastifyRequest) => () => Promise<boolean>;
  /** The preHandlers that load the user's resource a route is on (owned.ts). */
  owned: OwnedResources;
}
