export { Tributary, type TributaryOptions } from './client.ts';
export type { RequestOptions, RetryOptions } from './http.ts';
export { PageIterator, type Page } from './pagination.ts';
export { AuthenticationError, ConflictError, ConnectionError, InvalidRequestError, NotFoundError, PermissionError, RateLimitError, ServerError, TributaryError, WebhookVerificationError, } from './errors.ts';
export { verifyWebhook, timingSafeEqual, DEFAULT_TOLERANCE_SECONDS, type VerifyOptions, type WebhookHeaders, } from './webhooks/verify.ts';
export type * from './types.ts';
export type * from './webhooks/events.ts';
export type { paths, operations } from './generated/openapi.ts';
