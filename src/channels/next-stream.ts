// Which stream a publish with a creator's channel key goes to: the creator's "next" stream.
//
// 1. A stream of theirs that is live and not finishing (an encoder reconnecting, OBS-style,
//    inside the reconnect window; admission then refuses a second publisher as usual).
// 2. Else the scheduled stream whose scheduled_at is nearest to now, before or after, within
//    the window (CHANNEL_KEY_WINDOW_HOURS); on a tie the earlier one.
// 3. Else a stream in standby (no scheduled_at), the most recently created.
// 4. Else a new public stream with a default title, created here.
// A stream ingest is still finishing (its end and recording under way) is never picked.
// The dashboard's channel page asks the same question without creating anything (preview).
import type { Db } from '../db/database.ts';
import type { Clock } from '../shared/clock.ts';
import type { StreamService } from '../streams/stream.service.ts';
import type { StreamRow } from '../streams/stream.table.ts';
import {
  liveStreamsOf,
  scheduledStreamsOf,
  standbyStreamsOf,
  type Candidate,
} from './next-stream.repository.ts';

export interface NextStreamDeps {
  db: Db;
  streams: StreamService;
  clock: Clock;
  /** How far from now a scheduled stream's scheduled_at may be, either way. */
  windowMs: number;
}

/** Which rule chose the stream: 1 to 3 above, or 4 (`new`, a stream not created yet). */
export type NextStreamReason = 'live' | 'scheduled' | 'standby';

/** What a publish with the channel key would go to now. */
export type NextStreamPreview =
  { reason: NextStreamReason; stream: StreamRow } | { reason: 'new'; title: string };

export class NextStream {
  private readonly deps: NextStreamDeps;

  constructor(deps: NextStreamDeps) {
    this.deps = deps;
  }

  /** `finishing` says which streams ingest is ending now; they are passed over. */
  async pick(creatorId: string, finishing: (streamId: string) => boolean): Promise<StreamRow> {
    const found = await this.existing(creatorId, finishing);
    if (found) return found.stream;
    const created = await this.deps.streams.create(creatorId, { title: defaultTitle(this.deps.clock.now()) });
    return created.stream;
  }

  /**
   * The stream `pick` would choose now, by the same rules, creating nothing: when it would
   * create one, the title it would have. Without the ingest's view no stream counts as finishing.
   */
  async preview(
    creatorId: string,
    finishing: (streamId: string) => boolean = () => false,
  ): Promise<NextStreamPreview> {
    return (
      (await this.existing(creatorId, finishing)) ?? {
        reason: 'new',
        title: defaultTitle(this.deps.clock.now()),
      }
    );
  }

  private async existing(
    creatorId: string,
    finishing: (streamId: string) => boolean,
  ): Promise<{ reason: NextStreamReason; stream: StreamRow } | undefined> {
    const { db, streams, clock, windowMs } = this.deps;
    const usable = (candidates: Candidate[]) => candidates.filter((c) => !finishing(c.id));
    const live = usable(await liveStreamsOf(db, creatorId))[0];
    if (live) return { reason: 'live', stream: await streams.get(live.id) };
    const now = clock.now();
    const [past, future] = await Promise.all([
      scheduledStreamsOf(db, creatorId, { from: now - windowMs, to: now, order: 'desc' }),
      scheduledStreamsOf(db, creatorId, { from: now + 1, to: now + windowMs, order: 'asc' }),
    ]);
    const scheduled = nearest(usable(past)[0], usable(future)[0], now);
    if (scheduled) return { reason: 'scheduled', stream: await streams.get(scheduled.id) };
    const standby = usable(await standbyStreamsOf(db, creatorId))[0];
    if (standby) return { reason: 'standby', stream: await streams.get(standby.id) };
    return undefined;
  }
}

/** The nearer of the latest past one and the earliest future one; on a tie the past one. */
function nearest(
  past: Candidate | undefined,
  future: Candidate | undefined,
  now: number,
): Candidate | undefined {
  if (!past || !future) return past ?? future;
  return (future.scheduled_at ?? now) - now < now - (past.scheduled_at ?? now) ? future : past;
}

/** "Live stream, 2026-11-23 18:40 UTC": the creator renames it later if they like. */
export function defaultTitle(now: number): string {
  return `Live stream, ${new Date(now).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
