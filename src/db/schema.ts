// Every table the service reads or writes, in one place for Kysely. Each table's shape
// lives in its feature folder.
import type { ColumnType } from 'kysely';
import type { ApiKeyTable, UserTable } from '../accounts/account.table.ts';
import type { ChannelKeyTable } from '../channels/channel-key.table.ts';
import type { EventTable } from '../events/event.table.ts';
import type { IdempotencyKeyTable } from '../idempotency/idempotency.table.ts';
import type { StreamLeaseTable } from '../ingest/stream-lease.table.ts';
import type { StreamTable } from '../streams/stream.table.ts';
import type { ViewerSampleTable } from '../streams/viewer-sample.table.ts';
import type { SubscriptionTable } from '../subscriptions/subscription.table.ts';
import type { VideoTable } from '../videos/video.table.ts';
import type { VideoViewTable } from '../viewers/video-view.table.ts';
import type { DeliveryAttemptTable, WebhookDeliveryTable, WebhookTable } from '../webhooks/webhook.table.ts';
import type { WebhookRecoveryTable } from '../webhooks/recovery.table.ts';
import type {
  ApiKeyUsageColumns,
  EmailTokenTable,
  SignInFailureTable,
  SignInLinkTable,
  UserLoginColumns,
} from '../accounts/login.table.ts';
import type { WebSessionTable } from '../accounts/session.table.ts';
import type { StorageQuotaColumns, UploadTable } from '../uploads/upload.table.ts';
import type { MediaJobTable } from '../jobs/job.table.ts';
import type { SimulcastTargetTable } from '../simulcast/simulcast-target.table.ts';
import type { GoLiveNoticeTable, MailMessageTable } from '../mail/mail.table.ts';
import type { ProfileColumns, ProfileImageTable } from '../profiles/profile.table.ts';
import type {
  ChatChannelTable,
  ChatMessageTable,
  ChatModerationActionTable,
  ChatModeratorTable,
  ChatRestrictionTable,
  ChatRoomTable,
} from '../chat/chat.table.ts';
import type {
  AuditLogTable,
  ReportTable,
  TakedownColumns,
  UserStandingColumns,
} from '../moderation/moderation.table.ts';

export interface Tables {
  users: UserTable & UserLoginColumns & StorageQuotaColumns & ProfileColumns & UserStandingColumns;
  api_keys: ApiKeyTable & ApiKeyUsageColumns;
  streams: StreamTable & TakedownColumns;
  videos: VideoTable & TakedownColumns;
  subscriptions: SubscriptionTable & { notify_live: ColumnType<number, number | undefined, number> };
  events: EventTable;
  webhooks: WebhookTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_delivery_attempts: DeliveryAttemptTable;
  idempotency_keys: IdempotencyKeyTable;
  webhook_recoveries: WebhookRecoveryTable;
  channel_keys: ChannelKeyTable;
  video_views: VideoViewTable;
  stream_viewer_samples: ViewerSampleTable;
  web_sessions: WebSessionTable;
  sign_in_failures: SignInFailureTable;
  sign_in_links: SignInLinkTable;
  uploads: UploadTable;
  media_jobs: MediaJobTable;
  stream_leases: StreamLeaseTable;
  simulcast_targets: SimulcastTargetTable;
  email_tokens: EmailTokenTable;
  mail_messages: MailMessageTable;
  go_live_notices: GoLiveNoticeTable;
  profile_images: ProfileImageTable;
  chat_rooms: ChatRoomTable;
  chat_messages: ChatMessageTable;
  chat_moderators: ChatModeratorTable;
  chat_restrictions: ChatRestrictionTable;
  chat_channels: ChatChannelTable;
  chat_moderation_actions: ChatModerationActionTable;
  reports: ReportTable;
  audit_log: AuditLogTable;
}
