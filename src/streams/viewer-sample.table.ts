import type { Selectable } from 'kysely';

export interface ViewerSampleTable {
  stream_id: string;
  /** Epoch milliseconds. */
  at: number;
  viewer_count: number;
}

export type ViewerSampleRow = Selectable<ViewerSampleTable>;
