// Starts a delivery worker over a runtime's database and configuration: what `serve` and
// `tributary worker` share.
import type { Logger } from 'pino';
import type { Runtime } from '../../runtime.ts';
import { DeliveryWorker } from './worker.ts';

export async function startDeliveryWorker(runtime: Runtime, logger: Logger): Promise<DeliveryWorker> {
  const { config, services } = runtime;
  const worker = new DeliveryWorker({
    database: services.database,
    clock: services.clock,
    config: config.webhooks,
    secrets: services.webhookSecrets,
    logger,
    listenUrl: config.databaseUrl,
  });
  await worker.start();
  return worker;
}
