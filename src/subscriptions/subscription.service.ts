// Viewers subscribe on the platform; v1 has no endpoint for it, so the operator CLI stands in.
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

  async subscribe(viewerId: string, creatorId: string): Promise<SubscriptionRow> {
    if (viewerId === creatorId)
      throw invalidParameter('viewer_id', 'A creator cannot subscribe to themselves.');
    return this.db.transaction().execute(async (trx) => {
      if (!(await findUser(trx, viewerId))) throw notFound('user', viewerId);
      if (!(await findUser(trx, creatorId))) throw notFound('user', creatorId);
      const existing = await repo.findActiveSubscription(trx, viewerId, creatorId);
      if (existing)
        throw stateConflict(`${viewerId} is already subscribed to ${creatorId} (${existing.id}).`);
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
      return row;
    });
  }

  async cancel(id: string): Promise<SubscriptionRow> {
    return this.db.transaction().execute(async (trx) => {
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
    });
  }
}
