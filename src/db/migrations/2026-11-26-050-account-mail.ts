import { sql, type Kysely } from 'kysely';

// Accounts people can trust (issue 27): addresses are compared normalized (NFKC, lower case,
// no trailing dot in the domain, src/accounts/email-address.ts), verified by a link, and a
// forgotten password is reset by one; sign-in attempts are reserved atomically (each row
// carries the attempt that made it); mail goes out from a durable queue (src/mail/), and
// subscribers choose, per subscription, whether a channel going live mails them.
interface UsersAtThisPoint {
  users: { id: string; email: string | null; created_at: number; email_verified_at: number | null };
}

export async function up(schema: Kysely<unknown>): Promise<void> {
  const db = schema as unknown as Kysely<UsersAtThisPoint>;
  await db.schema.alterTable('users').addColumn('email_verified_at', 'bigint').execute();
  // Addresses already stored are normalized. Where two accounts normalize to one address, the
  // oldest account keeps it and the others lose it (they keep everything else; the operator
  // gives them another with `tributary users set-password --email`): one address, one account.
  const users = await db
    .selectFrom('users')
    .select(['id', 'email', 'created_at'])
    .where('email', 'is not', null)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  const seen = new Set<string>();
  const changes: { id: string; email: string | null }[] = [];
  for (const user of users) {
    const normalized = normalizeStoredEmail(user.email ?? '');
    if (seen.has(normalized)) changes.push({ id: user.id, email: null });
    else {
      seen.add(normalized);
      if (normalized !== user.email) changes.push({ id: user.id, email: normalized });
    }
  }
  // Cleared first, then renamed: a rename never meets the unique index mid-way.
  for (const change of changes.filter((c) => c.email === null))
    await db.updateTable('users').set({ email: null }).where('id', '=', change.id).execute();
  for (const change of changes.filter((c) => c.email !== null))
    await db.updateTable('users').set({ email: change.email }).where('id', '=', change.id).execute();
  // Accounts that had an address before verification existed keep working as they did.
  await db
    .updateTable('users')
    .set({ email_verified_at: sql`created_at` })
    .where('email', 'is not', null)
    .execute();

  await db.schema.alterTable('sign_in_failures').addColumn('attempt_id', 'text').execute();
  await db.schema
    .createIndex('sign_in_failures_by_time')
    .on('sign_in_failures')
    .column('failed_at')
    .execute();
  await db.schema.createIndex('web_sessions_by_expiry').on('web_sessions').column('expires_at').execute();

  // Links sent by mail: `verify` (an address, until it is confirmed) and `reset` (a password).
  await db.schema
    .createTable('email_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('email_tokens_by_user')
    .on('email_tokens')
    .columns(['user_id', 'purpose'])
    .execute();

  // Each mail, whole, as it will be sent; a media_jobs row of kind `mail.send` sends it.
  await db.schema
    .createTable('mail_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('template', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('headers', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .execute();

  // When a channel last mailed its subscribers that it went live.
  await db.schema
    .createTable('go_live_notices')
    .addColumn('creator_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('stream_id', 'text', (c) => c.notNull())
    .addColumn('notified_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('subscriptions')
    .addColumn('notify_live', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createIndex('media_jobs_by_kind_due')
    .on('media_jobs')
    .columns(['kind', 'status', 'run_after'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('media_jobs_by_kind_due').execute();
  await db.schema.alterTable('subscriptions').dropColumn('notify_live').execute();
  await db.schema.dropTable('go_live_notices').execute();
  await db.schema.dropTable('mail_messages').execute();
  await db.schema.dropTable('email_tokens').execute();
  await db.schema.dropIndex('web_sessions_by_expiry').execute();
  await db.schema.dropIndex('sign_in_failures_by_time').execute();
  await db.schema.alterTable('sign_in_failures').dropColumn('attempt_id').execute();
  await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
}

/** As src/accounts/email-address.ts normalizes (copied: a migration never changes with the code). */
function normalizeStoredEmail(raw: string): string {
  const email = raw.normalize('NFKC').trim().toLowerCase();
  const at = email.lastIndexOf('@');
  if (at < 0) return email;
  return `${email.slice(0, at)}@${email.slice(at + 1).replace(/\.+$/, '')}`;
}
