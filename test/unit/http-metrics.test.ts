// The per-request instruments count in plain numbers and are formatted only when scraped
// (src/metrics/process-metrics.ts). What a scrape shows must be what prom-client's own
// Counter and Histogram show for the same requests, line for line.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Counter, Histogram, Registry } from 'prom-client';
import { processRegistry, recordHttpRequest } from '../../src/metrics/process-metrics.ts';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

function linesOf(text: string, route: string): string[] {
  return text.split('\n').filter((line) => line.includes(`route="${route}"`));
}

test('requests and their durations read as prom-client would show them', async () => {
  const reference = new Registry();
  const count = new Counter({
    name: 'tributary_http_requests_total',
    help: 'x',
    labelNames: ['route', 'method', 'status'],
    registers: [reference],
  });
  const duration = new Histogram({
    name: 'tributary_http_request_duration_seconds',
    help: 'x',
    labelNames: ['route', 'method'],
    buckets: BUCKETS,
    registers: [reference],
  });
  const route = '/v1/metrics-test/:id';
  // On a bound, between bounds, past the largest, and two statuses of one route.
  const requests: [string, number, number][] = [
    ['GET', 200, 0.001],
    ['GET', 200, 0.0031],
    ['GET', 404, 0.7],
    ['GET', 200, 42],
    ['POST', 201, 0.02],
  ];
  for (const [method, status, seconds] of requests) {
    recordHttpRequest(route, method, status, seconds);
    count.labels(route, method, String(status)).inc();
    duration.labels(route, method).observe(seconds);
  }
  const ours = linesOf(await processRegistry.metrics(), route).sort();
  const theirs = linesOf(await reference.metrics(), route).sort();
  assert.equal(ours.length, 3 + 2 * (BUCKETS.length + 3));
  assert.deepEqual(ours, theirs);
  assert.ok(
    ours.includes(
      `tributary_http_request_duration_seconds_bucket{le="+Inf",route="${route}",method="GET"} 4`,
    ),
  );
});
