// What a publish's ladder decision tells its creator (`ingest.health.transcoding`): which
// renditions the publish makes, and why it has no encoded rungs (or fewer than it started
// with). Made in live-ladder.ts, kept by the ingest's health board.
import type { TranscodingReason } from '../streams/ingest-health.schemas.ts';

export interface TranscodingDecision {
  /** `source` and the encoded rungs (`480p`...), or `source` alone. */
  renditions: string[];
  reason: TranscodingReason | undefined;
  /** Epoch ms. */
  decidedAt: number;
}

export const TRANSCODING_MESSAGES: Record<TranscodingReason, string> = {
  no_cpu_room:
    'The server had no CPU room to encode lower renditions when this publish started; viewers get your stream as sent, and the renditions are added as soon as there is room.',
  fell_behind:
    'Encoding could not keep up in real time, so the most expensive renditions were dropped; viewers get the rest and your stream as sent.',
  source_too_small:
    'Your picture is no larger than the smallest rendition, so there is nothing lower to encode.',
  no_picture_size: 'Your encoder did not describe its picture (or sends audio only), so nothing is encoded.',
  stream_copy_only:
    "The stream's first publish was copy-only, and a stream keeps the shape it started with; start a new stream to get renditions.",
};
