// The state of a live stream that outlives its ingest machine (issue 25): each publish's
// segments and a ladder's rungs, as src/ingest/live-mirror.ts writes it to the object store
// beside the segments (streams/<str_…>/live-state.json) and the origin reads it back while no
// machine holds the stream (src/media/live-origin.ts).
import type { HlsSegment } from './hls-playlist.ts';

export const LIVE_STATE_FILE = 'live-state.json';
/** A state bigger than this is refused (a day of 2-second segments is about 5 MB). */
export const MAX_LIVE_STATE_BYTES = 16 * 1024 * 1024;

export interface LiveState {
  version: 1;
  publishes: HlsSegment[][];
  /** A ladder stream's rungs: per rung, per publish, what it made (null: that publish made none). */
  ladder?: { rungs: string[]; made: Record<string, (HlsSegment[] | null)[]> } | undefined;
}

/** The state in `text`, or undefined when it is not one this version writes. */
export function parseLiveState(text: string): LiveState | undefined {
  const parsed = JSON.parse(text) as Partial<LiveState>;
  if (parsed.version !== 1 || !Array.isArray(parsed.publishes)) return undefined;
  return parsed as LiveState;
}
