// What this process counts as it works, for the Prometheus endpoint (metrics-server.ts): HTTP
// requests, rate-limit refusals, webhook delivery attempts, ladder decisions. One registry per
// process, apart from prom-client's global one; the figures read from the database or the
// ingest at scrape time are the metrics server's own. Labels are bounded: route templates,
// status codes, outcomes, never an id.
import { Counter, Gauge, Registry, type Metric } from 'prom-client';

export const processRegistry = new Registry();

// The two per-request instruments count in plain numbers, kept per label set, and are read
// into prom-client's format only when scraped: prom-client's own labelled children validate
// and hash their labels on every increment and observation, which cost 2 to 3 µs of a detail
// read's 70 µs (issue 29's profile). What a scrape shows is the same: a counter and a
// histogram with cumulative buckets, `_sum` and `_count`.
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

interface Tally {
  labels: Record<string, string>;
  count: number;
}

interface Spread {
  labels: Record<string, string>;
  /** Observations per bucket (not cumulative); the last one is past the largest bound. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

/** What prom-client's registry formats: what a Counter's or Histogram's get() returns. */
interface PlainMetric {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  values: { labels: Record<string, string>; value: number; metricName?: string }[];
}

class PlainInstrument {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  readonly aggregator = 'sum' as const;
  private readonly read: () => PlainMetric['values'];

  constructor(name: string, help: string, type: 'counter' | 'histogram', read: () => PlainMetric['values']) {
    this.name = name;
    this.help = help;
    this.type = type;
    this.read = read;
  }

  get(): Promise<PlainMetric> {
    const { name, help, type, aggregator } = this;
    return Promise.resolve({ name, help, type, aggregator, values: this.read() });
  }
}

/** A route's and method's tallies, found by lookups on the strings themselves (see below). */
interface RouteMethodTallies {
  spread: Spread;
  byStatus: Map<number, Tally>;
}
const talliesByRoute = new Map<string, Map<string, RouteMethodTallies>>();

function* routeMethodTallies(): Generator<RouteMethodTallies> {
  for (const methods of talliesByRoute.values()) yield* methods.values();
}

processRegistry.registerMetric(
  new PlainInstrument(
    'tributary_http_requests_total',
    'HTTP requests answered, by route template, method and status code.',
    'counter',
    () =>
      [...routeMethodTallies()].flatMap(({ byStatus }) =>
        [...byStatus.values()].map(({ labels, count }) => ({ labels, value: count })),
      ),
  ) as unknown as Metric,
);

processRegistry.registerMetric(
  new PlainInstrument(
    'tributary_http_request_duration_seconds',
    'Time from a request arriving to its answer being written, by route template and method.',
    'histogram',
    () => {
      const name = 'tributary_http_request_duration_seconds';
      const values: PlainMetric['values'] = [];
      for (const { spread } of routeMethodTallies()) {
        const { labels, buckets, sum, count } = spread;
        let cumulative = 0;
        DURATION_BUCKETS.forEach((bound, index) => {
          cumulative += buckets[index] ?? 0;
          values.push({
            labels: { le: String(bound), ...labels },
            value: cumulative,
            metricName: `${name}_bucket`,
          });
        });
        values.push({ labels: { le: '+Inf', ...labels }, value: count, metricName: `${name}_bucket` });
        values.push({ labels, value: sum, metricName: `${name}_sum` });
        values.push({ labels, value: count, metricName: `${name}_count` });
      }
      return values;
    },
  ) as unknown as Metric,
);

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

/** One answered request; `route` is its template (`/v1/streams/:id`), or `unmatched`. */
export function recordHttpRequest(route: string, method: string, status: number, seconds: number): void {
  // Bounded by the route templates times the methods and status codes an app answers with.
  // Found route, then method, then status: the route and method are the same string objects on
  // every request (their hashes kept), where a key made of the three was a new string to hash.
  let methods = talliesByRoute.get(route);
  if (methods === undefined) {
    methods = new Map();
    talliesByRoute.set(route, methods);
  }
  let tallies = methods.get(method);
  if (tallies === undefined) {
    const spread = {
      labels: { route, method },
      buckets: new Float64Array(DURATION_BUCKETS.length + 1),
      sum: 0,
      count: 0,
    };
    tallies = { spread, byStatus: new Map() };
    methods.set(method, tallies);
  }
  let tally = tallies.byStatus.get(status);
  if (tally === undefined) {
    tally = { labels: { route, method, status: String(status) }, count: 0 };
    tallies.byStatus.set(status, tally);
  }
  tally.count++;
  const spread = tallies.spread;
  let bucket = 0;
  while (bucket < DURATION_BUCKETS.length && seconds > (DURATION_BUCKETS[bucket] ?? 0)) bucket++;
  spread.buckets[bucket] = (spread.buckets[bucket] ?? 0) + 1;
  spread.sum += seconds;
  spread.count++;
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

const realtimeRefusals = new Counter({
  name: 'tributary_realtime_refusals_total',
  help: 'WHEP (WebRTC playback) requests refused by this process, by reason: capacity (REALTIME_MAX_VIEWERS reached), connecting_limit (too many sessions still connecting from one address), bad_offer, not_here (the stream is not sent over WebRTC by this process).',
  labelNames: ['reason'] as const,
  registers: [processRegistry],
});

let realtimeViewers: () => number = () => 0;

new Gauge({
  name: 'tributary_realtime_viewers',
  help: 'WebRTC viewers (WHEP sessions, connecting or connected) this process serves now.',
  registers: [processRegistry],
  collect() {
    this.set(realtimeViewers());
  },
});

export function recordRealtimeRefusal(
  reason: 'capacity' | 'connecting_limit' | 'bad_offer' | 'not_here',
): void {
  realtimeRefusals.labels(reason).inc();
}

/** What the viewers gauge reads at scrape time (this process's RealtimeHub). */
export function setRealtimeViewersSource(read: () => number): void {
  realtimeViewers = read;
}
