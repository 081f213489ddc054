import type { FastifyRequest } from 'fastify';
import type { Services } from '../../container.ts';
import type { ViewerSamples } from '../../streams/viewer-samples.ts';
import type { DeliveryChart } from '../../webhooks/delivery-chart.ts';
import type { StreamEvents } from './stream-events.ts';

/** What the dashboard's routes use: the API's own services, and the few things of its own. */
export interface DashboardDeps {
  services: Services;
  samples: ViewerSamples;
  events: StreamEvents;
  deliveryChart: DeliveryChart;
  /** For a long-lived response: whether the session that opened it is still signed in. */
  sessionCheck: (request: FastifyRequest) => () => Promise<boolean>;
}
