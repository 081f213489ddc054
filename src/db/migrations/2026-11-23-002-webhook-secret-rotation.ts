import type { Kysely } from 'kysely';

// Secret rotation keeps the secret it replaced, sealed like the current one, until it expires:
// deliveries are signed with both meanwhile, so receivers can switch without losing any.
// Both columns are null when no rotation is in its grace period (or none ever happened).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhooks').addColumn('previous_secret_ciphertext', 'text').execute();
  await db.schema.alterTable('webhooks').addColumn('previous_secret_expires_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhooks').dropColumn('previous_secret_expires_at').execute();
  await db.schema.alterTable('webhooks').dropColumn('previous_secret_ciphertext').execute();
}
