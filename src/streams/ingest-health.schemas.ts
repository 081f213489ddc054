// `ingest.health` on a stream's detail: what the ingest measures of the creator's encoder
// while it handles the stream. Shown only where `ingest` is (the creator, on a write-scoped key).
import { Type, type Static } from 'typebox';
import { Nullable, StringEnum, Timestamp } from '../http/schemas.ts';

export const HEALTH_WARNING_CODES = [
  'keyframe_interval_too_long',
  'bitrate_too_high',
  'bitrate_unstable',
  'no_audio',
  'frame_rate_unstable',
  'publisher_disconnected',
  'realtime_reencoded',
] as const;

export const TRANSCODING_REASONS = [
  'no_cpu_room',
  'fell_behind',
  'source_too_small',
  'no_picture_size',
  'stream_copy_only',
] as const;
export type TranscodingReason = (typeof TRANSCODING_REASONS)[number];

export const Transcoding = Type.Object(
  {
    decision: StringEnum(['ladder', 'copy_only'] as const, {
      description:
        '`ladder`: viewers get your stream as sent and encoded lower renditions to switch to; `copy_only`: your stream as sent, alone.',
    }),
    renditions: Type.Array(Type.String(), {
      description:
        'What viewers can play: `source` (your stream as sent) and the encoded renditions (`480p`...).',
    }),
    reason: Nullable(
      StringEnum(TRANSCODING_REASONS, {
        description:
          'Why there are no encoded renditions, or fewer than at first (`fell_behind`); null for a full ladder.',
      }),
    ),
    message: Nullable(Type.String({ description: 'The reason, explained.' })),
    decided_at: Timestamp,
  },
  {
    description:
      "The ladder decision of the current publish, made when the encoder's first frames say how large the picture is. Null until then.",
  },
);
export type Transcoding = Static<typeof Transcoding>;

export const IngestHealth = Type.Object(
  {
    state: StringEnum(['publishing', 'reconnecting'] as const, {
      description:
        '`reconnecting`: the encoder disconnected and the stream waits for it until `reconnect_deadline`.',
    }),
    reconnect_deadline: Nullable(Timestamp),
    measured_at: Timestamp,
    publishes: Type.Integer({ description: 'Encoder connections so far (1 + reconnects).' }),
    video: Nullable(
      Type.Object({
        codec: Type.String(),
        profile: Nullable(Type.String()),
        level: Nullable(Type.String()),
        width: Nullable(Type.Integer()),
        height: Nullable(Type.Integer()),
        frame_rate: Nullable(Type.Number({ description: 'Frames per second over the last 5 s.' })),
        keyframe_interval_seconds: Nullable(Type.Number({ description: 'Between the last two keyframes.' })),
      }),
    ),
    audio: Nullable(
      Type.Object({
        codec: Type.String(),
        profile: Nullable(Type.String()),
        sample_rate: Nullable(Type.Integer()),
        channels: Nullable(Type.Integer()),
      }),
    ),
    bitrate_kbps: Type.Object({
      current: Nullable(Type.Integer({ description: 'Over the last 5 s of media.' })),
      average: Nullable(Type.Integer({ description: 'Since the encoder connected.' })),
    }),
    dropped_data: Type.Object({
      timestamp_gaps: Type.Integer({
        description: 'Jumps forward over 1 s in a track: data that never came.',
      }),
      backward_jumps: Type.Integer({ description: 'Timestamps that went backwards.' }),
    }),
    transcoding: Nullable(Transcoding),
    warnings: Type.Array(
      Type.Object({
        code: StringEnum(HEALTH_WARNING_CODES),
        message: Type.String({ description: 'What is wrong and what to change in the encoder.' }),
      }),
    ),
  },
  {
    description:
      'Null when the ingest is not handling the stream (not publishing and not waiting for a reconnect), or handles it in another process.',
  },
);
export type IngestHealth = Static<typeof IngestHealth>;
