export { Tributary, type TributaryOptions } from './client.js';
export type { RequestOptions, RetryOptions } from './http.js';
export { PageIterator, type Page } from './pagination.js';
export { DEFAULT_RETRY_DELAYS, type UploadFileOptions, type UploadSource } from './upload-file.js';
export { AuthenticationError, ConflictError, ConnectionError, InvalidRequestError, NotFoundError, PermissionError, RateLimitError, ServerError, TributaryError, WebhookVerificationError, } from './errors.js';
export { verifyWebhook, timingSafeEqual, DEFAULT_TOLERANCE_SECONDS, type VerifyOptions, type WebhookHeaders, } from './webhooks/verify.js';
export type * from './types.js';
export type * from './webhooks/events.js';
export type { paths, operations } from './generated/openapi.js';
