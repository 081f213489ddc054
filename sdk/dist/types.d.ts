import type { BodyOf, QueryOf, ResponseOf } from './operations.js';
export type Stream = ResponseOf<'getStream'>;
export type StreamListItem = ResponseOf<'listStreams'>['data'][number];
/** Where an encoder publishes: on the creator's own requests with a write-scoped key only. */
export type StreamIngest = NonNullable<Stream['ingest']>;
export type StreamStatus = Stream['status'];
export type Category = Stream['category'];
export type CreateStreamParams = BodyOf<'createStream'>;
export type ListStreamsParams = QueryOf<'listStreams'>;
export type UpdateStreamParams = BodyOf<'updateStream'>;
export type DeletedStream = ResponseOf<'deleteStream'>;
/** The caller's RTMP server URL and channel stream key (GET /v1/ingest). */
export type IngestSettings = ResponseOf<'getIngestSettings'>;
/**
 * A simulcast destination: `state` is `idle`, `connecting`, `live`, `failing` (see
 * `state_reason`) or `stopped`; the key is never returned, only `stream_key_hint`.
 */
export type SimulcastTarget = ResponseOf<'getStreamSimulcastTarget'>;
export type SimulcastState = SimulcastTarget['state'];
export type SimulcastTargetList = ResponseOf<'listStreamSimulcastTargets'>;
export type CreateSimulcastTargetParams = BodyOf<'createStreamSimulcastTarget'>;
export type UpdateSimulcastTargetParams = BodyOf<'updateStreamSimulcastTarget'>;
export type DeletedSimulcastTarget = ResponseOf<'deleteStreamSimulcastTarget'>;
export type Video = ResponseOf<'getVideo'>;
export type VideoListItem = ResponseOf<'listVideos'>['data'][number];
export type ListVideosParams = QueryOf<'listVideos'>;
export type UpdateVideoParams = BodyOf<'updateVideo'>;
export type DeletedVideo = ResponseOf<'deleteVideo'>;
/** An upload: `waiting` -> `uploading` -> `processing` -> `ready` (with `video_id`), or `errored` / `cancelled`. */
export type Upload = ResponseOf<'getUpload'>;
export type UploadStatus = Upload['status'];
export type CreateUploadParams = BodyOf<'createUpload'>;
export type ListUploadsParams = QueryOf<'listUploads'>;
export type Webhook = ResponseOf<'listWebhooks'>['data'][number];
export type WebhookList = ResponseOf<'listWebhooks'>;
/** A new webhook: with its signing secret, shown only once. */
export type CreatedWebhook = ResponseOf<'createWebhook'>;
export type CreateWebhookParams = BodyOf<'createWebhook'>;
export type UpdateWebhookParams = BodyOf<'updateWebhook'>;
export type DeletedWebhook = ResponseOf<'deleteWebhook'>;
/** After a rotation: the new secret (shown once) and when the previous one stops signing. */
export type RotatedWebhook = ResponseOf<'rotateWebhookSecret'>;
export type WebhookTest = ResponseOf<'testWebhook'>;
export type DeliverySummary = ResponseOf<'listWebhookDeliveries'>['data'][number];
export type ListDeliveriesParams = QueryOf<'listWebhookDeliveries'>;
export type WebhookDelivery = ResponseOf<'getWebhookDelivery'>;
export type DeliveryAttempt = WebhookDelivery['attempts'][number];
export type RecoverWebhookParams = BodyOf<'recoverWebhook'>;
export type WebhookRecovery = ResponseOf<'recoverWebhook'>;
