// client.uploadFile: creates the upload (POST /v1/uploads, one Idempotency-Key across its
// retries), sends the bytes to its tus URL with tus-js-client (resuming from the server's
// offset after a lost connection, per `retryDelays`), and returns the upload, optionally once
// it is ready. tus-js-client is loaded on the first call, so the rest of the client stays free
// of it; in Node it reads a path as a file stream, in browsers it sends a Blob or File.
import { ConnectionError, errorForStatus, TributaryError } from './errors.js';
export const DEFAULT_RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000];
const DEFAULT_CHUNK_SIZE = 16 * 1024 * 1024;
function nodeRuntime() {
    const process = globalThis.process;
    return typeof process?.versions?.node === 'string';
}
let tusModule;
function loadTus() {
    tusModule ??= import('tus-js-client');
    return tusModule;
}
/** node:fs, imported only when a path is given (a bundler for browsers never sees it). */
async function nodeFs() {
    const name = 'node:fs';
    return (await import(/* webpackIgnore: true */ /* @vite-ignore */ name));
}
/** The input as tus-js-client takes it here, and its size. */
async function prepare(input) {
    if (typeof input === 'string') {
        if (!nodeRuntime())
            throw new TypeError('Tributary: a file path can only be uploaded in Node; pass a Blob or File');
        const fs = await nodeFs();
        const stat = await fs.promises.stat(input);
        if (!stat.isFile())
            throw new TypeError(`Tributary: ${input} is not a file`);
        return { source: fs.createReadStream(input), size: stat.size };
    }
    if (input instanceof Uint8Array) {
        if (!nodeRuntime())
            return { source: new Blob([input.slice()]), size: input.byteLength };
        const Buffer = globalThis.Buffer;
        return {
            source: Buffer.from(input.buffer, input.byteOffset, input.byteLength),
            size: input.byteLength,
        };
    }
    if (typeof Blob !== 'undefined' && input instanceof Blob) {
        if (!nodeRuntime())
            return { source: input, size: input.size };
        // tus-js-client reads Buffers and file streams in Node, not Blobs.
        const Buffer = globalThis.Buffer;
        return { source: Buffer.from(await input.arrayBuffer()), size: input.size };
    }
    throw new TypeError('Tributary: uploadFile takes a Blob, a File, a Uint8Array or (in Node) a file path');
}
/** A tus failure as the client's errors: the API's envelope when the server answered. */
function tusError(error) {
    const detailed = error;
    const response = detailed.originalResponse ?? null;
    if (!response) {
        return new ConnectionError(`Sending the file failed: ${error.message}`, {
            status: undefined,
            code: 'connection_error',
            cause: error,
        });
    }
    const status = response.getStatus();
    let code = `http_${status}`;
    let message = `The upload URL answered ${status}`;
    try {
        const envelope = JSON.parse(response.getBody());
        if (typeof envelope.error?.code === 'string')
            code = envelope.error.code;
        if (typeof envelope.error?.message === 'string')
            message = envelope.error.message;
    }
    catch {
        // not the API's envelope: the status must do
    }
    const requestId = response.getHeader('X-Request-Id');
    return errorForStatus(message, { status, code, requestId, cause: error });
}
function sleep(ms, signal) {
    return new Promise((resolve, reject) => {
        if (signal?.aborted) {
            reject(signal.reason);
            return;
        }
        const onAbort = () => {
            clearTimeout(timer);
            reject(signal?.reason);
        };
        const timer = setTimeout(() => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
        }, ms);
        signal?.addEventListener('abort', onAbort, { once: true });
    });
}
/** Sends the bytes from the server's offset; resolves when the last byte is acknowledged. */
async function send(input, url, options, prepared) {
    const tus = await loadTus();
    const { onProgress, signal } = options;
    if (signal?.aborted)
        throw signal.reason;
    await new Promise((resolve, reject) => {
        const onAbort = () => {
            void upload.abort().finally(() => {
                reject(signal?.reason);
            });
        };
        const upload = new tus.Upload(prepared.source, {
            uploadUrl: url,
            uploadSize: prepared.size,
            chunkSize: options.chunkSize ?? DEFAULT_CHUNK_SIZE,
            retryDelays: options.retryDelays ?? DEFAULT_RETRY_DELAYS,
            // The SDK resumes by the upload's id (`resume`), not by a fingerprint kept on disk.
            storeFingerprintForResuming: false,
            metadata: { filename: typeof input === 'string' ? (input.split(/[\\/]/).pop() ?? '') : '' },
            onProgress: (sent, total) => {
                onProgress?.(sent, total);
            },
            onError: (error) => {
                signal?.removeEventListener('abort', onAbort);
                reject(tusError(error));
            },
            onSuccess: () => {
                signal?.removeEventListener('abort', onAbort);
                resolve();
            },
        });
        signal?.addEventListener('abort', onAbort, { once: true });
        upload.start();
    });
}
const FINISHED = new Set(['ready', 'errored', 'cancelled']);
export async function uploadFile(uploads, input, options) {
    const { onProgress, signal, waitUntilReady, pollIntervalMs, resume, retryDelays, chunkSize, idempotencyKey, ...fields } = options;
    const prepared = await prepare(input);
    const request = {};
    if (signal)
        request.signal = signal;
    let upload;
    if (resume === undefined) {
        const createOptions = { ...request };
        if (idempotencyKey !== undefined)
            createOptions.idempotencyKey = idempotencyKey;
        upload = await uploads.create({ ...fields, size: prepared.size }, createOptions);
    }
    else {
        upload = await uploads.get(typeof resume === 'string' ? resume : resume.id, request);
        if (upload.size !== prepared.size) {
            throw new TypeError(`Tributary: upload ${upload.id} is for a file of ${upload.size} bytes; this one has ${prepared.size}`);
        }
    }
    if (upload.upload_url !== null) {
        await send(input, upload.upload_url, { onProgress, signal, retryDelays, chunkSize }, prepared);
        upload = await uploads.get(upload.id, request);
    }
    else if (upload.status === 'waiting' || upload.status === 'uploading') {
        throw new TributaryError(`Upload ${upload.id} has no upload URL`, {
            status: undefined,
            code: 'invalid_response',
        });
    }
    while (waitUntilReady === true && !FINISHED.has(upload.status)) {
        await sleep(pollIntervalMs ?? 2000, signal);
        upload = await uploads.get(upload.id, request);
    }
    return upload;
}
