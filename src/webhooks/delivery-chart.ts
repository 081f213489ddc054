// Deliveries over time for the dashboard's chart: the attempts of the last day to one webhook,
// counted per minute (per hour when they span more than a few hours) as succeeded (a 2xx
// answer) or failed (anything else, or no answer). Only the webhook's owner gets it.
import type { Db } from '../db/database.ts';
import type { Clock } from '../shared/clock.ts';
import { attemptOutcomes } from './delivery-chart.repository.ts';
import type { WebhookManagementService } from './webhook-management.service.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const WINDOW_MS = 24 * HOUR_MS;
/** Attempts read at most: the delivery worker's limits keep a day's attempts far below this. */
const MAX_ATTEMPTS = 20_000;

export interface DeliverySeries {
  bucketMs: number;
  /** [bucket start (epoch ms), succeeded, failed], oldest first, empty buckets left out. */
  points: [number, number, number][];
}

export class DeliveryChart {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly management: WebhookManagementService;

  constructor(db: Db, clock: Clock, management: WebhookManagementService) {
    this.db = db;
    this.clock = clock;
    this.management = management;
  }

  async series(accountId: string, webhookId: string): Promise<DeliverySeries> {
    await this.management.get(accountId, webhookId);
    const rows = await attemptOutcomes(this.db, webhookId, this.clock.now() - WINDOW_MS, MAX_ATTEMPTS);
    const first = rows[0]?.started_at;
    const last = rows.at(-1)?.started_at;
    const bucketMs =
      first !== undefined && last !== undefined && last - first > 3 * HOUR_MS ? HOUR_MS : MINUTE_MS;
    const buckets = new Map<number, [number, number, number]>();
    for (const row of rows) {
      const start = Math.floor(row.started_at / bucketMs) * bucketMs;
      const point = buckets.get(start) ?? [start, 0, 0];
      const ok = row.status_code !== null && row.status_code >= 200 && row.status_code < 300;
      point[ok ? 1 : 2] += 1;
      buckets.set(start, point);
    }
    return { bucketMs, points: [...buckets.values()] };
  }
}
