// One live stream, one ingest process (issue 25). Any ingest process may accept any valid key,
// so a row per stream in the database says which one holds it: taken when a publisher is
// admitted (or a restart adopts the stream), renewed by the holder's upkeep while it handles the
// stream, released when the stream is finished or the holder drains. A holder that dies stops
// renewing; once the lease lapses, the encoder's reconnect, wherever the balancer sends it,
// takes the stream over. The holder's id is stable across its restarts (its data folder keeps
// it), so a process that restarts takes its own streams back at once.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/database.ts';
import type { Clock } from '../shared/clock.ts';
import type { IngestHealth } from '../streams/ingest-health.schemas.ts';
import type { StreamLeaseRow } from './stream-lease.table.ts';

/** A lease lasts this long unless renewed (renewed every ingest tick, 2 s). */
export const DEFAULT_LEASE_MS = 10_000;

export interface StreamLeasesOptions {
  db: Db;
  clock: Clock;
  /** This ingest process's id. */
  holder: string;
  /** Where this process serves its streams' media, for the origin (undefined: not reachable). */
  originUrl?: string | undefined;
  leaseMs?: number | undefined;
}

export class StreamLeases {
  readonly holder: string;
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly originUrl: string | null;
  readonly leaseMs: number;

  constructor(options: StreamLeasesOptions) {
    this.db = options.db;
    this.clock = options.clock;
    this.holder = options.holder;
    this.originUrl = options.originUrl ?? null;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  }

  /**
   * Takes (or keeps) the stream's lease: true when this process holds it now, false when
   * another process does and its lease has not lapsed.
   */
  async acquire(streamId: string): Promise<boolean> {
    const now = this.clock.now();
    const values = {
      holder: this.holder,
      waiting: 0,
      origin_url: this.originUrl,
      expires_at: now + this.leaseMs,
      acquired_at: now,
      // A previous holder's measurement is not this one's.
      health: null,
    };
    const inserted = await this.db
      .insertInto('stream_leases')
      .values({ stream_id: streamId, ...values })
      .onConflict((oc) => oc.column('stream_id').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return true;
    // Ours already, or lapsed: one conditional update, so two takers cannot both win.
    const taken = await this.db
      .updateTable('stream_leases')
      .set(values)
      .where('stream_id', '=', streamId)
      .where((eb) =>
        eb.or([eb('holder', '=', this.holder), eb('expires_at', '<', now), eb('waiting', '=', 1)]),
      )
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) > 0;
  }

  /**
   * Extends the leases of `streamIds` this process holds, marking those in `waiting` as waiting
   * for a reconnect (another process may take them) and the others as not; returns the streams
   * it no longer holds.
   */
  async renew(streamIds: readonly string[], waiting: readonly string[] = []): Promise<string[]> {
    if (streamIds.length === 0) return [];
    const expires = this.clock.now() + this.leaseMs;
    const waits = new Set(waiting);
    for (const [ids, flag] of [
      [streamIds.filter((id) => !waits.has(id)), 0],
      [streamIds.filter((id) => waits.has(id)), 1],
    ] as const) {
      if (ids.length === 0) continue;
      await this.db
        .updateTable('stream_leases')
        .set({ expires_at: expires, waiting: flag })
        .where('holder', '=', this.holder)
        .where('stream_id', 'in', ids)
        .execute();
    }
    const rows = await this.db
      .selectFrom('stream_leases')
      .select(['stream_id', 'holder'])
      .where('stream_id', 'in', streamIds)
      .execute();
    const holders = new Map(rows.map((row) => [row.stream_id, row.holder]));
    const lost: string[] = [];
    for (const id of streamIds) {
      const holder = holders.get(id);
      if (holder === this.holder) continue;
      // Gone (released meanwhile, or this process could not renew for a while): taken again.
      if (holder === undefined && (await this.acquire(id))) continue;
      lost.push(id);
    }
    return lost;
  }

  /**
   * Whether other API processes read this holder's health from the leases: only a holder they
   * can reach for its media (INGEST_ORIGIN_URL) has streams they serve.
   */
  get sharesHealth(): boolean {
    return this.originUrl !== null;
  }

  /** Writes each held stream's current health beside its lease (src/ingest/health/stream-health.ts). */
  async shareHealth(reports: readonly (readonly [streamId: string, health: IngestHealth])[]): Promise<void> {
    for (const [streamId, health] of reports) {
      await this.db
        .updateTable('stream_leases')
        .set({ health: JSON.stringify(health) })
        .where('stream_id', '=', streamId)
        .where('holder', '=', this.holder)
        .execute();
    }
  }

  /** Live streams whose lease lapsed more than `ms` ago (their holder died and nobody took them). */
  async lapsedSince(ms: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('stream_leases')
      .innerJoin('streams', 'streams.id', 'stream_leases.stream_id')
      .select('stream_leases.stream_id')
      .where('stream_leases.expires_at', '<', this.clock.now() - ms)
      .where('streams.status', '=', 'live')
      .limit(20)
      .execute();
    return rows.map((row) => row.stream_id);
  }

  /** The stream is finished here, or this process drains: any process may take it at once. */
  async release(streamIds: readonly string[]): Promise<void> {
    if (streamIds.length === 0) return;
    await this.db
      .deleteFrom('stream_leases')
      .where('holder', '=', this.holder)
      .where('stream_id', 'in', streamIds)
      .execute();
  }

  /** The stream's current, unlapsed lease (who holds it), if any. */
  async current(streamId: string): Promise<StreamLeaseRow | undefined> {
    return this.db
      .selectFrom('stream_leases')
      .selectAll()
      .where('stream_id', '=', streamId)
      .where('expires_at', '>=', this.clock.now())
      .executeTakeFirst();
  }
}

/**
 * This ingest process's id: INGEST_ID when set, otherwise one made at its first start and kept
 * in its data folder (`ingest-id`), so a restart holds its streams under the same id.
 */
export function ingestHolderId(dataDir: string, configured?: string): string {
  if (configured !== undefined) return configured;
  const file = path.join(dataDir, 'ingest-id');
  try {
    const id = fs.readFileSync(file, 'utf8').trim();
    if (/^ing_[0-9a-f]{16}$/.test(id)) return id;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const id = `ing_${randomBytes(8).toString('hex')}`;
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, `${id}\n`, { mode: 0o600 });
  return id;
}
