import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decide } from '../../src/webhooks/delivery/decision.ts';
import { maxAttempts, nextRetryDelay, parseRetryAfter } from '../../src/webhooks/delivery/retry-schedule.ts';
import { WebhookSender } from '../../src/webhooks/delivery/sender.ts';
import { isPublicAddress } from '../../src/webhooks/url-safety.ts';
import { startReceiver } from '../helpers/https-receiver.ts';
import { testCa } from '../helpers/test-ca.ts';

describe('address safety', () => {
  test('non-public addresses are recognised, including IPv4 inside IPv6', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.100.100.200',
      '0.0.0.0',
      '224.0.0.251',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::a00:1',
    ]) {
      assert.equal(isPublicAddress(address), false, address);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) {
      assert.equal(isPublicAddress(address), true, address);
    }
  });

  test('the sender refuses a name that resolves to loopback where it connects (no request is made)', async (t) => {
    const receiver = await startReceiver();
    const sender = new WebhookSender({ timeoutMs: 2000, allowPrivateTargets: false, ca: testCa().caPem });
    t.after(async () => {
      await sender.close();
      await receiver.close();
    });
    const send = (url: string) =>
      sender.send({ url, body: Buffer.from('{}'), headers: {}, controller: new AbortController() });
    const byName = await send(`https://localhost:${receiver.port}/hook`);
    assert.equal(byName.kind, 'failed');
    assert.match(byName.error, /non-public/);
    const byAddress = await send(receiver.url());
    assert.equal(byAddress.kind, 'failed');
    assert.equal(receiver.requests.length, 0);

    const allowed = new WebhookSender({ timeoutMs: 2000, allowPrivateTargets: true, ca: testCa().caPem });
    t.after(() => allowed.close());
    const ok = await allowed.send({
      url: receiver.url(),
      body: Buffer.from('{}'),
      headers: {},
      controller: new AbortController(),
    });
    assert.equal(ok.kind, 'answered');
  });

  test('redirects are not followed: a 302 is a failed attempt', async (t) => {
    const receiver = await startReceiver(() => ({
      status: 302,
      headers: { location: 'https://127.0.0.1:1/elsewhere' },
    }));
    const sender = new WebhookSender({ timeoutMs: 2000, allowPrivateTargets: true, ca: testCa().caPem });
    t.after(async () => {
      await sender.close();
      await receiver.close();
    });
    const outcome = await sender.send({
      url: receiver.url(),
      body: Buffer.from('{}'),
      headers: {},
      controller: new AbortController(),
    });
    assert.equal(outcome.kind, 'answered');
    assert.equal(outcome.statusCode, 302);
    assert.equal(receiver.requests.length, 1);
    const decision = decide(outcome, 1, { delaysMs: [1000] }, 0, () => 0.5);
    assert.equal(decision.kind, 'retry');
  });

  test('without the test CA the receiver is not trusted (Node store only)', async (t) => {
    const receiver = await startReceiver();
    const sender = new WebhookSender({ timeoutMs: 2000, allowPrivateTargets: true });
    t.after(async () => {
      await sender.close();
      await receiver.close();
    });
    const outcome = await sender.send({
      url: receiver.url(),
      body: Buffer.from('{}'),
      headers: {},
      controller: new AbortController(),
    });
    assert.equal(outcome.kind, 'failed');
    assert.equal(receiver.requests.length, 0);
  });
});

describe('retry schedule', () => {
  const schedule = { delaysMs: [60_000, 900_000, 7_200_000, 79_200_000] };

  test('5 attempts over about 24 hours by default, with ±10% jitter', () => {
    assert.equal(maxAttempts(schedule), 5);
    assert.equal(
      nextRetryDelay(schedule, 1, () => 0.5),
      60_000,
    );
    assert.equal(
      nextRetryDelay(schedule, 1, () => 0),
      54_000,
    );
    const longest = nextRetryDelay(schedule, 4, () => 0.999_999) ?? 0;
    assert.ok(longest > 79_200_000 * 1.09 && longest <= 79_200_000 * 1.1, String(longest));
    assert.equal(
      nextRetryDelay(schedule, 5, () => 0.5),
      undefined,
    );
    const total = schedule.delaysMs.reduce((sum, delay) => sum + delay, 0);
    assert.ok(total > 23 * 3_600_000 && total < 25 * 3_600_000);
  });

  test('Retry-After is honoured within the bounds: never sooner than scheduled, never past the longest delay', () => {
    assert.equal(
      nextRetryDelay(schedule, 1, () => 0.5, 120_000),
      120_000,
    );
    assert.equal(
      nextRetryDelay(schedule, 1, () => 0.5, 1_000),
      60_000,
    );
    assert.equal(
      nextRetryDelay(schedule, 1, () => 0.5, 10 * 86_400_000),
      79_200_000,
    );
    assert.equal(parseRetryAfter('120', 0), 120_000);
    assert.equal(parseRetryAfter(new Date(60_000).toUTCString(), 0), 60_000);
    assert.equal(parseRetryAfter('soon', 0), undefined);
  });

  test('decisions: 2xx succeeds, 410 fails and disables, other answers and errors retry until none is left', () => {
    const answered = (statusCode: number) =>
      ({ kind: 'answered', statusCode, retryAfter: undefined, excerpt: '', latencyMs: 1 }) as const;
    assert.deepEqual(
      decide(answered(204), 1, schedule, 0, () => 0.5),
      { kind: 'succeeded' },
    );
    assert.equal(decide(answered(410), 1, schedule, 0, () => 0.5).kind, 'failed');
    assert.ok('disable' in decide(answered(410), 1, schedule, 0, () => 0.5));
    assert.deepEqual(
      decide(answered(500), 2, schedule, 1000, () => 0.5),
      {
        kind: 'retry',
        at: 901_000,
        reason: 'HTTP 500',
      },
    );
    assert.deepEqual(
      decide(answered(500), 5, schedule, 0, () => 0.5),
      { kind: 'failed', reason: 'HTTP 500' },
    );
    const timeout = { kind: 'failed', error: 'timeout', latencyMs: 5000 } as const;
    assert.equal(decide(timeout, 1, schedule, 0, () => 0.5).kind, 'retry');
  });
});
