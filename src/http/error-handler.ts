// The one place where errors become responses. Catalogued AppErrors keep their code and
// message; framework errors are translated; anything else is logged and answered as a bare
// internal_error, so no internal detail reaches a client.
import { STATUS_CODES, type IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorCode } from '../shared/errors.ts';
import { isUnderApiPrefix } from './access.ts';
import {
  canDrainRefusedBody,
  drainRefusedBody,
  isDrainingBody,
  isDrainingSocket,
  keepsConnection,
} from './body-drain.ts';
import { toValidationError, type ValidationPart } from './validation.ts';

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  malformed_request: 400,
  invalid_json: 400,
  invalid_content_type: 400,
  parameter_missing: 400,
  parameter_invalid: 400,
  parameter_unknown: 400,
  invalid_cursor: 400,
  idempotency_key_invalid: 400,
  authentication_required: 401,
  invalid_api_key: 401,
  insufficient_scope: 403,
  resource_not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  webhook_url_taken: 409,
  webhook_limit_reached: 409,
  state_conflict: 409,
  idempotency_key_reused: 409,
  idempotency_key_in_use: 409,
  delivery_in_progress: 409,
  upload_limit_reached: 409,
  storage_quota_exceeded: 409,
  simulcast_target_limit_reached: 409,
  upload_expired: 410,
  upload_cancelled: 410,
  upload_offset_mismatch: 409,
  upload_size_mismatch: 413,
  unsupported_media_type: 415,
  format_not_implemented: 501,
  invalid_image: 422,
  tus_version_unsupported: 412,
  payload_too_large: 413,
  headers_too_large: 431,
  range_not_satisfiable: 416,
  rate_limit_exceeded: 429,
  internal_error: 500,
  service_unavailable: 503,
  csrf_failed: 403,
  invalid_credentials: 401,
  email_taken: 409,
  signups_closed: 403,
  email_unverified: 403,
  chat_banned: 403,
  chat_timed_out: 403,
  chat_followers_only: 403,
  chat_not_allowed: 403,
  account_suspended: 403,
  operator_only: 403,
  invalid_sdp: 400,
  stream_not_realtime: 409,
  stream_not_live: 409,
  realtime_capacity: 503,
  realtime_unavailable: 503,
  invalid_stream_key: 401,
  already_publishing: 409,
  stream_ended: 409,
  publish_withheld: 403,
};

export function errorBody(error: AppError) {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.param === undefined ? {} : { param: error.param }),
      ...(error.retryAfterSeconds === undefined ? {} : { retry_after_seconds: error.retryAfterSeconds }),
    },
  };
}

/** Whether the request says a body follows (which may or may not have been read). */
export function declaresBody(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) > 0);
}

/**
 * A refusal made before the request's body was read has the body read out and dropped
 * (body-drain.ts) and keeps the connection, though Fastify marks every body parser's failure
 * `Connection: close`; when it cannot be read out (canDrainRefusedBody), the connection closes.
 */
export function closeIfBodyUnread(reply: FastifyReply): void {
  const request = reply.request;
  const raw = request.raw;
  const unread = request.body === undefined && declaresBody(request.headers);
  if (unread && !raw.complete && !isDrainingBody(raw) && canDrainRefusedBody(raw)) {
    drainRefusedBody(raw);
  }
  if (isDrainingBody(raw) && keepsConnection(raw)) {
    void reply.header('Connection', 'keep-alive');
  } else if (unread) {
    void reply.header('Connection', 'close');
  }
}

/**
 * Every refusal is sent here, including those made before the request's body was read (by
 * authentication, rate limits, size or content type, an unknown route, or a body on GET).
 * Those read the body out or close the connection (closeIfBodyUnread): an unread body must
 * never be taken for the next request. (Here rather than in an onSend hook, which would make
 * every response run that phase; a response that is not a refusal has read its body.)
 */
export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  closeIfBodyUnread(reply);
  if (error.retryAfterSeconds !== undefined) void reply.header('Retry-After', error.retryAfterSeconds);
  return reply
    .code(STATUS_BY_CODE[error.code])
    .type('application/json; charset=utf-8')
    .send(errorBody(error));
}

