// Helpers for the webhook management tests: waiting until the worker has nothing left to do
// now, and making events through the real services.
import type { TestServer } from '../helpers/server.ts';
import { eventually } from './harness.ts';

/**
 * Waits until the outbox is fanned out, no recovery is running, no attempt is in flight and
 * nothing is due at the current (test) clock time: from then on nothing is sent until the clock
 * moves or something new is written.
 */
export async function settled(server: TestServer): Promise<void> {
  const { db } = server.services.database;
  await eventually(
    async () => {
      const now = server.clock.now();
      const undispatched = await db
        .selectFrom('events')
        .select('id')
        .where('dispatched_at', 'is', null)
        .execute();
      const running = await db
        .selectFrom('webhook_recoveries')
        .select('id')
        .where('status', '=', 'running')
        .execute();
      const busy = await db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where((eb) =>
          eb.or([
            eb('status', '=', 'sending'),
            eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
          ]),
        )
        .execute();
      return undispatched.length + running.length + busy.length === 0 ? true : undefined;
    },
    20_000,
    'the worker to have nothing due',
  );
}

/** A stream going live: one `stream.started` event for its creator. Returns the event id. */
export async function streamStarted(server: TestServer, creatorId: string): Promise<string> {
  const { stream } = await server.services.streams.create(creatorId, { title: 'Live now' });
  await server.services.streams.goLive(stream.id);
  const row = await server.services.database.db
    .selectFrom('events')
    .select('id')
    .where('type', '=', 'stream.started')
    .where('data', 'like', `%${stream.id}%`)
    .executeTakeFirstOrThrow();
  return row.id;
}
