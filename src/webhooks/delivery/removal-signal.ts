// Tells delivery workers that a webhook was deleted or disabled, so an attempt in flight to
// it is aborted at once: in this process through an in-memory signal, in other processes
// through PostgreSQL NOTIFY (sent in the deleting transaction, delivered on commit). Workers
// that hear neither (another process on SQLite) still never start a new attempt to it,
// because every claim reads the webhook's row.
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { dialectOf } from '../../db/dialect.ts';

export const WEBHOOK_REMOVED_CHANNEL = 'tributary_webhook_removed';

const signal = new EventEmitter();
signal.setMaxListeners(0);

export function onWebhookRemoved(listener: (webhookId: string) => void): () => void {
  signal.on('removed', listener);
  return () => signal.off('removed', listener);
}

/** Call inside the transaction that removes the webhook. */
export async function notifyWebhookRemovedInTransaction(trx: Db, webhookId: string): Promise<void> {
  if (dialectOf(trx) === 'postgres')
    await sql`select pg_notify(${WEBHOOK_REMOVED_CHANNEL}, ${webhookId})`.execute(trx);
}

/** Call after the removing transaction committed. */
export function announceWebhookRemoved(webhookId: string): void {
  signal.emit('removed', webhookId);
}
