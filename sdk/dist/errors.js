// Every failure the client reports is a TributaryError: an error answer of the API (with its
// status, `code`, `param` and request id) or a request that got no answer at all.
export class TributaryError extends Error {
    /** The HTTP status, or undefined when no answer came (ConnectionError). */
    status;
    /** The API's machine-readable code (`parameter_invalid`, `resource_not_found`, ...). */
    code;
    /** The offending field or query parameter, when the API named one. */
    param;
    /** The `X-Request-Id` of the failed answer: quote it when asking the operator. */
    requestId;
    constructor(message, details) {
        super(message, details.cause === undefined ? undefined : { cause: details.cause });
        this.name = new.target.name;
        this.status = details.status;
        this.code = details.code;
        this.param = details.param;
        this.requestId = details.requestId;
    }
}
/** 400 and 413: the request was refused as it stands (`parameter_invalid`, `invalid_cursor`, ...). */
export class InvalidRequestError extends TributaryError {
}
/** 401: no key, or an unknown or revoked one. */
export class AuthenticationError extends TributaryError {
}
/** 403: a read-scoped key on a write endpoint. */
export class PermissionError extends TributaryError {
}
/** 404: no such resource (or another account's private one). */
export class NotFoundError extends TributaryError {
}
/** 409: a conflict with the current state (`webhook_url_taken`, `webhook_limit_reached`, ...). */
export class ConflictError extends TributaryError {
}
/** 429 after the retries: the budget of the key or address is spent. */
export class RateLimitError extends TributaryError {
    /** Seconds the service asked to wait (`Retry-After`), when it said. */
    retryAfter;
    constructor(message, details) {
        super(message, details);
        this.retryAfter = details.retryAfter;
    }
}
/** 5xx after the retries. */
export class ServerError extends TributaryError {
}
/** No answer: the connection failed or the request timed out (code `connection_error` or `timeout`). */
export class ConnectionError extends TributaryError {
}
/** A webhook delivery whose signature, timestamp or body did not check out. */
export class WebhookVerificationError extends TributaryError {
    constructor(message, code) {
        super(message, { status: undefined, code });
    }
}
export function errorForStatus(message, details) {
    const { status } = details;
    if (status === 400 || status === 413)
        return new InvalidRequestError(message, details);
    if (status === 401)
        return new AuthenticationError(message, details);
    if (status === 403)
        return new PermissionError(message, details);
    if (status === 404)
        return new NotFoundError(message, details);
    if (status === 409)
        return new ConflictError(message, details);
    if (status === 429)
        return new RateLimitError(message, details);
    if (status >= 500)
        return new ServerError(message, details);
    return new TributaryError(message, details);
}
