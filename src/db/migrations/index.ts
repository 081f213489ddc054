import type { Migration } from 'kysely';
import * as initial from './2026-11-22-001-initial.ts';
import * as webhooks from './2026-11-22-002-webhooks.ts';
import * as streamKeyVault from './2026-11-23-001-stream-key-vault.ts';
import * as webhookSecretRotation from './2026-11-23-002-webhook-secret-rotation.ts';
import * as webhookManagement from './2026-11-23-003-webhook-management.ts';
import * as idempotencyKeys from './2026-11-23-004-idempotency-keys.ts';
import * as channelKeys from './2026-11-23-010-channel-keys.ts';
import * as videoViews from './2026-11-23-020-video-views.ts';
import * as latencyMode from './2026-11-23-040-latency-mode.ts';
import * as webSignIn from './2026-11-23-050-web-sign-in.ts';
import * as viewerSamples from './2026-11-23-060-viewer-samples.ts';
import * as uploads from './2026-11-26-001-uploads.ts';
import * as simulcast from './2026-11-26-002-simulcast.ts';
import * as videoMediaLocation from './2026-11-26-003-video-media-location.ts';
import * as accountMail from './2026-11-26-050-account-mail.ts';
import * as derivedStreamKeys from './2026-11-26-060-derived-stream-keys.ts';
import * as profiles from './2026-11-26-030-profiles.ts';
import * as search from './2026-11-26-020-search.ts';
import * as following from './2026-11-26-021-following.ts';
import * as chat from './2026-11-26-040-chat.ts';
import * as moderation from './2026-11-26-055-moderation.ts';
import * as videoThumbnailAt from './2026-11-26-075-video-thumbnail-at.ts';
import * as streamLeases from './2026-11-26-080-stream-leases.ts';
import * as searchPrefixIndex from './2026-11-26-076-search-prefix-index.ts';
import * as streamKeySecretTag from './2026-11-26-085-stream-key-secret-tag.ts';
import * as streamLeaseHealth from './2026-11-26-086-stream-lease-health.ts';
import * as searchNewestFirst from './2026-11-26-087-search-newest-first.ts';
import * as followingLiveIndex from './2026-11-26-105-following-live-index.ts';

// Migrations run in the order of their names; a new one is a new dated file added here.
export const migrations: Record<string, Migration> = {
  '2026-11-22-001-initial': initial,
  '2026-11-22-002-webhooks': webhooks,
  '2026-11-23-001-stream-key-vault': streamKeyVault,
  '2026-11-23-002-webhook-secret-rotation': webhookSecretRotation,
  '2026-11-23-003-webhook-management': webhookManagement,
  '2026-11-23-004-idempotency-keys': idempotencyKeys,
  '2026-11-23-010-channel-keys': channelKeys,
  '2026-11-23-020-video-views': videoViews,
  '2026-11-23-040-latency-mode': latencyMode,
  '2026-11-23-050-web-sign-in': webSignIn,
  '2026-11-23-060-viewer-samples': viewerSamples,
  '2026-11-26-001-uploads': uploads,
  '2026-11-26-002-simulcast': simulcast,
  '2026-11-26-003-video-media-location': videoMediaLocation,
  '2026-11-26-050-account-mail': accountMail,
  '2026-11-26-060-derived-stream-keys': derivedStreamKeys,
  '2026-11-26-030-profiles': profiles,
  '2026-11-26-020-search': search,
  '2026-11-26-021-following': following,
  '2026-11-26-040-chat': chat,
  '2026-11-26-055-moderation': moderation,
  '2026-11-26-075-video-thumbnail-at': videoThumbnailAt,
  '2026-11-26-076-search-prefix-index': searchPrefixIndex,
  '2026-11-26-080-stream-leases': streamLeases,
  '2026-11-26-085-stream-key-secret-tag': streamKeySecretTag,
  '2026-11-26-086-stream-lease-health': streamLeaseHealth,
  '2026-11-26-087-search-newest-first': searchNewestFirst,
  '2026-11-26-105-following-live-index': followingLiveIndex,
};
