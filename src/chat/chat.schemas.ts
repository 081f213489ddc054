import { Type } from 'typebox';
import { Nullable, PageQuery, Pagination, StringEnum, Timestamp } from '../http/schemas.ts';
import { MAX_MESSAGE_LENGTH, MIN_MESSAGE_LENGTH_LIMIT } from './chat-text.ts';
import { MAX_SLOW_MODE_SECONDS, MAX_TIMEOUT_SECONDS } from './chat.service.ts';

export const ChatMessage = Type.Object(
  {
    id: Type.String({ description: 'Prefix `chm_`.' }),
    stream_id: Type.String(),
    seq: Type.Integer({
      description: "The message's place in its stream's chat: 1, 2, 3… in the order every reader sees them.",
    }),
    author: Type.Object({
      id: Type.String(),
      name: Type.String({ description: "The account's display name." }),
      role: StringEnum(['creator', 'moderator', 'viewer'] as const, {
        description: 'How the author stood in the chat when they wrote.',
      }),
    }),
    text: Type.String({
      description: 'Plain text, never markup: render it as text (links become safe anchors in the web app).',
    }),
    created_at: Timestamp,
    offset_ms: Nullable(
      Type.Integer({
        description:
          'Milliseconds after the stream started (the place in its recording); null when posted before it started.',
      }),
    ),
  },
  { title: 'ChatMessage' },
);

export const ChatMessagePage = Type.Object({ data: Type.Array(ChatMessage), pagination: Pagination });

export const ListChatMessagesQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

export const ChatMessageParams = Type.Object(
  { id: Type.String({ maxLength: 64 }), message_id: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);

export const PostChatMessageBody = Type.Object(
  {
    text: Type.String({
      minLength: 1,
      maxLength: 4 * MAX_MESSAGE_LENGTH,
      description: `At most the room's \`max_length\` characters (${MAX_MESSAGE_LENGTH} unless the creator lowered it), one line.`,
    }),
  },
  { additionalProperties: false },
);

export const DeletedChatMessage = Type.Object({ deleted: Type.Literal(true), id: Type.String() });

export const TimeoutBody = Type.Object(
  {
    user_id: Type.String({ maxLength: 64 }),
    duration_seconds: Type.Integer({ minimum: 1, maximum: MAX_TIMEOUT_SECONDS }),
    reason: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const BanBody = Type.Object(
  { user_id: Type.String({ maxLength: 64 }), reason: Type.Optional(Type.String({ maxLength: 200 })) },
  { additionalProperties: false },
);

export const ChatRestriction = Type.Object({
  stream_id: Type.String(),
  user_id: Type.String(),
  kind: StringEnum(['ban', 'timeout'] as const),
  until: Nullable(Timestamp),
});

export const BanParams = Type.Object(
  { id: Type.String({ maxLength: 64 }), user_id: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);

export const LiftedRestriction = Type.Object({ lifted: Type.Boolean(), user_id: Type.String() });

export const ChatSettings = Type.Object(
  {
    slow_mode_seconds: Type.Integer({
      description: 'One message per this many seconds per viewer; 0 is off.',
    }),
    followers_only: Type.Boolean({ description: "Only the creator's subscribers may post." }),
    max_length: Type.Integer({ description: 'Characters a message may have.' }),
  },
  { title: 'ChatSettings' },
);

export const UpdateChatSettingsBody = Type.Object(
  {
    slow_mode_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SLOW_MODE_SECONDS })),
    followers_only: Type.Optional(Type.Boolean()),
    max_length: Type.Optional(
      Type.Integer({ minimum: MIN_MESSAGE_LENGTH_LIMIT, maximum: MAX_MESSAGE_LENGTH }),
    ),
  },
  { additionalProperties: false },
);
