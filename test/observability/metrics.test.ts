// The Prometheus endpoint (src/observability/metrics-server.ts) as an operator's scraper sees
// it: its own listener, refused without its token, never on the public port; text that parses
// as the exposition format; counters that move as requests are answered, deliveries attempted
// and an encoder publishes (real ffmpeg into the real RTMP ingest).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { startMetricsServer } from '../../src/observability/metrics-server.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { startReceiver } from '../helpers/https-receiver.ts';
import { pushTestPattern, waitFor } from '../helpers/media-tools.ts';
import { registerWebhook } from '../webhooks/harness.ts';

const TOKEN = 'metrics-token-0123456789';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * A strict reading of the text exposition format 0.0.4: every line is a HELP, a TYPE or a
 * sample; every sample belongs to a family with a TYPE given before it; label values are quoted
 * and escaped; values are numbers (or +Inf/-Inf/NaN). Throws on anything else.
 */
function parseExposition(text: string): Sample[] {
  assert.ok(text.endsWith('\n'), 'the text ends with a newline');
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
  for (const line of text.split('\n').slice(0, -1)) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (meta) {
      assert.match(meta[2] ?? '', NAME, line);
      if (meta[1] === 'TYPE') {
        assert.ok(['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(meta[3] ?? ''), line);
        assert.equal(types.has(meta[2] ?? ''), false, `TYPE given twice: ${line}`);
        types.set(meta[2] ?? '', meta[3] ?? '');
      }
      continue;
    }
    assert.ok(!line.startsWith('#'), `a comment that is neither HELP nor TYPE: ${line}`);
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)( -?\d+)?$/.exec(line);
    assert.ok(sample, `not a sample line: ${line}`);
    const name = sample[1] ?? '';
    const labels: Record<string, string> = {};
    const body = sample[3] ?? '';
    const label = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/gy;
    let consumed = 0;
    for (const match of body.matchAll(label)) {
      labels[match[1] ?? ''] = (match[2] ?? '').replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      consumed = match.index + match[0].length;
    }
    assert.equal(consumed, body.length, `labels do not parse: ${line}`);
    const raw = sample[4] ?? '';
    const value = raw === '+Inf' ? Infinity : raw === '-Inf' ? -Infinity : Number(raw);
    assert.ok(raw === 'NaN' || !Number.isNaN(value), `not a number: ${line}`);
    const family = [...types.keys()].find(
      (f) => name === f || ['_bucket', '_sum', '_count', '_total', '_created'].some((s) => name === f + s),
    );
    assert.ok(family, `sample without a TYPE: ${line}`);
    samples.push({ name, labels, value });
  }
  return samples;
}

function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

async function scrape(port: number): Promise<Sample[]> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parseExposition(await res.text());
}

async function startWithMetrics(
  t: Parameters<typeof startTestApp>[0],
): Promise<{ server: TestApp; port: number }> {
  const server = await startTestApp(t, {
    dialect: 'sqlite',
    clock: systemClock,
    recordMetrics: true,
    rateLimitPerIp: 1000,
    rateLimitPerKey: 30,
    worker: true,
    media: {},
    logger: 'capture',
  });
  const metrics = await startMetricsServer({
    port: 0,
    host: '127.0.0.1',
    token: TOKEN,
    database: server.services.database,
    clock: server.services.clock,
    ingestHealth: server.services.ingestHealth,
  });
  t.after(() => metrics.close());
  return { server, port: metrics.port };
}

