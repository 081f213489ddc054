import { Type, type Static } from 'typebox';
import { EVENT_TYPES } from '../events/event-types.ts';
import { Nullable, PageQuery, Pagination, StringEnum, Timestamp } from '../http/schemas.ts';
import { MAX_URL_LENGTH } from './url-safety.ts';

export const DELIVERY_STATUSES = ['pending', 'sending', 'succeeded', 'failed'] as const;

const EXAMPLE_WEBHOOK_ID = 'wh_3fQk9ZrT1bX8cV2nM5pL7a';
const EXAMPLE_EVENT_ID = 'evt_8LmN2pQ4rS6tU8vW0xY2zA';

export const WebhookPathParams = Type.Object(
  { id: Type.String({ maxLength: 64, description: 'The webhook, prefix `wh_`.' }) },
  { additionalProperties: false },
);

export const DeliveryPathParams = Type.Object(
  {
    id: Type.String({ maxLength: 64, description: 'The webhook, prefix `wh_`.' }),
    event_id: Type.String({ maxLength: 64, description: 'The event, prefix `evt_`.' }),
  },
  { additionalProperties: false },
);

export const RecoveryPathParams = Type.Object(
  {
    id: Type.String({ maxLength: 64, description: 'The webhook, prefix `wh_`.' }),
    recovery_id: Type.String({ maxLength: 64, description: 'The recovery, prefix `rcv_`.' }),
  },
  { additionalProperties: false },
);

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(
      Type.String({
        maxLength: MAX_URL_LENGTH,
        description: 'An absolute https:// URL, checked as on creation.',
      }),
    ),
    events: Type.Optional(
      Type.Array(Type.String({ maxLength: 64 }), {
        minItems: 1,
        maxItems: EVENT_TYPES.length,
        description: 'Replaces the subscribed event types (same rules as on creation).',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'At least one of the two; a field not given is left as it is.',
    examples: [{ events: ['stream.started', 'stream.ended'] }],
  },
);
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>;

export const TestWebhookResult = Type.Object(
  {
    event_id: Type.String({ description: 'The ping event, to look up in the delivery log.' }),
    type: Type.Literal('ping'),
  },
  { title: 'WebhookTest', examples: [{ event_id: EXAMPLE_EVENT_ID, type: 'ping' }] },
);

const deliverySummaryFields = {
  event_id: Type.String({ description: 'The event, prefix `evt_`; the same on every attempt.' }),
  event_type: StringEnum(EVENT_TYPES),
  status: StringEnum(DELIVERY_STATUSES, {
    description:
      'pending: waiting for its next attempt; sending: an attempt is in flight; succeeded and failed are settled.',
  }),
  attempt_count: Type.Integer({ description: 'Attempts started so far.' }),
  next_attempt_at: Nullable(Timestamp),
  last_attempt_at: Nullable(Timestamp),
  created_at: Timestamp,
};

const EXAMPLE_SUMMARY = {
  event_id: EXAMPLE_EVENT_ID,
  event_type: 'stream.started',
  status: 'failed',
  attempt_count: 5,
  next_attempt_at: null,
  last_attempt_at: '2026-11-23T10:15:02.120Z',
  created_at: '2026-11-22T10:14:58.004Z',
};

export const DeliverySummary = Type.Object(deliverySummaryFields, {
  title: 'DeliverySummary',
  examples: [EXAMPLE_SUMMARY],
});
export type DeliverySummary = Static<typeof DeliverySummary>;

export const DeliveryAttempt = Type.Object(
  {
    attempt: Type.Integer({ description: 'Numbered from 1; a resend continues the count.' }),
    started_at: Timestamp,
    duration_ms: Type.Integer(),
    status_code: Nullable(Type.Integer({ description: 'The HTTP status, or null when no answer came.' })),
    error: Nullable(
      Type.String({
        description:
          'Why no answer came: timeout, connection_refused, connection_reset, dns, tls, unsafe_target or network; null when answered.',
      }),
    ),
    response_body: Nullable(Type.String({ description: 'The first 1 KiB of the answer, as text.' })),
  },
  { title: 'DeliveryAttempt' },
);

export const DeliveryDetail = Type.Object(
  { ...deliverySummaryFields, attempts: Type.Array(DeliveryAttempt, { description: 'Oldest first.' }) },
  {
    title: 'Delivery',
    examples: [
      {
        ...EXAMPLE_SUMMARY,
        attempt_count: 2,
        attempts: [
          {
            attempt: 1,
            started_at: '2026-11-22T10:14:58.010Z',
            duration_ms: 5001,
            status_code: null,
            error: 'timeout',
            response_body: null,
          },
          {
            attempt: 2,
            started_at: '2026-11-22T10:16:01.400Z',
            duration_ms: 48,
            status_code: 500,
            error: null,
            response_body: '{"error":"database unavailable"}',
          },
        ],
      },
    ],
  },
);
export type DeliveryDetail = Static<typeof DeliveryDetail>;

export const DeliveryPage = Type.Object({ data: Type.Array(DeliverySummary), pagination: Pagination });

export const ListDeliveriesQuery = Type.Object(
  {
    status: Type.Optional(StringEnum(DELIVERY_STATUSES)),
    event_type: Type.Optional(StringEnum(EVENT_TYPES)),
    ...PageQuery,
  },
  { additionalProperties: false },
);
export type ListDeliveriesQuery = Static<typeof ListDeliveriesQuery>;

export const RecoverBody = Type.Object(
  {
    since: Type.String({
      format: 'date-time',
      description: 'Start of the window (inclusive); within the delivery history (WEBHOOK_HISTORY_DAYS).',
    }),
    until: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'End of the window (exclusive); now when not given, and a later time counts as now.',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ since: '2026-11-23T08:00:00Z', until: '2026-11-23T09:00:00Z' }],
  },
);
export type RecoverBody = Static<typeof RecoverBody>;

export const Recovery = Type.Object(
  {
    id: Type.String({ description: 'Prefix `rcv_`.' }),
    webhook_id: Type.String(),
    since: Timestamp,
    until: Timestamp,
    status: StringEnum(['running', 'done'] as const),
    events_queued: Type.Integer({ description: 'Events queued for delivery again so far.' }),
    created_at: Timestamp,
  },
  {
    title: 'WebhookRecovery',
    examples: [
      {
        id: 'rcv_5TgH7jK9lM1nB3vC5xZ7qW',
        webhook_id: EXAMPLE_WEBHOOK_ID,
        since: '2026-11-23T08:00:00.000Z',
        until: '2026-11-23T09:00:00.000Z',
        status: 'done',
        events_queued: 42,
        created_at: '2026-11-23T09:30:12.345Z',
      },
    ],
  },
);
export type Recovery = Static<typeof Recovery>;
