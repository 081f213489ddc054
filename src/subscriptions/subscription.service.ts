// Viewers subscribe on the platform (the web app's Subscribe buttons); the operator CLI can
// do the same.
// Each change emits its event to the creator's webhooks.
import { findUser } from '../accounts/account.repository.ts';
import type { Db } from '../db/database.ts';
import { recordEvent } from '../events/outbox.ts';
import { toIso, type Clock } from '../shared/clock.ts';
import { invalidParameter, notFound, stateConflict } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import * as repo from './subscription.repository.ts';
import type { SubscriptionRow } from './subscription.table.ts';

export function toSubscriptionObject(row: SubscriptionRow) {
  return {
    id: row.id,
    viewer_id: row.viewer_id,
    creator_id: row.creator_id,
    status: row.status,
    created_at: toIso(row.created_at),
    cancelled_at: toIso(row.cancelled_at),
  };
}

export class SubscriptionService {
  private readonly db: Db;
  private readonly clock: Clock;

  constructor(db: Db, clock: Clock) {
    this.db = db;
    this.clock = clock;
  }

  /** The operator's command: subscribing an already subscribed viewer is a state_conflict. */
  async subscribe(viewerId: string, creatorId: string): Promise<SubscriptionRow> {
    const { subscription, created } = await this.subscribeOnce(viewerId, creatorId);
    if (!created) {
      throw stateConflict(`${viewerId} is already subscribed to ${creatorId} (${subscription.id}).`);
    }
    return subscription;
  }

  /**
   * The viewer's button: subscribing again returns the active subscription and emits nothing,
   * so a double click or a resent form never makes a second subscription or event.
   */
  async subscribeOnce(
    viewerId: string,
    creatorId: string,
  ): Promise<{ subscription: SubscriptionRow; created: boolean }> {
    if (viewerId === creatorId)
      throw invalidParameter('viewer_id', 'A creator cannot subscribe to themselves.');
    return this.db.transaction().execute(async (trx) => {
      await repo.lockCreatorForSubscriptions(trx, creatorId);
      if (!(await findUser(trx, viewerId))) throw notFound('user', viewerId);
      if (!(await findUser(trx, creatorId))) throw notFound('user', creatorId);
      const existing = await repo.findActiveSubscription(trx, viewerId, creatorId);
      if (existing) return { subscription: existing, created: false };
      const now = this.clock.now();
      const row: SubscriptionRow = {
        id: newId('sub'),
        viewer_id: viewerId,
        creator_id: creatorId,
        status: 'active',
        created_at: now,
        cancelled_at: null,
      };
      await repo.insertSubscription(trx, row);
      await recordEvent(trx, {
        type: 'subscription.created',
        accountId: creatorId,
        at: now,
        data: toSubscriptionObject(row),
      });
      return { subscription: row, created: true };
    });
  }

  /**
   * The viewer's Unsubscribe button: cancels the viewer's active subscription to the creator
   * and emits subscription.cancelled; undefined (and no event) when there was none.
   */
  async cancelBetween(viewerId: string, creatorId: string): Promise<SubscriptionRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      await repo.lockCreatorForSubscriptions(trx, creatorId);
      const active = await repo.findActiveSubscription(trx, viewerId, creatorId);
      if (!active) return undefined;
      return this.cancelIn(trx, active.id);
    });
  }

  /** Whether the viewer's active subscription mails them when the channel goes live (undefined: none). */
  async notifiesLive(viewerId: string, creatorId: string): Promise<boolean | undefined> {
    const row = await this.db
      .selectFrom('subscriptions')
      .select('notify_live')
      .where('creator_id', '=', creatorId)
      .where('viewer_id', '=', viewerId)
      .where('status', '=', 'active')
      .executeTakeFirst();
    return row && row.notify_live === 1;
  }

  /** Turns the go-live mails of the viewer's active subscription on or off; false without one. */
  async setNotifiesLive(viewerId: string, creatorId: string, on: boolean): Promise<boolean> {
    const result = await this.db
      .updateTable('subscriptions')
      .set({ notify_live: on ? 1 : 0 })
      .where('creator_id', '=', creatorId)
      .where('viewer_id', '=', viewerId)
      .where('status', '=', 'active')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async isSubscribed(viewerId: string, creatorId: string): Promise<boolean> {
    return (await repo.findActiveSubscription(this.db, viewerId, creatorId)) !== undefined;
  }

  async countSubscribers(creatorId: string): Promise<number> {
    return repo.countActiveSubscribers(this.db, creatorId);
  }

  async cancel(id: string): Promise<SubscriptionRow> {
    return this.db.transaction().execute(async (trx) => this.cancelIn(trx, id));
  }

  private async cancelIn(trx: Db, id: string): Promise<SubscriptionRow> {
    const now = this.clock.now();
    const row = await repo.cancelSubscription(trx, id, now);
    if (!row) {
      if (!(await repo.findSubscription(trx, id))) throw notFound('subscription', id);
      throw stateConflict(`Subscription ${id} is already cancelled.`);
    }
    await recordEvent(trx, {
      type: 'subscription.cancelled',
      accountId: row.creator_id,
      at: now,
      data: toSubscriptionObject(row),
    });
    return row;
  }
}
