// The event types the outbox records and webhooks subscribe to: one list, and the type read
// from it, so adding a type is one edit and the API's validation cannot disagree with the table.
export const EVENT_TYPES = [
  'stream.started',
  'stream.ended',
  'video.published',
  'subscription.created',
  'subscription.cancelled',
  // The creator's changes through the API or the dashboard (docs/webhooks.md).
  'stream.updated',
  'stream.deleted',
  'video.updated',
  'video.deleted',
  // Uploads' progress (docs/webhooks.md); video.published says when one is a video.
  'upload.processing',
  'upload.ready',
  'upload.errored',
  'upload.cancelled',
  // Simulcast destinations' states while a stream is live (docs/webhooks.md); one event per
  // change of state, one failing per failure streak.
  'simulcast_target.connecting',
  'simulcast_target.live',
  'simulcast_target.failing',
  'simulcast_target.stopped',
  // Live chat (docs/webhooks.md): messages and the moderators' actions, for bots and archives.
  'chat_message.created',
  'chat_message.deleted',
  'chat_user.timed_out',
  'chat_user.banned',
  'chat_user.restriction_lifted',
  'chat_settings.updated',
  'chat_moderator.added',
  'chat_moderator.removed',
  'chat_blocked_words.updated',
  'ping',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

const KNOWN: ReadonlySet<string> = new Set(EVENT_TYPES);

export function isEventType(value: string): value is EventType {
  return KNOWN.has(value);
}
