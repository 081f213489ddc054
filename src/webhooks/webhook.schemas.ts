import { Type, type Static } from 'typebox';
import { StringEnum, Timestamp } from '../http/schemas.ts';
import { EVENT_TYPES } from '../events/event-types.ts';
import { MAX_URL_LENGTH } from './url-safety.ts';

export const MAX_WEBHOOKS_PER_ACCOUNT = 20;

const webhookFields = {
  id: Type.String({ description: 'Prefix `wh_`.' }),
  url: Type.String({ description: 'The registered HTTPS endpoint.' }),
  events: Type.Array(Type.String(), { description: 'Subscribed event types, or `["*"]`.' }),
  status: StringEnum(['active', 'disabled'] as const),
  created_at: Timestamp,
};

export const Webhook = Type.Object(webhookFields, { title: 'Webhook' });
export type Webhook = Static<typeof Webhook>;

export const CreatedWebhook = Type.Object(
  {
    ...webhookFields,
    secret: Type.String({ description: 'Signing secret. Shown only in this response.' }),
  },
  { title: 'CreatedWebhook' },
);
export type CreatedWebhook = Static<typeof CreatedWebhook>;

export const WebhookList = Type.Object({ data: Type.Array(Webhook) });

export const DeletedWebhook = Type.Object({ deleted: Type.Literal(true), id: Type.String() });

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ maxLength: MAX_URL_LENGTH, description: 'An absolute https:// URL.' }),
    events: Type.Array(Type.String({ maxLength: 64 }), {
      minItems: 1,
      maxItems: EVENT_TYPES.length,
      description: `Event types (${EVENT_TYPES.join(', ')}), or the single item \`*\` for all current and future ones.`,
    }),
  },
  { additionalProperties: false },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const RotatedWebhook = Type.Object(
  {
    ...webhookFields,
    secret: Type.String({ description: 'The new signing secret. Shown only in this response.' }),
    previous_secret_expires_at: {
      ...Timestamp,
      description: 'Until then (24 hours) deliveries are signed with the previous secret too.',
    },
  },
  {
    title: 'RotatedWebhook',
    examples: [
      {
        id: 'wh_4Xq9T0cZbN2mK7pR1sV8wY',
        url: 'https://example.com/hooks/tributary',
        events: ['stream.started', 'video.published'],
        status: 'active',
        created_at: '2026-11-20T09:15:00.000Z',
        secret: 'whsec_Zk3P9qLr0VbT7mYc2XwN5sJd8HfA4eGu',
        previous_secret_expires_at: '2026-11-24T17:40:12.345Z',
      },
    ],
  },
);
export type RotatedWebhook = Static<typeof RotatedWebhook>;
