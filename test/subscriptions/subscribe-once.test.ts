// The viewer's Subscribe button through SubscriptionService: subscribing twice (or many times
// at once) keeps one subscription and one event; cancelling twice emits one event; the
// operator's command keeps refusing a second subscription (state_conflict), as documented.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AccountService } from '../../src/accounts/account.service.ts';
import { SubscriptionService } from '../../src/subscriptions/subscription.service.ts';
import { TestClock } from '../helpers/clock.ts';
import { DIALECTS, openMigratedTestDatabase } from '../helpers/databases.ts';

for (const dialect of DIALECTS) {
  test(`subscribeOnce and cancelBetween are idempotent, with one event each (${dialect})`, async (t) => {
    const { db } = await openMigratedTestDatabase(t, dialect);
    const clock = new TestClock();
    const accounts = new AccountService(db, clock);
    const subscriptions = new SubscriptionService(db, clock);
    const creator = await accounts.createUser('Creator');
    const viewer = await accounts.createUser('Viewer');
    const events = async () =>
      (
        await db.selectFrom('events').select(['type', 'account_id', 'data']).orderBy('created_at').execute()
      ).filter((event) => event.type.startsWith('subscription.'));

    // Twenty clicks at once: one subscription, one event.
    const results = await Promise.all(
      Array.from({ length: 20 }, () => subscriptions.subscribeOnce(viewer.id, creator.id)),
    );
    assert.equal(results.filter((result) => result.created).length, 1);
    assert.equal(new Set(results.map((result) => result.subscription.id)).size, 1);
    const rows = await db.selectFrom('subscriptions').select(['id', 'status']).execute();
    assert.deepEqual(rows, [{ id: results[0]?.subscription.id, status: 'active' }]);
    assert.equal(await subscriptions.countSubscribers(creator.id), 1);
    assert.equal(await subscriptions.isSubscribed(viewer.id, creator.id), true);

    const created = await events();
    assert.equal(created.length, 1);
    const [event] = created;
    assert.ok(event);
    assert.equal(event.type, 'subscription.created');
    assert.equal(event.account_id, creator.id);
    const payload = JSON.parse(event.data) as Record<string, unknown>;
    assert.deepEqual(Object.keys(payload).sort(), [
      'cancelled_at',
      'created_at',
      'creator_id',
      'id',
      'status',
      'viewer_id',
    ]);
    assert.equal(payload.viewer_id, viewer.id);
    assert.equal(payload.status, 'active');

    // The operator's command still refuses what the button tolerates.
    await assert.rejects(subscriptions.subscribe(viewer.id, creator.id), { code: 'state_conflict' });

    clock.advance(1000);
    const cancelled = await subscriptions.cancelBetween(viewer.id, creator.id);
    assert.equal(cancelled?.status, 'cancelled');
    assert.equal(await subscriptions.cancelBetween(viewer.id, creator.id), undefined);
    assert.equal(await subscriptions.countSubscribers(creator.id), 0);
    assert.equal(await subscriptions.isSubscribed(viewer.id, creator.id), false);
    const all = await events();
    assert.deepEqual(
      all.map((event) => event.type),
      ['subscription.created', 'subscription.cancelled'],
    );
    assert.equal((JSON.parse(all[1]?.data ?? '{}') as { status: string }).status, 'cancelled');

    // Subscribing again after cancelling is a new subscription.
    const again = await subscriptions.subscribeOnce(viewer.id, creator.id);
    assert.equal(again.created, true);
    assert.notEqual(again.subscription.id, results[0]?.subscription.id);
    assert.equal(await subscriptions.countSubscribers(creator.id), 1);
  });

  test(`subscribeOnce refuses oneself and unknown users (${dialect})`, async (t) => {
    const { db } = await openMigratedTestDatabase(t, dialect);
    const clock = new TestClock();
    const accounts = new AccountService(db, clock);
    const subscriptions = new SubscriptionService(db, clock);
    const creator = await accounts.createUser('Creator');
    await assert.rejects(subscriptions.subscribeOnce(creator.id, creator.id), { code: 'parameter_invalid' });
    await assert.rejects(subscriptions.subscribeOnce(creator.id, 'usr_nobody'), {
      code: 'resource_not_found',
    });
    assert.equal(await subscriptions.cancelBetween(creator.id, 'usr_nobody'), undefined);
  });
}
