// The real application with media routes and live ingest wired in, as `tributary serve` wires
// them (see app.ts): a listening HTTP server whose PUBLIC_URL is its own address (so
// stream_url, thumbnail_url and playback_url really answer), an RTMP listener on a free port,
// real ffmpeg packagers, and a log captured line by line so tests can check what was logged.
import type { TestContext } from 'node:test';
import type { Dialect } from '../../src/db/dialect.ts';
import { systemClock, type Clock } from '../../src/shared/clock.ts';
import { startTestApp, type TestAppOptions, type MediaOptions, type TestApp } from './app.ts';

export { freePort, type OutboxEvent } from './app.ts';
export type MediaTestServer = TestApp;

export interface MediaServerOptions extends MediaOptions {
  dialect: Dialect;
  rateLimitPerIp?: number;
  /** Also run the webhook delivery worker, trusting the test CA, as `serve` does. */
  deliverWebhooks?: boolean;
  /** The services' clock (the system clock unless given). */
  clock?: Clock;
  /** Upload limits and job attempts (src/config.ts's UploadConfig). */
  uploads?: TestAppOptions['uploads'];
  /** MEDIA_STORAGE=s3: the object store, and the upload worker runs its video.store jobs. */
  objectStore?: TestAppOptions['objectStore'];
  storeRetryDelaysMs?: TestAppOptions['storeRetryDelaysMs'];
  /** The realtime side's settings (REALTIME_MAX_VIEWERS...). */
  realtime?: TestAppOptions['realtime'];
}

export function startMediaServer(t: TestContext, options: MediaServerOptions): Promise<MediaTestServer> {
  const {
    dialect,
    rateLimitPerIp,
    deliverWebhooks,
    clock,
    uploads,
    objectStore,
    storeRetryDelaysMs,
    realtime,
    ...media
  } = options;
  return startTestApp(t, {
    dialect,
    ...(objectStore ? { objectStore, uploadWorker: true } : {}),
    ...(storeRetryDelaysMs ? { storeRetryDelaysMs } : {}),
    ...(uploads ? { uploads } : {}),
    ...(realtime ? { realtime } : {}),
    clock: clock ?? systemClock,
    rateLimitPerIp: rateLimitPerIp ?? 1000,
    logger: 'capture',
    secretKey: Buffer.alloc(32, 9),
    media,
    worker: deliverWebhooks === true,
  });
}
