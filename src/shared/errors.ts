// Errors that reach API clients. Services throw these typed values; the HTTP layer maps each
// code to a status in one table (src/http/error-handler.ts). Anything else is unexpected and
// answered as a generic internal_error.

export type ErrorCode =
  | 'malformed_request'
  | 'invalid_json'
  | 'invalid_content_type'
  | 'parameter_missing'
  | 'parameter_invalid'
  | 'parameter_unknown'
  | 'invalid_cursor'
  | 'authentication_required'
  | 'invalid_api_key'
  | 'insufficient_scope'
  | 'resource_not_found'
  | 'route_not_found'
  | 'method_not_allowed'
  | 'webhook_url_taken'
  | 'webhook_limit_reached'
  | 'state_conflict'
  | 'idempotency_key_invalid'
  | 'idempotency_key_reused'
  | 'idempotency_key_in_use'
  | 'delivery_in_progress'
  // Uploads (src/uploads/).
  | 'upload_limit_reached'
  | 'storage_quota_exceeded'
  | 'upload_expired'
  | 'upload_cancelled'
  | 'upload_offset_mismatch'
  | 'upload_size_mismatch'
  | 'unsupported_media_type'
  | 'tus_version_unsupported'
  // Simulcast (src/simulcast/).
  | 'simulcast_target_limit_reached'
  | 'request_timeout'
  | 'payload_too_large'
  | 'headers_too_large'
  | 'rate_limit_exceeded'
  | 'range_not_satisfiable'
  | 'service_unavailable'
  | 'internal_error'
  // The web app (src/web/): forms and sign-in.
  | 'csrf_failed'
  | 'invalid_credentials'
  | 'email_taken'
  | 'signups_closed'
  // Accounts whose address is not confirmed yet (mail configured, src/mail/).
  | 'email_unverified'
  // Sharing (src/web/share/): oEmbed in a format other than JSON.
  | 'format_not_implemented'
  // Profiles (src/profiles/): an upload that is not an image we take.
  | 'invalid_image'
  // Live chat (src/chat/): why a message was refused.
  | 'chat_banned'
  | 'chat_timed_out'
  | 'chat_followers_only'
  | 'chat_not_allowed'
  // Moderation (src/moderation/).
  | 'account_suspended'
  | 'operator_only'
  // Realtime playback over WebRTC (src/realtime/).
  | 'invalid_sdp'
  | 'stream_not_realtime'
  | 'stream_not_live'
  | 'realtime_capacity'
  | 'realtime_unavailable'
  // WHIP ingest (src/whip/): the publisher's refusals, as RTMP's are onStatus errors.
  | 'invalid_stream_key'
  | 'already_publishing'
  | 'stream_ended'
  | 'publish_withheld';

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly param: string | undefined;
  /** Seconds after which trying again may succeed: a Retry-After header and `retry_after_seconds`. */
  retryAfterSeconds: number | undefined;
  constructor(code: ErrorCode, message: string, param?: string) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.param = param;
  }
}

/** A dependency (the media store) did not answer: 503, with when to try again. */
export function serviceUnavailable(message: string, retryAfterSeconds: number): AppError {
  const error = new AppError('service_unavailable', message);
  error.retryAfterSeconds = retryAfterSeconds;
  return error;
}

export function invalidParameter(param: string, message: string): AppError {
  return new AppError('parameter_invalid', message, param);
}

export function notFound(
  resource:
    'stream' | 'video' | 'webhook' | 'user' | 'key' | 'subscription' | 'event' | 'recovery' | 'report',
  id: string,
): AppError {
  return new AppError('resource_not_found', `No ${resource} with id '${id}' exists.`, 'id');
}

export function stateConflict(message: string): AppError {
  return new AppError('state_conflict', message);
}

/** The error a service throws when a change does not fit the resource's current state. */
export function isStateConflict(error: unknown): error is AppError {
  return error instanceof AppError && error.code === 'state_conflict';
}
