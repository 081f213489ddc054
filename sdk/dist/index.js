export { Tributary } from './client.js';
export { PageIterator } from './pagination.js';
export { DEFAULT_RETRY_DELAYS } from './upload-file.js';
export { AuthenticationError, ConflictError, ConnectionError, InvalidRequestError, NotFoundError, PermissionError, RateLimitError, ServerError, TributaryError, WebhookVerificationError, } from './errors.js';
export { verifyWebhook, timingSafeEqual, DEFAULT_TOLERANCE_SECONDS, } from './webhooks/verify.js';
