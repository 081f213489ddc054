// The one place where errors become responses. Catalogued AppErrors keep their code and
// message; framework errors are translated; anything else is logged and answered as a bare
// internal_error, so no internal detail reaches a client.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorCode } from '../shared/errors.ts';
import { toValidationError, type ValidationPart } from './validation.ts';

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  invalid_json: 400,
  invalid_content_type: 400,
  parameter_missing: 400,
  parameter_invalid: 400,
  parameter_unknown: 400,
  invalid_cursor: 400,
  authentication_required: 401,
  invalid_api_key: 401,
  insufficient_scope: 403,
  resource_not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  webhook_url_taken: 409,
  webhook_limit_reached: 409,
  state_conflict: 409,
  payload_too_large: 413,
  rate_limit_exceeded: 429,
  internal_error: 500,
  service_unavailable: 503,
};

export function errorBody(error: AppError) {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.param === undefined ? {} : { param: error.param }),
    },
  };
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
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
      request.body !== undefined && request.body !== null,
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

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request, reply) => {
    const appError = toAppError(error, request);
    if (appError.code === 'internal_error') {
      request.log.error({ err: error }, 'unhandled error');
    }
    return sendError(reply, appError);
  });

  app.setNotFoundHandler((request, reply) => {
    return sendError(
      reply,
      new AppError(
        'route_not_found',
        `No route matches ${request.method} ${request.url.split('?')[0] ?? ''}.`,
      ),
    );
  });
}
