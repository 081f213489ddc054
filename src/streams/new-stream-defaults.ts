// What creating a stream asks of the settings a creator keeps for every new stream (their
// simulcast destinations today). Implemented in src/simulcast/ (which builds on streams, so
// streams must not import it) and handed to StreamService by the composition root.
import type { Db } from '../db/database.ts';
import type { StreamRow } from './stream.table.ts';

export interface NewStreamDefaults {
  /** Inside the creation's transaction: copies the creator's defaults onto the new stream. */
  applyTo(trx: Db, stream: StreamRow, now: number): Promise<void>;
}

/** For a StreamService built without defaults (tests of other parts). */
export const NO_STREAM_DEFAULTS: NewStreamDefaults = { applyTo: async () => undefined };
