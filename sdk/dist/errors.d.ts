export interface ErrorDetails {
    status: number | undefined;
    code: string;
    param?: string | undefined;
    requestId?: string | undefined;
    /** For a 429: how long the service asked to wait, in seconds. */
    retryAfter?: number | undefined;
    cause?: unknown;
}
export declare class TributaryError extends Error {
    /** The HTTP status, or undefined when no answer came (ConnectionError). */
    readonly status: number | undefined;
    /** The API's machine-readable code (`parameter_invalid`, `resource_not_found`, ...). */
    readonly code: string;
    /** The offending field or query parameter, when the API named one. */
    readonly param: string | undefined;
    /** The `X-Request-Id` of the failed answer: quote it when asking the operator. */
    readonly requestId: string | undefined;
    constructor(message: string, details: ErrorDetails);
}
/** 400 and 413: the request was refused as it stands (`parameter_invalid`, `invalid_cursor`, ...). */
export declare class InvalidRequestError extends TributaryError {
}
/** 401: no key, or an unknown or revoked one. */
export declare class AuthenticationError extends TributaryError {
}
/** 403: a read-scoped key on a write endpoint. */
export declare class PermissionError extends TributaryError {
}
/** 404: no such resource (or another account's private one). */
export declare class NotFoundError extends TributaryError {
}
/** 409: a conflict with the current state (`webhook_url_taken`, `webhook_limit_reached`, ...). */
export declare class ConflictError extends TributaryError {
}
/** 429 after the retries: the budget of the key or address is spent. */
export declare class RateLimitError extends TributaryError {
    /** Seconds the service asked to wait (`Retry-After`), when it said. */
    readonly retryAfter: number | undefined;
    constructor(message: string, details: ErrorDetails);
}
/** 5xx after the retries. */
export declare class ServerError extends TributaryError {
}
/** No answer: the connection failed or the request timed out (code `connection_error` or `timeout`). */
export declare class ConnectionError extends TributaryError {
}
/** A webhook delivery whose signature, timestamp or body did not check out. */
export declare class WebhookVerificationError extends TributaryError {
    constructor(message: string, code: string);
}
export declare function errorForStatus(message: string, details: ErrorDetails & {
    status: number;
}): TributaryError;
