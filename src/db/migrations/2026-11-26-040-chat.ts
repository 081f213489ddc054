import type { Kysely } from 'kysely';

// Live chat (src/chat/): each stream's room (its settings and the last sequence number given to
// a message, which orders the room's messages across every API process), its messages, and per
// channel (the creator's user id) the moderators, the restrictions (bans and timeouts), the
// blocked words and the record of every moderation action.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('chat_rooms')
    .addColumn('stream_id', 'text', (c) => c.primaryKey().references('streams.id').onDelete('cascade'))
    .addColumn('last_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('slow_mode_seconds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('followers_only', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_length', 'integer', (c) => c.notNull().defaultTo(500))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('chat_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('stream_id', 'text', (c) => c.notNull().references('streams.id').onDelete('cascade'))
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('author_role', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('offset_ms', 'bigint')
    .addColumn('deleted_at', 'bigint')
    .addColumn('deleted_by', 'text')
    .execute();
  await db.schema
    .createIndex('chat_messages_by_seq')
    .on('chat_messages')
    .columns(['stream_id', 'seq'])
    .unique()
    .execute();
  // Slow mode asks for a user's last message in a room.
  await db.schema
    .createIndex('chat_messages_by_user')
    .on('chat_messages')
    .columns(['stream_id', 'user_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('chat_moderators')
    .addColumn('channel_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('chat_moderators_pk', ['channel_id', 'user_id'])
    .execute();
  await db.schema
    .createTable('chat_restrictions')
    .addColumn('channel_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('until', 'bigint')
    .addColumn('reason', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('chat_restrictions_pk', ['channel_id', 'user_id'])
    .execute();
  await db.schema
    .createTable('chat_channels')
    .addColumn('channel_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('blocked_words', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('chat_moderation_actions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('channel_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('stream_id', 'text')
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_user_id', 'text')
    .addColumn('message_id', 'text')
    .addColumn('detail', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('chat_moderation_actions_by_channel')
    .on('chat_moderation_actions')
    .columns(['channel_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'chat_moderation_actions',
    'chat_channels',
    'chat_restrictions',
    'chat_moderators',
    'chat_messages',
    'chat_rooms',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
