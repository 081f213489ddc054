// One request to the API, retried when that is safe: network failures and timeouts, 429
// (after `Retry-After`) and 5xx, with exponential backoff. Creations carry an Idempotency-Key,
// the same on every attempt, so a retried creation cannot create twice.
import { webCrypto } from './crypto.js';
import { ConnectionError, errorForStatus, RateLimitError, TributaryError } from './errors.js';
import { routes } from './operations.js';
const defaultSleep = (ms) => new Promise((resolve) => {
    setTimeout(resolve, ms);
});
export class Transport {
    apiKey;
    origin;
    timeoutMs;
    maxRetries;
    initialDelayMs;
    maxDelayMs;
    maxRetryAfterMs;
    fetchImpl;
    sleep;
    constructor(options) {
        if (!options.apiKey)
            throw new TypeError('Tributary: apiKey is required');
        if (!options.baseUrl)
            throw new TypeError('Tributary: baseUrl is required');
        this.apiKey = options.apiKey;
        // The service's origin; a trailing /v1 is accepted too, since the paths carry it.
        this.origin = options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
        this.timeoutMs = options.timeoutMs ?? 30_000;
        this.maxRetries = options.retry?.maxRetries ?? 2;
        this.initialDelayMs = options.retry?.initialDelayMs ?? 500;
        this.maxDelayMs = options.retry?.maxDelayMs ?? 8000;
        this.maxRetryAfterMs = options.retry?.maxRetryAfterMs ?? 60_000;
        this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
        this.sleep = options.sleep ?? defaultSleep;
    }
    async call(operation, args, options = {}) {
        const route = routes[operation];
        const url = this.url(route.path, args.path ?? [], args.query);
        const headers = {
            authorization: `Bearer ${this.apiKey}`,
            accept: 'application/json',
        };
        let body;
        if (args.body !== undefined) {
            body = JSON.stringify(args.body);
            headers['content-type'] = 'application/json';
        }
        const policy = args.retry ?? (route.method === 'POST' ? 'rate-limited-only' : 'safe');
        if (policy === 'keyed')
            headers['idempotency-key'] = options.idempotencyKey ?? (await newIdempotencyKey());
        const maxRetries = options.maxRetries ?? this.maxRetries;
        const timeoutMs = options.timeoutMs ?? this.timeoutMs;
        for (let attempt = 0;; attempt++) {
            const canRetry = attempt < maxRetries;
            let response;
            const deadline = timeoutSignal(timeoutMs, options.signal);
            try {
                const init = { method: route.method, headers, signal: deadline.signal };
                if (body !== undefined)
                    init.body = body;
                response = await this.fetchImpl(url, init);
            }
            catch (error) {
                deadline.clear();
                if (options.signal?.aborted)
                    throw options.signal.reason;
                const failure = new ConnectionError(deadline.timedOut
                    ? `${route.method} ${route.path} got no answer within ${timeoutMs} ms`
                    : `${route.method} ${route.path} failed: ${describe(error)}`, { status: undefined, code: deadline.timedOut ? 'timeout' : 'connection_error', cause: error });
                if (canRetry && policy !== 'rate-limited-only') {
                    await this.sleep(this.backoff(attempt));
                    continue;
                }
                throw failure;
            }
            let text;
            try {
                text = await response.text();
            }
            catch (error) {
                deadline.clear();
                if (options.signal?.aborted)
                    throw options.signal.reason;
                if (canRetry && policy !== 'rate-limited-only') {
                    await this.sleep(this.backoff(attempt));
                    continue;
                }
                throw new ConnectionError(`${route.method} ${route.path}: the answer was cut off`, {
                    status: response.status,
                    code: deadline.timedOut ? 'timeout' : 'connection_error',
                    cause: error,
                });
            }
            deadline.clear();
            const requestId = response.headers.get('x-request-id') ?? undefined;
            if (response.ok) {
                try {
                    return JSON.parse(text);
                }
                catch (error) {
                    throw new TributaryError(`${route.method} ${route.path} answered ${response.status} with no JSON`, {
                        status: response.status,
                        code: 'invalid_response',
                        requestId,
                        cause: error,
                    });
                }
            }
            const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
            if (canRetry && response.status === 429 && (retryAfterMs ?? 0) <= this.maxRetryAfterMs) {
                await this.sleep(retryAfterMs ?? this.backoff(attempt));
                continue;
            }
            if (canRetry && response.status >= 500 && policy !== 'rate-limited-only') {
                await this.sleep(Math.max(retryAfterMs ?? 0, this.backoff(attempt)));
                continue;
            }
            const error = apiError(response, text, requestId, retryAfterMs);
            // An earlier attempt of this creation (one that timed out here) is still being handled:
            // asked again later, the service answers with its result.
            if (canRetry && policy === 'keyed' && error.code === 'idempotency_key_in_use') {
                await this.sleep(Math.max(retryAfterMs ?? 0, this.backoff(attempt)));
                continue;
            }
            throw error;
        }
    }
    url(template, path, query) {
        let index = 0;
        const filled = template.replace(/\{[^}]+\}/g, (placeholder) => {
            const value = path[index++];
            if (value === undefined || value === '') {
                throw new TypeError(`Tributary: ${template} needs a value for ${placeholder}`);
            }
            return encodeURIComponent(value);
        });
        const search = new URLSearchParams();
        for (const [name, value] of Object.entries(query ?? {})) {
            if (value !== undefined)
                search.append(name, String(value));
        }
        const qs = search.toString();
        return `${this.origin}${filled}${qs ? `?${qs}` : ''}`;
    }
    /** Exponential, with the upper half jittered so many clients do not retry in step. */
    backoff(attempt) {
        const ceiling = Math.min(this.maxDelayMs, this.initialDelayMs * 2 ** attempt);
        return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
    }
}
function apiError(response, text, requestId, retryAfterMs) {
    let envelope = {};
    try {
        envelope = JSON.parse(text);
    }
    catch {
        // not the API's envelope (a proxy's page): the status alone must do
    }
    const error = envelope.error ?? {};
    const code = typeof error.code === 'string' ? error.code : `http_${response.status}`;
    const message = typeof error.message === 'string' ? error.message : `HTTP ${response.status}`;
    const details = {
        status: response.status,
        code,
        param: typeof error.param === 'string' ? error.param : undefined,
        requestId,
        retryAfter: retryAfterMs === undefined ? undefined : retryAfterMs / 1000,
    };
    return response.status === 429 ? new RateLimitError(message, details) : errorForStatus(message, details);
}
/** Retry-After as seconds or an HTTP date, in milliseconds from now. */
export function parseRetryAfter(value) {
    if (value === null || value.trim() === '')
        return undefined;
    if (/^\d+$/.test(value.trim()))
        return Number(value.trim()) * 1000;
    const at = Date.parse(value);
    return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
/** One attempt's deadline, also ended by the caller's signal (no AbortSignal.any on Node 18). */
function timeoutSignal(ms, outer) {
    const controller = new AbortController();
    const state = {
        signal: controller.signal,
        timedOut: false,
        clear: () => undefined,
    };
    const timer = setTimeout(() => {
        state.timedOut = true;
        controller.abort(new Error('timeout'));
    }, ms);
    const onAbort = () => {
        controller.abort(outer?.reason);
    };
    if (outer?.aborted)
        controller.abort(outer.reason);
    else
        outer?.addEventListener('abort', onAbort, { once: true });
    state.clear = () => {
        clearTimeout(timer);
        outer?.removeEventListener('abort', onAbort);
    };
    return state;
}
async function newIdempotencyKey() {
    return (await webCrypto()).randomUUID();
}
function describe(error) {
    if (error instanceof Error) {
        const cause = error.cause;
        return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
    }
    return String(error);
}
