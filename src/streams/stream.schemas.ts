import { Type, type Static } from 'typebox';
import { CATEGORIES } from '../shared/categories.ts';
import {
  Nullable,
  PageQuery,
  Pagination,
  StringEnum,
  Timestamp,
  TrimmedString,
  Url,
} from '../http/schemas.ts';
import { IngestHealth } from './ingest-health.schemas.ts';

export const STREAM_STATUSES = ['live', 'scheduled', 'ended'] as const;
export const PRIVACIES = ['public', 'private'] as const;
export const LATENCY_MODES = ['normal', 'low', 'realtime'] as const;

const streamListFields = {
  id: Type.String({ description: 'Prefix `str_`.' }),
  title: Type.String(),
  description: Nullable(Type.String()),
  status: StringEnum(STREAM_STATUSES),
  category: StringEnum(CATEGORIES),
  privacy: StringEnum(PRIVACIES),
  creator_id: Type.String(),
  viewer_count: Nullable(Type.Integer({ description: 'Null unless live.' })),
  started_at: Nullable(Timestamp),
  scheduled_at: Nullable(Timestamp),
  thumbnail_url: Nullable(Url),
  stream_url: Url,
  created_at: Timestamp,
  latency_mode: StringEnum(LATENCY_MODES, {
    description:
      '`normal` (2 s segments, about 6 s behind live), `low` (1 s segments, a player kept near the live edge) or `realtime` (played over WebRTC, WHEP at `/v1/streams/{id}/whep`, well under a second behind; its HLS, packaged as `low`, is the fallback).',
  }),
};

const streamDetailFields = {
  ...streamListFields,
  peak_viewer_count: Nullable(Type.Integer()),
  ended_at: Nullable(Timestamp),
  updated_at: Timestamp,
};

export const StreamIngest = Type.Object(
  {
    rtmp_url: Type.String({ description: 'Server URL to enter in the streaming software.' }),
    stream_key: Type.String({
      description: 'Secret key to publish with. Shown only to the creator, on a write-scoped key.',
    }),
    health: Type.Optional(Nullable(IngestHealth)),
  },
  {
    description:
      "Present only on the creator's own requests made with a write-scoped key (POST /streams, GET /streams/{id}, the key reset).",
  },
);

export const StreamListItem = Type.Object(streamListFields, { title: 'StreamListItem' });
export const StreamDetail = Type.Object(
  { ...streamDetailFields, ingest: Type.Optional(StreamIngest) },
  { title: 'Stream' },
);
export type StreamListItem = Static<typeof StreamListItem>;
export type StreamDetail = Static<typeof StreamDetail>;

export const StreamPage = Type.Object({ data: Type.Array(StreamListItem), pagination: Pagination });

export const ListStreamsQuery = Type.Object(
  {
    status: Type.Optional(StringEnum(STREAM_STATUSES)),
    creator_id: Type.Optional(Type.String({ maxLength: 64 })),
    category: Type.Optional(StringEnum(CATEGORIES)),
    ...PageQuery,
  },
  { additionalProperties: false },
);
export type ListStreamsQuery = Static<typeof ListStreamsQuery>;

export const CreateStreamBody = Type.Object(
  {
    title: TrimmedString({
      minLength: 1,
      maxLength: 120,
      description: '1 to 120 characters (Unicode code points) after surrounding whitespace is trimmed.',
    }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    scheduled_at: Type.Optional(
      Type.String({ format: 'date-time', description: 'RFC 3339 with a time zone; must be in the future.' }),
    ),
    category: Type.Optional(StringEnum(CATEGORIES, { description: 'Defaults to `talk`.' })),
    privacy: Type.Optional(StringEnum(PRIVACIES, { default: 'public' })),
    record: Type.Optional(
      Type.Boolean({
        default: true,
        description: 'Whether the recording becomes a video when the stream ends.',
      }),
    ),
    latency_mode: Type.Optional(
      StringEnum(LATENCY_MODES, {
        default: 'normal',
        description:
          "`low` packages 1-second segments and keeps the player near the live edge (set the encoder's keyframe interval to 1 s); `normal` uses 2-second segments; `realtime` is also sent over WebRTC (WHEP) under a second behind live, with `low`'s HLS for the players WebRTC cannot carry (set the keyframe interval to 1 s and B-frames to 0).",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateStreamBody = Static<typeof CreateStreamBody>;

export const UpdateStreamBody = Type.Object(
  {
    title: Type.Optional(
      TrimmedString({
        minLength: 1,
        maxLength: 120,
        description: '1 to 120 characters (Unicode code points) after surrounding whitespace is trimmed.',
      }),
    ),
    description: Type.Optional(
      Nullable(Type.String({ maxLength: 2000, description: 'At most 2,000 characters; null clears it.' })),
    ),
    category: Type.Optional(StringEnum(CATEGORIES)),
    privacy: Type.Optional(StringEnum(PRIVACIES)),
    scheduled_at: Type.Optional(
      Nullable(
        Type.String({
          format: 'date-time',
          description:
            'RFC 3339 with a time zone, in the future; null puts the stream in standby. Only before the stream goes live (else 409).',
        }),
      ),
    ),
    latency_mode: Type.Optional(
      StringEnum(LATENCY_MODES, { description: 'Only before the stream goes live (else 409).' }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Any of the fields; a field not given is left as it is. Title, description, category and privacy change at any time; scheduled_at and latency_mode only while the stream has not gone live.',
    examples: [{ title: 'Friday jam, part 2', scheduled_at: '2030-01-01T18:00:00Z' }],
  },
);
export type UpdateStreamBody = Static<typeof UpdateStreamBody>;

/** DELETE's answer, as DELETE /webhooks/{id} gives it. */
export const DeletedStream = Type.Object({ deleted: Type.Literal(true), id: Type.String() });
