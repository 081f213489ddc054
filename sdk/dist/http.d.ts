import { type OperationId } from './operations.js';
/**
 * When an operation may be sent again:
 * - `safe`: reads and changes that are the same when repeated (GET, DELETE, PATCH, enable);
 * - `keyed`: creations, sent with an Idempotency-Key the service uses to answer a repeat with
 *   the first result (also retried on 409 `idempotency_key_in_use`, an earlier attempt still
 *   being handled);
 * - `rate-limited-only`: only after a 429, which the service answers before doing anything
 *   (rotating a secret or sending a test twice would not be the same as once).
 */
export type RetryPolicy = 'safe' | 'keyed' | 'rate-limited-only';
export interface RetryOptions {
    /** Further attempts after the first (default 2). 0 turns retries off. */
    maxRetries?: number;
    /** The first backoff, doubled each retry (default 500 ms). */
    initialDelayMs?: number;
    /** The longest backoff (default 8 s). */
    maxDelayMs?: number;
    /** A 429 whose Retry-After asks for longer than this is not waited out (default 60 s). */
    maxRetryAfterMs?: number;
}
/** The client's options (`new Tributary(options)`), which its transport takes as they are. */
export interface TransportOptions {
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
export interface RequestOptions {
    /** Abandons the request (and its retries). */
    signal?: AbortSignal;
    /** The Idempotency-Key of a creation (a new random one per call otherwise). */
    idempotencyKey?: string;
    /** Overrides the client's timeout for this call. */
    timeoutMs?: number;
    /** Overrides the client's retry count for this call. */
    maxRetries?: number;
}
export interface CallArgs {
    /** Values for the path's placeholders, in order (`/v1/webhooks/{id}/deliveries/{event_id}`). */
    path?: readonly string[];
    query?: object | undefined;
    body?: unknown;
    retry?: RetryPolicy;
}
export declare class Transport {
    private readonly apiKey;
    private readonly origin;
    private readonly timeoutMs;
    private readonly maxRetries;
    private readonly initialDelayMs;
    private readonly maxDelayMs;
    private readonly maxRetryAfterMs;
    private readonly fetchImpl;
    private readonly sleep;
    constructor(options: TransportOptions);
    call<T>(operation: OperationId, args: CallArgs, options?: RequestOptions): Promise<T>;
    private url;
    /** Exponential, with the upper half jittered so many clients do not retry in step. */
    private backoff;
}
/** Retry-After as seconds or an HTTP date, in milliseconds from now. */
export declare function parseRetryAfter(value: string | null): number | undefined;