/** Maps anything thrown while handling a request to a catalogued error. */
export function toAppError(error: unknown, request: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  const fastifyError = error as Partial<FastifyError> & { validationContext?: ValidationPart };
  if (fastifyError.validation) {
    return toValidationError(
      fastifyError.validation,
      fastifyError.validationContext ?? 'body',
      // A JSON `null` is a body, just not an object; only an absent body is missing.
      request.body !== undefined,
    );
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('invalid_json', 'The request body is not valid JSON.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(
        'invalid_content_type',
        'Send the request body as JSON with Content-Type: application/json.',
      );
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'The request body is larger than 64 KiB.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('invalid_json', 'The request body does not match its Content-Length.');
    case 'ECONNRESET':
    case 'ERR_STREAM_PREMATURE_CLOSE':
      // The client went away, or was cut off by the request timeout, mid-body: its fault,
      // and nobody is left to read the answer.
      return new AppError('malformed_request', 'The connection closed before the request body was complete.');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      // The router's limit (100 characters), above every id's own 64.
      return new AppError('parameter_invalid', 'A path parameter is longer than 100 characters.');
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_INVALID_URL':
      return new AppError('route_not_found', 'The request URL is malformed.');
  }
  // secure-json-parse refuses __proto__ and constructor.prototype keys with a SyntaxError.
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return new AppError('invalid_json', 'The request body is not valid JSON.');
  }
  return new AppError('internal_error', 'An unexpected error occurred. It has been logged.');
}

/** Answers an error as a page for a browser (the web app's error page, src/web/). */
export type ErrorPage = (
  request: FastifyRequest,
  reply: FastifyReply,
  error: AppError,
) => Promise<FastifyReply>;

/**
 * Whether a refusal outside the web app's routes (an unknown address, say) is answered as a
 * page: never under /v1, and elsewhere when the client asks for HTML (a browser's navigation
 * sends `Accept: text/html,...`; fetch, curl and the SDK do not). Everyone else gets the envelope.
 */
export function wantsErrorPage(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html') && !isUnderApiPrefix(request.url);
}

export function installErrorHandling(app: FastifyInstance, page?: ErrorPage): void {
  app.setErrorHandler((error: unknown, request, reply) => {
    const appError = toAppError(error, request);
    if (appError.code === 'internal_error') {
      request.log.error({ err: error }, 'unhandled error');
    }
    if (page && wantsErrorPage(request)) return page(request, reply, appError);
    return sendError(reply, appError);
  });

  app.setNotFoundHandler((request, reply) => sendError(reply, routeNotFound(request)));
}

/**
 * An unknown route is answered before its body is read: nothing would use it. The app checks
 * this in an onRequest hook after authentication's (an anonymous caller is asked for a key
 * first), rather than in preParsing: a preParsing hook makes every request, GETs included,
 * run that phase.
 */
export function routeNotFound(request: FastifyRequest): AppError {
  return new AppError(
    'route_not_found',
    `No route matches ${request.method} ${request.url.split('?')[0] ?? ''}.`,
  );
}

/**
 * Node's 'clientError': the bytes on a connection are not HTTP Fastify can route (a bad
 * request line, header or framing), or the request did not arrive within the request
 * timeout. No request exists, so the answer is written to the socket by hand, in the
 * envelope, and the connection is closed: whatever follows on it cannot be trusted.
 */
export function clientErrorHandler(this: FastifyInstance, error: ConnectionError, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // A refused body being read out has had its answer: another would come unasked.
  if (isDrainingSocket(socket)) {
    socket.destroy();
    return;
  }
  const appError = clientErrorToAppError(error);
  this.log.debug({ code: error.code, status: STATUS_BY_CODE[appError.code] }, 'client error');
  // Once a response has started on this connection, another one would corrupt it.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage;
  if (socket.writable && inFlight?.headersSent !== true) socket.write(rawErrorResponse(appError));
  socket.destroy();
}

export function clientErrorToAppError(error: { code?: string }): AppError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError('request_timeout', 'The request did not arrive in time; the connection is closed.');
    case 'HPE_HEADER_OVERFLOW':
      return new AppError('headers_too_large', 'The request headers are larger than 16 KiB.');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new AppError('payload_too_large', 'The chunk extensions of the request body are too large.');
    default:
      return new AppError('malformed_request', 'The request is not valid HTTP/1.1.');
  }
}

/** A whole HTTP/1.1 error response, for when there is no Fastify reply to send it with. */
export function rawErrorResponse(error: AppError): string {
  const status = STATUS_BY_CODE[error.code];
  const body = JSON.stringify(errorBody(error));
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}
