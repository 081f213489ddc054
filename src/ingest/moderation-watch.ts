// Moderation at the ingest (src/moderation/): a suspended creator's or a taken-down stream's
// encoder is cut off within a second, and refused when it comes back.
// - watch(): several times a second, one query asks which of this process's live streams are
//   withheld (src/accounts/standing.ts's condition, negated); each is ended (if the operator's
//   own end has not landed yet) and its publisher disconnected, its recording wrapped up as
//   when an operator ends a stream. Whichever process made the change, the row is what counts,
//   so this reaches the process holding the encoder without any message between processes.
// - refusal(): admission asks it before admitting a publisher (with the stream key, or with a
//   channel key before a stream is picked or made).
import { sql } from 'kysely';
import type { Logger } from 'pino';
import { streamShown } from '../accounts/standing.ts';
import type { Db } from '../db/database.ts';
import { isStateConflict } from '../shared/errors.ts';
import type { StreamService } from '../streams/stream.service.ts';
import type { StreamLifecycle } from './stream-lifecycle.ts';

/** How often live streams' standing is checked: well within the one second a suspension may take. */
export const MODERATION_WATCH_MS = 250;

export interface ModerationWatchDeps {
  db: Db;
  streams: StreamService;
  lifecycle: Pick<StreamLifecycle, 'activeStates' | 'stopBecauseEnded'>;
  logger: Logger;
}

export class ModerationWatch {
  private readonly deps: ModerationWatchDeps;

  constructor(deps: ModerationWatchDeps) {
    this.deps = deps;
  }

  /** Ends and cuts off every live stream of this process that moderation now withholds. */
  async check(): Promise<void> {
    const { db, streams, lifecycle, logger } = this.deps;
    const states = [...lifecycle.activeStates()].filter((state) => !state.finishing);
    if (states.length === 0) return;
    const withheld = await db
      .selectFrom('streams')
      .select('id')
      .where(
        'id',
        'in',
        states.map((state) => state.streamId),
      )
      .where(sql<boolean>`not ${streamShown()}`)
      .execute();
    for (const { id } of withheld) {
      const state = states.find((candidate) => candidate.streamId === id);
      if (!state) continue;
      logger.info({ streamId: id }, 'stream withheld by an operator; cutting off its encoder');
      try {
        await streams.end(id);
      } catch (error) {
        if (!isStateConflict(error)) throw error;
      }
      void state.media.enqueue(async () => {
        lifecycle.stopBecauseEnded(state);
      });
    }
  }

  /** Why a publisher of this creator's (or this stream) is refused, if it is. */
  async refusal(creatorId: string, streamId?: string): Promise<string | undefined> {
    const { db } = this.deps;
    const user = await db
      .selectFrom('users')
      .select('suspended_at')
      .where('id', '=', creatorId)
      .executeTakeFirst();
    if (user?.suspended_at != null) {
      return 'This account is suspended: sign in to the web app to read why.';
    }
    if (streamId === undefined) return undefined;
    const stream = await db
      .selectFrom('streams')
      .select('taken_down_at')
      .where('id', '=', streamId)
      .executeTakeFirst();
    return stream?.taken_down_at != null ? 'This stream has been taken down by an operator.' : undefined;
  }
}
