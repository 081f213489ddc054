import { Transport, type RetryOptions } from './http.js';
import { Streams } from './resources/streams.js';
import { Videos } from './resources/videos.js';
import { Webhooks } from './resources/webhooks.js';
import { verifyWebhook } from './webhooks/verify.js';

export interface TributaryOptions {
  /** An API key (`tk_...`); a read-scoped key can only read. */
  apiKey: string;
  /** The service's address, such as `https://api.example.com` (a trailing `/v1` is fine too). */
  baseUrl: string;
  /** One attempt's time limit in milliseconds (default 30,000). */
  timeoutMs?: number;
  /** Retries of network errors, timeouts, 429 and 5xx (default 2 retries, 0.5 s doubling to 8 s). */
  retry?: RetryOptions;
  /** The fetch implementation (default the global fetch). */
  fetch?: typeof fetch;
  /** How to wait between attempts (default setTimeout); for tests that must not wait. */
  sleep?: (ms: number) => Promise<void>;
}

/** The Tributary API client. */
export class Tributary {
  /** Delivery verification, usable without a client (a receiver needs no API key). */
  static readonly webhooks = { verify: verifyWebhook };

  readonly streams: Streams;
  readonly videos: Videos;
  readonly webhooks: Webhooks;

  constructor(options: TributaryOptions) {
    const transport = new Transport(options);
    this.streams = new Streams(transport);
    this.videos = new Videos(transport);
    this.webhooks = new Webhooks(transport);
  }
}
