// What deleting a stream asks of the videos its recordings became. Implemented in src/videos/
// (videos are made from streams, so streams must not import them) and handed to StreamService
// by the composition root.
import type { Db } from '../db/database.ts';
import type { StreamRow } from './stream.table.ts';

export interface StreamRecordings {
  /**
   * Inside the deletion's transaction: refuses (a state conflict) while the stream's recording
   * is still becoming a video, otherwise detaches the stream's videos, which stay.
   */
  beforeStreamDeleted(trx: Db, stream: StreamRow, now: number): Promise<void>;
}