test('the endpoint answers only with its token, on its own port; requests and refusals are counted by route', async (t) => {
  const { server, port } = await startWithMetrics(t);
  for (const token of [undefined, 'wrong-token-0123456789', `${TOKEN}x`]) {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });
    assert.equal(res.status, 401, `token ${token}`);
    assert.equal((await res.text()).includes('tributary_'), false);
  }
  const publicPort = await fetch(`${server.origin}/metrics`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  assert.notEqual(publicPort.status, 200, 'the public port has no metrics');
  assert.equal((await publicPort.text()).includes('tributary_http_requests_total'), false);

  const account = await server.createAccount();
  const stream = await server.createStream(account);
  const before = await scrape(port);
  const route = { route: '/v1/streams/:id', method: 'GET' };
  for (let i = 0; i < 3; i++) {
    assert.equal(
      (await server.request('GET', `/v1/streams/${stream.id}`, { key: account.writeKey })).status,
      200,
    );
  }
  assert.equal(
    (await server.request('GET', '/v1/streams/str_missing', { key: account.writeKey })).status,
    404,
  );
  // A path no route matches is counted under `unmatched`, never under its own path.
  assert.equal(
    (await server.request('GET', '/v1/nothing-here/str_0123456789abcdefghijkl', { key: account.writeKey }))
      .status,
    404,
  );
  // The per-key limit (30 a minute) refuses some of 40 reads.
  let refused = 0;
  for (let i = 0; i < 40; i++) {
    const res = await server.request('GET', `/v1/streams/${stream.id}`, { key: account.readKey });
    if (res.status === 429) refused++;
  }
  assert.ok(refused > 0, 'the limit refused some');
  const after = await scrape(port);
  const counted = (samples: Sample[], status: string) =>
    value(samples, 'tributary_http_requests_total', { ...route, status });
  assert.equal(counted(after, '200') - counted(before, '200'), 3 + 40 - refused);
  assert.equal(counted(after, '404') - counted(before, '404'), 1);
  assert.equal(
    value(after, 'tributary_http_requests_total', { route: 'unmatched', method: 'GET', status: '404' }) -
      value(before, 'tributary_http_requests_total', { route: 'unmatched', method: 'GET', status: '404' }),
    1,
    'the unknown path is counted, as unmatched',
  );
  assert.equal(
    after.some((s) => Object.values(s.labels).some((label) => label.includes('nothing-here'))),
    false,
  );
  assert.equal(counted(after, '429') - counted(before, '429'), refused);
  assert.equal(
    value(after, 'tributary_rate_limit_refusals_total', { route: '/v1/streams/:id' }) -
      value(before, 'tributary_rate_limit_refusals_total', { route: '/v1/streams/:id' }),
    refused,
  );
  assert.equal(
    value(after, 'tributary_http_request_duration_seconds_count', route) -
      value(before, 'tributary_http_request_duration_seconds_count', route),
    3 + 1 + 40,
  );
  // No label carries an id.
  for (const sample of after) {
    for (const label of Object.values(sample.labels))
      assert.doesNotMatch(label, /(str|usr|key|wh|evt)_[0-9A-Za-z]{10}/);
  }
  // Every figure the Grafana dashboard (deploy/) and docs/deploy.md name is one the endpoint has.
  const text = await (
    await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
  ).text();
  const families = new Set([...text.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]));
  for (const file of ['deploy/grafana-dashboard.json', 'docs/deploy.md']) {
    const named = new Set(fs.readFileSync(file, 'utf8').match(/tributary_[a-z0-9_]+/g));
    for (const name of named) {
      const family = name.replace(/_(bucket|sum|count)$/, '');
      assert.ok(families.has(family), `${file} names ${name}, which the endpoint does not have`);
    }
  }
  // Node's own figures.
  assert.ok(value(after, 'tributary_process_resident_memory_bytes') > 0);
  assert.ok(after.some((s) => s.name.startsWith('tributary_nodejs_eventloop_lag')));
});

test('deliveries and a publish move their figures: attempts by outcome, live streams, ingest bitrate, publishes', async (t) => {
  const { server, port } = await startWithMetrics(t);
  const receiver = await startReceiver();
  t.after(() => receiver.close());
  const account = await server.createAccount();
  const before = await scrape(port);

  await registerWebhook(server, account.writeKey, receiver.url(), ['stream.started']);
  await receiver.waitForRequests(1);
  const delivered = await waitFor('the attempt counted', async () => {
    const samples = await scrape(port);
    const moved =
      value(samples, 'tributary_webhook_delivery_attempts_total', { outcome: 'succeeded' }) -
      value(before, 'tributary_webhook_delivery_attempts_total', { outcome: 'succeeded' });
    return moved >= 1 ? samples : undefined;
  });
  assert.equal(value(delivered, 'tributary_webhooks_disabled'), 0);

  const stream = await server.createStream(account, { title: 'Metered' });
  const push = pushTestPattern(`${stream.ingest.rtmp_url}/${stream.ingest.stream_key}`, 30, {
    size: '640x360',
  });
  t.after(() => {
    push.stop();
  });
  const live = await waitFor(
    'the publish measured',
    async () => {
      const samples = await scrape(port);
      return value(samples, 'tributary_live_streams') >= 1 &&
        value(samples, 'tributary_ingest_bitrate_kbps') > 0
        ? samples
        : undefined;
    },
    { timeoutMs: 30_000 },
  );
  assert.equal(value(live, 'tributary_ingest_streams', { state: 'publishing' }), 1);
  assert.equal(
    value(live, 'tributary_ingest_publishes_total') - value(before, 'tributary_ingest_publishes_total'),
    1,
  );
  // stream.started went out to the webhook too.
  await receiver.waitForRequests(2, 20_000);
  const final = await waitFor('the second attempt counted', async () => {
    const samples = await scrape(port);
    return value(samples, 'tributary_webhook_delivery_attempts_total', { outcome: 'succeeded' }) -
      value(before, 'tributary_webhook_delivery_attempts_total', { outcome: 'succeeded' }) >=
      2
      ? samples
      : undefined;
  });
  assert.equal(value(final, 'tributary_webhook_queue_depth'), 0);
  push.stop();
});

test('METRICS_ settings: off unless METRICS_PORT is set; another address than loopback needs a token', async () => {
  const { loadConfig, ConfigError } = await import('../../src/config.ts');
  assert.equal(loadConfig({}).metrics, undefined);
  assert.deepEqual(loadConfig({ METRICS_PORT: '9464' }).metrics, {
    port: 9464,
    host: '127.0.0.1',
    token: undefined,
  });
  assert.throws(() => loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }), ConfigError);
  assert.throws(() => loadConfig({ METRICS_PORT: '9464', METRICS_TOKEN: 'short' }), /at least 16/);
  assert.throws(() => loadConfig({ METRICS_PORT: '8080', PORT: '8080' }), /differ from PORT/);
  assert.equal(
    loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: TOKEN }).metrics?.host,
    '0.0.0.0',
  );
});
