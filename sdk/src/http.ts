// One request to the API, retried when that is safe: network failures and timeouts, 429
// (after `Retry-After`) and 5xx, with exponential backoff. Creations carry an Idempotency-Key,
// the same on every attempt, so a retried creation cannot create twice.
import { webCrypto } from './crypto.js';
import { ConnectionError, errorForStatus, RateLimitError, TributaryError } from './errors.js';
import { routes, type OperationId } from './operations.js';

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

interface ErrorEnvelope {
  error?: { code?: unknown; message?: unknown; param?: unknown };
}

const defaultSleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms);
  });

export class Transport {
  private readonly apiKey: string;
  private readonly origin: string;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(options: TransportOptions) {
    if (!options.apiKey) throw new TypeError('Tributary: apiKey is required');
    if (!options.baseUrl) throw new TypeError('Tributary: baseUrl is required');
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

  async call<T>(operation: OperationId, args: CallArgs, options: RequestOptions = {}): Promise<T> {
    const route = routes[operation];
    const url = this.url(route.path, args.path ?? [], args.query);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.apiKey}`,
      accept: 'application/json',
    };
    let body: string | undefined;
    if (args.body !== undefined) {
      body = JSON.stringify(args.body);
      headers['content-type'] = 'application/json';
    }
    const policy = args.retry ?? (route.method === 'POST' ? 'rate-limited-only' : 'safe');
    if (policy === 'keyed')
      headers['idempotency-key'] = options.idempotencyKey ?? (await newIdempotencyKey());
    const maxRetries = options.maxRetries ?? this.maxRetries;
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;

    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < maxRetries;
      let response: Response;
      const deadline = timeoutSignal(timeoutMs, options.signal);
      try {
        const init: RequestInit = { method: route.method, headers, signal: deadline.signal };
        if (body !== undefined) init.body = body;
        response = await this.fetchImpl(url, init);
      } catch (error) {
        deadline.clear();
        if (options.signal?.aborted) throw options.signal.reason;
        const failure = new ConnectionError(
          deadline.timedOut
            ? `${route.method} ${route.path} got no answer within ${timeoutMs} ms`
            : `${route.method} ${route.path} failed: ${describe(error)}`,
          { status: undefined, code: deadline.timedOut ? 'timeout' : 'connection_error', cause: error },
        );
        if (canRetry && policy !== 'rate-limited-only') {
          await this.sleep(this.backoff(attempt));
          continue;
        }
        throw failure;
      }

      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        deadline.clear();
        if (options.signal?.aborted) throw options.signal.reason;
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
          return JSON.parse(text) as T;
        } catch (error) {
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

  private url(template: string, path: readonly string[], query: object | undefined): string {
    let index = 0;
    const filled = template.replace(/\{[^}]+\}/g, (placeholder) => {
      const value = path[index++];
      if (value === undefined || value === '') {
        throw new TypeError(`Tributary: ${template} needs a value for ${placeholder}`);
      }
      return encodeURIComponent(value);
    });
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {}) as [
      string,
      string | number | boolean | undefined,
    ][]) {
      if (value !== undefined) search.append(name, String(value));
    }
    const qs = search.toString();
    return `${this.origin}${filled}${qs ? `?${qs}` : ''}`;
  }

  /** Exponential, with the upper half jittered so many clients do not retry in step. */
  private backoff(attempt: number): number {
    const ceiling = Math.min(this.maxDelayMs, this.initialDelayMs * 2 ** attempt);
    return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  }
}

function apiError(
  response: Response,
  text: string,
  requestId: string | undefined,
  retryAfterMs: number | undefined,
): TributaryError {
  let envelope: ErrorEnvelope = {};
  try {
    envelope = JSON.parse(text) as ErrorEnvelope;
  } catch {
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
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** One attempt's deadline, also ended by the caller's signal (no AbortSignal.any on Node 18). */
function timeoutSignal(
  ms: number,
  outer: AbortSignal | undefined,
): { signal: AbortSignal; timedOut: boolean; clear: () => void } {
  const controller = new AbortController();
  const state: { signal: AbortSignal; timedOut: boolean; clear: () => void } = {
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
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener('abort', onAbort, { once: true });
  state.clear = () => {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
  };
  return state;
}

async function newIdempotencyKey(): Promise<string> {
  return (await webCrypto()).randomUUID();
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}
