import { type TransportOptions } from './http.js';
import { Ingest } from './resources/ingest.js';
import { Simulcast } from './resources/simulcast.js';
import { Streams } from './resources/streams.js';
import { Uploads } from './resources/uploads.js';
import { Videos } from './resources/videos.js';
import { Webhooks } from './resources/webhooks.js';
import { verifyWebhook } from './webhooks/verify.js';
import type { Upload } from './types.js';
import { type UploadFileOptions, type UploadSource } from './upload-file.js';
export type TributaryOptions = TransportOptions;
/** The Tributary API client. */
export declare class Tributary {
    /** Delivery verification, usable without a client (a receiver needs no API key). */
    static readonly webhooks: {
        verify: typeof verifyWebhook;
    };
    readonly streams: Streams;
    /** The caller's channel stream key, which stays in the streaming software. */
    readonly ingest: Ingest;
    /** Streams' simulcast destinations, and (`simulcast.defaults`) those every new stream starts with. */
    readonly simulcast: Simulcast;
    readonly videos: Videos;
    /** Uploads by their API calls; `uploadFile` does the whole upload. */
    readonly uploads: Uploads;
    readonly webhooks: Webhooks;
    constructor(options: TributaryOptions);
    /**
     * Uploads a video file: creates the upload (its title and the video's other fields from
     * `options`), sends the bytes to its tus URL (resuming after a lost connection), and returns
     * the upload, `processing` or, with `waitUntilReady: true`, `ready` (with `video_id`) or
     * `errored` (with `error.code` and `error.message`).
     */
    uploadFile(input: UploadSource, options: UploadFileOptions): Promise<Upload>;
}
