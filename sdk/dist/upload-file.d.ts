import type { Uploads } from './resources/uploads.js';
import type { CreateUploadParams, Upload } from './types.js';
/**
 * What to upload: a Blob or File (browsers, and Node 18+), bytes (a Uint8Array or Node Buffer),
 * or, in Node, the path of a file (read as a stream, never whole into memory).
 */
export type UploadSource = Blob | Uint8Array | string;
export interface UploadFileOptions extends Omit<CreateUploadParams, 'size'> {
    /** Hears the bytes the server has acknowledged or that are on their way, and the total. */
    onProgress?: (bytesSent: number, bytesTotal: number) => void;
    /** Stops the transfer (and any wait); the promise rejects with the signal's reason. */
    signal?: AbortSignal;
    /** Resolve only once the video is made: polls the upload until `ready` or `errored`. */
    waitUntilReady?: boolean;
    /** How often `waitUntilReady` asks (default 2000 ms). */
    pollIntervalMs?: number;
    /**
     * Continue an unfinished upload (its id or object, from an earlier run) instead of creating
     * one: the transfer starts at the offset the server has. The file must be the same.
     */
    resume?: string | Upload;
    /** Waits before each retry of a failed request (tus-js-client's `retryDelays`). */
    retryDelays?: number[];
    /** Bytes per PATCH request (default 16 MiB; a proxy in front may limit request bodies). */
    chunkSize?: number;
    /** The creation's Idempotency-Key (a new random one otherwise). */
    idempotencyKey?: string;
}
export declare const DEFAULT_RETRY_DELAYS: number[];
export declare function uploadFile(uploads: Uploads, input: UploadSource, options: UploadFileOptions): Promise<Upload>;
