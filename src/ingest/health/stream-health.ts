// A stream's `ingest.health`, wherever it is measured. The process holding the stream measures
// it (its IngestHealthBoard); with many ingest machines (issue 25) the holder also writes it beside
// the lease it renews (StreamLeases.shareHealth), and any other API process reads it from there,
// at most one renewal (2 s) old. One process (`npm start`) finds every live stream on its own
// board and never asks the database.
import { Value } from 'typebox/value';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../shared/clock.ts';
import { IngestHealth } from '../../streams/ingest-health.schemas.ts';
import type { StreamRow } from '../../streams/stream.table.ts';
import type { IngestHealthBoard } from './health-board.ts';

export class StreamHealth {
  private readonly board: IngestHealthBoard;
  private readonly db: Db;
  private readonly clock: Clock;

  constructor(board: IngestHealthBoard, db: Db, clock: Clock) {
    this.board = board;
    this.db = db;
    this.clock = clock;
  }

  /** The stream's health: null when no process handles it (not live, or between holders). */
  async report(stream: Pick<StreamRow, 'id' | 'status'>): Promise<IngestHealth | null> {
    const local = this.board.report(stream.id);
    if (local !== null || stream.status !== 'live') return local;
    const row = await this.db
      .selectFrom('stream_leases')
      .select('health')
      .where('stream_id', '=', stream.id)
      .where('expires_at', '>=', this.clock.now())
      .executeTakeFirst();
    if (row?.health == null) return null;
    // Written by another process, perhaps of another version during a rolling deploy: shown
    // only if it is what this version's schema says.
    try {
      const shared: unknown = JSON.parse(row.health);
      return Value.Check(IngestHealth, shared) ? shared : null;
    } catch {
      return null;
    }
  }
}
