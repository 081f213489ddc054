// Webhook commands: the delivery worker on its own, and the operator's view of and hand on
// a webhook's deliveries.
import type { Runtime } from '../runtime.ts';
import { toIso } from '../shared/clock.ts';
import { createLogger } from '../shared/logger.ts';
import { startDeliveryWorker } from '../webhooks/delivery/worker-runner.ts';
import type { Command } from './operator-commands.ts';
import { parse, requireInteger, requireString } from './args.ts';

export const WORKER_USAGE =
  'tributary worker\n  Runs the webhook delivery worker alone (no API), until SIGTERM or SIGINT.';

/** `tributary worker`: runs until a signal, then stops gracefully (nothing left claimed). */
export async function runWorker(runtime: Runtime): Promise<void> {
  const logger = createLogger(runtime.config.logLevel);
  const worker = await startDeliveryWorker(runtime, logger);
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      logger.info({ signal }, 'stopping the delivery worker');
      resolve();
    };
    // Kept installed (as in serve): a second signal while stopping, say a process manager's
    // SIGTERM followed by a Ctrl-C, must not kill the worker with attempts half recorded.
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  await worker.stop();
}

export const webhooksDeliveries: Command = {
  usage:
    'tributary webhooks deliveries WH [--limit N]\n  Lists the recent events of a webhook (newest first, default 20) with each attempt.',
  async run(runtime, argv, out) {
    const { values, positionals } = parse(argv, { limit: { type: 'string' } }, this.usage);
    const webhookId = requireString(positionals[0], 'WH', this.usage);
    const limit = values.limit === undefined ? 20 : requireInteger(values.limit, '--limit', this.usage);
    const reports = await runtime.services.webhooks.recentDeliveries(
      webhookId,
      Math.min(Math.max(limit, 1), 1000),
    );
    if (reports.length === 0) out('no deliveries yet');
    for (const report of reports) {
      const next = report.status === 'pending' ? `\tnext ${toIso(report.nextAttemptAt)}` : '';
      out(
        `${report.eventId}\t${report.eventType}\t${report.status}\t${report.attemptCount} attempt(s)${next}`,
      );
      for (const attempt of report.attempts) {
        const result =
          attempt.status_code === null ? (attempt.error ?? 'no answer') : `HTTP ${attempt.status_code}`;
        const excerpt = attempt.response_excerpt
          ? `\t${JSON.stringify(attempt.response_excerpt.slice(0, 80))}`
          : '';
        out(
          `  #${attempt.attempt_number}\t${toIso(attempt.started_at)}\t${result}\t${attempt.latency_ms} ms${excerpt}`,
        );
      }
    }
  },
};

export const webhooksRetry: Command = {
  usage:
    'tributary webhooks retry EVT --webhook WH\n  Sends an event that failed for a webhook again, with the same evt_ id.',
  async run(runtime, argv, out) {
    const { values, positionals } = parse(argv, { webhook: { type: 'string' } }, this.usage);
    const eventId = requireString(positionals[0], 'EVT', this.usage);
    const webhookId = requireString(values.webhook, '--webhook', this.usage);
    await runtime.services.webhooks.retryFailed(eventId, webhookId);
    out(`${eventId} will be sent to ${webhookId} again by the delivery worker`);
  },
};
