export interface VideoViewTable {
  video_id: string;
  /** Keyed hash of the client address and viewer id: the table holds no address. */
  viewer_hash: string;
  /** Days since the Unix epoch, UTC. */
  day: number;
  /** Keyed hash of the client address alone, for the per-address cap. */
  address_hash: string;
}
