// What a delivery's body holds, typed by event type (decisions.md, "Event data").
import type { SimulcastTarget, Stream, Upload, Video } from '../types.js';

/** A stream event's `data`: the stream's detail object, without ingest settings. */
export type StreamEventData = Omit<Stream, 'ingest'>;

/** A subscription event's `data`. */
export interface Subscription {
  /** Prefix `sub_`. */
  id: string;
  viewer_id: string;
  creator_id: string;
  status: 'active' | 'cancelled';
  created_at: string;
  cancelled_at: string | null;
}

/** `stream.deleted` and `video.deleted`: the resource is gone, only its id remains. */
export interface DeletedEventData {
  id: string;
  deleted: true;
}

export interface PingEventData {
  webhook_id: string;
}

export interface WebhookEventData {
  'stream.started': StreamEventData;
  'stream.ended': StreamEventData;
  'video.published': Video;
  'subscription.created': Subscription;
  'subscription.cancelled': Subscription;
  'stream.updated': StreamEventData;
  'stream.deleted': DeletedEventData;
  'video.updated': Video;
  'video.deleted': DeletedEventData;
  'upload.processing': Upload;
  'upload.ready': Upload;
  'upload.errored': Upload;
  'upload.cancelled': Upload;
  'simulcast_target.connecting': SimulcastTarget;
  'simulcast_target.live': SimulcastTarget;
  'simulcast_target.failing': SimulcastTarget;
  'simulcast_target.stopped': SimulcastTarget;
  ping: PingEventData;
}

export type WebhookEventType = keyof WebhookEventData;

/**
 * The delivery envelope, a union over event types: checking `event.type` narrows `data`.
 * A webhook subscribed to `*` may also receive types added after this SDK was built.
 */
export type WebhookEvent = {
  [K in WebhookEventType]: {
    /** Prefix `evt_`; the same on every attempt, so usable to skip an event already handled. */
    id: string;
    type: K;
    created_at: string;
    data: WebhookEventData[K];
  };
}[WebhookEventType];
