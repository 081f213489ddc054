// The Prometheus endpoint: GET /metrics on a listener of its own (METRICS_PORT, loopback unless
// METRICS_HOST says otherwise), never on the public port, and behind METRICS_TOKEN when one is
// set. What the process counted (src/metrics/process-metrics.ts) is joined at each scrape by
// what is read then: the database's webhook queue, live streams and views, this process's
// ingest and ladder budget, the PostgreSQL pool, and Node's own figures (memory, event-loop
// delay). Labels are bounded: no id of anything.
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { DatabaseHandle } from '../db/database.ts';
import type { IngestHealthBoard } from '../ingest/health/health-board.ts';
import { processRegistry } from '../metrics/process-metrics.ts';
import type { Clock } from '../shared/clock.ts';

export interface MetricsServerOptions {
  port: number;
  host: string;
  token: string | undefined;
  database: DatabaseHandle;
  clock: Clock;
  ingestHealth: IngestHealthBoard;
  /** The ladder's budget, when this process runs the ingest with TRANSCODE=auto. */
  transcodeBudget?: () => { usedCores(): number; limitCores: number } | undefined;
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

// Node's figures belong to the process, collected once however many endpoints it opens.
let defaultMetricsCollected = false;

export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  if (!defaultMetricsCollected) {
    collectDefaultMetrics({ register: processRegistry, prefix: 'tributary_' });
    defaultMetricsCollected = true;
  }
  const scraped = new Registry();
  defineReadings(scraped, options);
  const registry = Registry.merge([processRegistry, scraped]);
  const expected = options.token === undefined ? undefined : Buffer.from(`Bearer ${options.token}`);

  const server = http.createServer((request, response) => {
    const answer = (status: number, body: string, type = 'text/plain; charset=utf-8') => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(body);
    };
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      answer(404, 'Not found: the metrics are at /metrics.\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      answer(405, 'GET /metrics only.\n');
      return;
    }
    if (expected !== undefined) {
      const given = Buffer.from(request.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        response.setHeader('www-authenticate', 'Bearer');
        answer(401, 'Send Authorization: Bearer <METRICS_TOKEN>.\n');
        return;
      }
    }
    registry.metrics().then(
      (text) => {
        answer(200, text, registry.contentType);
      },
      (error: unknown) => {
        answer(500, `metrics failed: ${error instanceof Error ? error.message : 'unknown'}\n`);
      },
    );
  });
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

function gauge(registry: Registry, name: string, help: string, collect: (g: Gauge) => void | Promise<void>) {
  return new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      await collect(this);
    },
  });
}

function labelledGauge(
  registry: Registry,
  name: string,
  help: string,
  label: string,
  collect: (g: Gauge) => void | Promise<void>,
) {
  return new Gauge({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    async collect() {
      this.reset();
      await collect(this);
    },
  });
}

/** Figures read at scrape time: the database's (shared by every process) and this process's. */
function defineReadings(registry: Registry, options: MetricsServerOptions): void {
  const { db } = options.database;
  const count = async (query: Promise<{ n: unknown } | undefined>) => Number((await query)?.n ?? 0);

  gauge(
    registry,
    'tributary_webhook_queue_depth',
    'Webhook deliveries waiting to be sent or being sent (all processes).',
    async (g) => {
      g.set(
        await count(
          db
            .selectFrom('webhook_deliveries')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('status', 'in', ['pending', 'sending'])
            .executeTakeFirst(),
        ),
      );
    },
  );
  gauge(
    registry,
    'tributary_webhook_oldest_due_seconds',
    'How long the longest-waiting due delivery has been due (0 when none is).',
    async (g) => {
      const now = options.clock.now();
      const row = await db
        .selectFrom('webhook_deliveries')
        .select(sql<string | number | null>`min(next_attempt_at)`.as('due'))
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .executeTakeFirst();
      const due = row?.due == null ? undefined : Number(row.due);
      g.set(due === undefined ? 0 : Math.max(0, (now - due) / 1000));
    },
  );
  gauge(
    registry,
    'tributary_webhooks_disabled',
    'Webhooks disabled (by failures, 410 or their owner).',
    async (g) => {
      g.set(
        await count(
          db
            .selectFrom('webhooks')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('status', '=', 'disabled')
            .executeTakeFirst(),
        ),
      );
    },
  );
  gauge(registry, 'tributary_live_streams', 'Streams live now (all processes).', async (g) => {
    g.set(
      await count(
        db
          .selectFrom('streams')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('status', '=', 'live')
          .executeTakeFirst(),
      ),
    );
  });
  gauge(registry, 'tributary_live_viewers', 'Viewers of live streams now, added up.', async (g) => {
    const row = await db
      .selectFrom('streams')
      .select(sql<string | number | null>`sum(viewer_count)`.as('n'))
      .where('status', '=', 'live')
      .executeTakeFirst();
    g.set(Number(row?.n ?? 0));
  });
  gauge(
    registry,
    'tributary_video_views',
    'Views counted on videos, added up (it only grows).',
    async (g) => {
      const row = await db
        .selectFrom('videos')
        .select(sql<string | number | null>`sum(view_count)`.as('n'))
        .executeTakeFirst();
      g.set(Number(row?.n ?? 0));
    },
  );

  labelledGauge(
    registry,
    'tributary_ingest_streams',
    "Publishes this process's ingest holds, by state (publishing, reconnecting).",
    'state',
    (g) => {
      const summary = options.ingestHealth.summary();
      g.set({ state: 'publishing' }, summary.publishing);
      g.set({ state: 'reconnecting' }, summary.reconnecting);
    },
  );
  gauge(
    registry,
    'tributary_ingest_bitrate_kbps',
    "Current bitrate of this process's publishers, added up, in kbit/s.",
    (g) => {
      g.set(options.ingestHealth.summary().bitrateKbps);
    },
  );
  labelledGauge(
    registry,
    'tributary_ingest_health_warnings',
    "This process's publishes showing each encoder-health warning now, by code.",
    'code',
    (g) => {
      for (const [code, streams] of Object.entries(options.ingestHealth.summary().warnings)) {
        g.set({ code }, streams ?? 0);
      }
    },
  );
  labelledGauge(
    registry,
    'tributary_transcode_budget_cores',
    "The ladder's CPU budget on this process's machine: cores in use and the limit (TRANSCODE=auto).",
    'kind',
    (g) => {
      const budget = options.transcodeBudget?.();
      if (budget === undefined) return;
      g.set({ kind: 'used' }, budget.usedCores());
      g.set({ kind: 'limit' }, budget.limitCores);
    },
  );
  labelledGauge(
    registry,
    'tributary_db_pool_connections',
    "This process's PostgreSQL pool: connections by state (in_use, idle, waiting requests, max). Absent on SQLite.",
    'state',
    (g) => {
      const use = options.database.poolUse?.();
      if (use === undefined) return;
      g.set({ state: 'in_use' }, use.total - use.idle);
      g.set({ state: 'idle' }, use.idle);
      g.set({ state: 'waiting' }, use.waiting);
      g.set({ state: 'max' }, use.max);
    },
  );
}
