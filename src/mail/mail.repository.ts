import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { dialectOf } from '../db/dialect.ts';
import { enqueueJob } from '../jobs/job.repository.ts';
import type { MailMessageTable } from './mail.table.ts';

export const SEND_MAIL_JOB = 'mail.send';

/** Stores the mails and a `mail.send` job for each, in one transaction (a repeated id is skipped). */
export async function insertMessages(
  db: Db,
  messages: MailMessageTable[],
  maxAttempts: number,
  now: number,
): Promise<void> {
  if (messages.length === 0) return;
  const write = async (trx: Db) => {
    await trx
      .insertInto('mail_messages')
      .values(messages)
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    for (const message of messages)
      await enqueueJob(trx, { kind: SEND_MAIL_JOB, subjectId: message.id, maxAttempts, now });
  };
  if (db.isTransaction) await write(db);
  else await db.transaction().execute(write);
}

export async function findMessage(db: Db, id: string) {
  return db.selectFrom('mail_messages').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function markSent(db: Db, id: string, at: number): Promise<void> {
  await db.updateTable('mail_messages').set({ sent_at: at }).where('id', '=', id).execute();
}

/** The live stream a go-live fan-out is for, with its channel's name. */
export async function findLiveStream(db: Db, streamId: string) {
  return db
    .selectFrom('streams')
    .innerJoin('users', 'users.id', 'streams.creator_id')
    .select(['streams.id', 'streams.title', 'streams.status', 'streams.creator_id', 'users.name as channel'])
    .where('streams.id', '=', streamId)
    .executeTakeFirst();
}

/**
 * Claims the channel's go-live mail for this stream: true when no other stream of the channel
 * mailed within `quietMs` (or this stream did: a retried fan-out carries on).
 */
export async function claimGoLiveNotice(
  db: Db,
  creatorId: string,
  streamId: string,
  now: number,
  quietMs: number,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom('go_live_notices')
      .select(['stream_id', 'notified_at'])
      .where('creator_id', '=', creatorId);
    if (dialectOf(trx) === 'postgres') query = query.forUpdate();
    const notice = await query.executeTakeFirst();
    if (notice?.stream_id === streamId) return true;
    if (notice && now - notice.notified_at < quietMs) return false;
    await trx
      .insertInto('go_live_notices')
      .values({ creator_id: creatorId, stream_id: streamId, notified_at: now })
      .onConflict((oc) => oc.column('creator_id').doUpdateSet({ stream_id: streamId, notified_at: now }))
      .execute();
    return true;
  });
}

export interface GoLiveRecipient {
  subscription_id: string;
  name: string;
  email: string;
}

/** The next page of subscribers who want go-live mails, by subscription id. */
export async function goLiveRecipients(
  db: Db,
  creatorId: string,
  after: string,
  limit: number,
  verifiedOnly: boolean,
): Promise<GoLiveRecipient[]> {
  let query = db
    .selectFrom('subscriptions')
    .innerJoin('users', 'users.id', 'subscriptions.viewer_id')
    .select(['subscriptions.id as subscription_id', 'users.name', sql<string>`users.email`.as('email')])
    .where('subscriptions.creator_id', '=', creatorId)
    .where('subscriptions.status', '=', 'active')
    .where('subscriptions.notify_live', '=', 1)
    .where('users.email', 'is not', null)
    .where('subscriptions.id', '>', after)
    .orderBy('subscriptions.id', 'asc')
    .limit(limit);
  if (verifiedOnly) query = query.where('users.email_verified_at', 'is not', null);
  return query.execute();
}

/** Sets whether a subscription's channel going live mails its subscriber; false when there is none. */
export async function setNotifyLive(db: Db, subscriptionId: string, on: boolean): Promise<boolean> {
  const result = await db
    .updateTable('subscriptions')
    .set({ notify_live: on ? 1 : 0 })
    .where('id', '=', subscriptionId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function findSubscriptionForMail(db: Db, subscriptionId: string) {
  return db
    .selectFrom('subscriptions')
    .innerJoin('users', 'users.id', 'subscriptions.creator_id')
    .select([
      'subscriptions.id',
      'subscriptions.viewer_id',
      'subscriptions.creator_id',
      'subscriptions.status',
      'subscriptions.notify_live',
      'users.name as channel',
    ])
    .where('subscriptions.id', '=', subscriptionId)
    .executeTakeFirst();
}
