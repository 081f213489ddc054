// What this process counts as it works, for the Prometheus endpoint (metrics-server.ts): HTTP
// requests, rate-limit refusals, webhook delivery attempts, ladder decisions. One registry per
// process, apart from prom-client's global one; the figures read from the database or the
// ingest at scrape time are the metrics server's own. Labels are bounded: route templates,
// status codes, outcomes, never an id.
import { Counter, Histogram, Registry } from 'prom-client';

export const processRegistry = new Registry();

const httpRequests = new Counter({
  name: 'tributary_http_requests_total',
  help: 'HTTP requests answered, by route template, method and status code.',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [processRegistry],
});

const httpDuration = new Histogram({
  name: 'tributary_http_request_duration_seconds',
  help: 'Time from a request arriving to its answer being written, by route template and method.',
  labelNames: ['route', 'method'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  registers: [processRegistry],
});

const rateLimitRefusals = new Counter({
  name: 'tributary_rate_limit_refusals_total',
  help: 'Requests refused with 429 (a per-key, per-IP, per-user or per-stream limit), by route template.',
  labelNames: ['route'] as const,
  registers: [processRegistry],
});

const deliveryAttempts = new Counter({
  name: 'tributary_webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts finished by this process, by outcome (succeeded, retry, failed).',
  labelNames: ['outcome'] as const,
  registers: [processRegistry],
});

const transcodingDecisions = new Counter({
  name: 'tributary_transcoding_decisions_total',
  help: 'Ladder decisions on live publishes (TRANSCODE=auto), by decision: ladder, or copy_only when the budget had no room.',
  labelNames: ['decision'] as const,
  registers: [processRegistry],
});

const publishes = new Counter({
  name: 'tributary_ingest_publishes_total',
  help: 'Encoder publishes admitted by this process (reconnects included).',
  registers: [processRegistry],
});

interface HttpInstruments {
  count: { inc(): void };
  duration: { observe(seconds: number): void };
}

// Children by label values, kept: a request then pays a Map lookup, not prom-client's label
// hashing. Bounded by the route templates times the status codes an app answers with.
const httpChildren = new Map<string, HttpInstruments>();

/** One answered request; `route` is its template (`/v1/streams/:id`), or `unmatched`. */
export function recordHttpRequest(route: string, method: string, status: number, seconds: number): void {
  const key = `${method} ${route} ${status}`;
  let children = httpChildren.get(key);
  if (children === undefined) {
    children = {
      count: httpRequests.labels(route, method, String(status)),
      duration: httpDuration.labels(route, method),
    };
    httpChildren.set(key, children);
  }
  children.count.inc();
  children.duration.observe(seconds);
  if (status === 429) rateLimitRefusals.labels(route).inc();
}

export function recordDeliveryAttempt(outcome: 'succeeded' | 'retry' | 'failed'): void {
  deliveryAttempts.labels(outcome).inc();
}

export function recordPublish(): void {
  publishes.inc();
}

export function recordTranscodingDecision(decision: 'ladder' | 'copy_only'): void {
  transcodingDecisions.labels(decision).inc();
}
