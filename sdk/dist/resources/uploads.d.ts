import type { RequestOptions, Transport } from '../http.js';
import { PageIterator } from '../pagination.js';
import type { CreateUploadParams, ListUploadsParams, Upload } from '../types.js';
/**
 * Uploads by their API calls. `client.uploadFile` does all of it (create, send the bytes with
 * tus, wait); these are for a program that sends the bytes itself or checks on an upload.
 */
export declare class Uploads {
    private readonly transport;
    constructor(transport: Transport);
    /**
     * Declares a file (`size` in bytes) and its video; the answer's `upload_url` is the tus
     * resource to send exactly that many bytes to. Retried with one Idempotency-Key.
     */
    create(params: CreateUploadParams, options?: RequestOptions): Promise<Upload>;
    /** An upload's status, bytes received, progress and, once ready, its `video_id`. */
    get(id: string, options?: RequestOptions): Promise<Upload>;
    /** The account's uploads, newest first: await it for one page, or `for await` over all. */
    list(params?: ListUploadsParams, options?: RequestOptions): PageIterator<Upload>;
    /** Cancels an upload still waiting for or receiving bytes; its bytes are removed. */
    cancel(id: string, options?: RequestOptions): Promise<Upload>;
}
