import { Transport, type TransportOptions } from './http.js';
import { Ingest } from './resources/ingest.js';
import { Streams } from './resources/streams.js';
import { Videos } from './resources/videos.js';
import { Webhooks } from './resources/webhooks.js';
import { verifyWebhook } from './webhooks/verify.js';

export type TributaryOptions = TransportOptions;

/** The Tributary API client. */
export class Tributary {
  /** Delivery verification, usable without a client (a receiver needs no API key). */
  static readonly webhooks = { verify: verifyWebhook };

  readonly streams: Streams;
  /** The caller's channel stream key, which stays in the streaming software. */
  readonly ingest: Ingest;
  readonly videos: Videos;
  readonly webhooks: Webhooks;

  constructor(options: TributaryOptions) {
    const transport = new Transport(options);
    this.streams = new Streams(transport);
    this.ingest = new Ingest(transport);
    this.videos = new Videos(transport);
    this.webhooks = new Webhooks(transport);
  }
}
