import { Type, type Static } from 'typebox';
import { Nullable, StringEnum, Timestamp, TrimmedString } from '../http/schemas.ts';
import { SIMULCAST_STATES } from './simulcast-target.table.ts';

/** At most this many destinations per stream, and this many channel defaults per creator. */
export const MAX_TARGETS = 5;
export const MAX_URL_LENGTH = 1024;
export const MAX_KEY_LENGTH = 512;
export const MAX_NAME_LENGTH = 100;

export const SimulcastTarget = Type.Object(
  {
    id: Type.String({ description: 'Prefix `sim_`.' }),
    object: Type.Literal('simulcast_target'),
    stream_id: Nullable(
      Type.String({
        description: "The stream it belongs to; null for one of the caller's channel defaults.",
      }),
    ),
    name: Nullable(Type.String({ description: 'A label of your choice, such as "YouTube".' })),
    url: Type.String({
      description: "The destination's server URL (`rtmp://` or `rtmps://`), without the stream key.",
    }),
    stream_key_hint: Type.String({
      description:
        "The stream key's last 4 characters (fewer for a short key), to tell keys apart. The key itself is never returned.",
    }),
    enabled: Type.Boolean({ description: 'Whether the stream is sent there when it is live.' }),
    state: StringEnum(SIMULCAST_STATES, {
      description:
        '`idle` (not sent yet), `connecting`, `live` (the destination is receiving), `failing` (see `state_reason`; retried with back-off), `stopped` (the publish ended).',
    }),
    state_reason: Nullable(
      Type.String({ description: 'While `failing`: why, as the destination or the network said it.' }),
    ),
    state_changed_at: Timestamp,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'SimulcastTarget' },
);
export type SimulcastTarget = Static<typeof SimulcastTarget>;

export const SimulcastTargetList = Type.Object(
  { data: Type.Array(SimulcastTarget, { maxItems: MAX_TARGETS }) },
  { title: 'SimulcastTargetList' },
);

export const DeletedSimulcastTarget = Type.Object({
  deleted: Type.Literal(true),
  id: Type.String(),
});

const url = Type.String({
  minLength: 1,
  maxLength: MAX_URL_LENGTH,
  description: `The destination's server URL as the platform gives it (\`rtmp://\` or \`rtmps://\`, with a host; no user information, query or fragment; without the stream key), at most ${MAX_URL_LENGTH} characters.`,
});
const streamKey = Type.String({
  minLength: 1,
  maxLength: MAX_KEY_LENGTH,
  description: `The stream key the destination gave you: secret, stored sealed and never returned. Visible ASCII, at most ${MAX_KEY_LENGTH} characters.`,
});
const name = TrimmedString({
  minLength: 1,
  maxLength: MAX_NAME_LENGTH,
  description: `A label, 1 to ${MAX_NAME_LENGTH} characters after trimming.`,
});
const enabled = Type.Boolean({ description: 'Send the stream there (default true).' });

export const CreateSimulcastTargetBody = Type.Object(
  {
    url,
    stream_key: streamKey,
    name: Type.Optional(name),
    enabled: Type.Optional(enabled),
  },
  { additionalProperties: false },
);
export type CreateSimulcastTargetBody = Static<typeof CreateSimulcastTargetBody>;

export const UpdateSimulcastTargetBody = Type.Object(
  {
    url: Type.Optional(url),
    stream_key: Type.Optional(streamKey),
    name: Type.Optional(Nullable(name)),
    enabled: Type.Optional(enabled),
  },
  { additionalProperties: false },
);
export type UpdateSimulcastTargetBody = Static<typeof UpdateSimulcastTargetBody>;

export const StreamTargetParams = Type.Object(
  { id: Type.String({ maxLength: 64 }), target_id: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);

export const TargetParams = Type.Object(
  { target_id: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);
