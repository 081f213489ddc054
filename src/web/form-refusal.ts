// A form's refusal is shown on its own page, beside the form, to a browser. What is not a
// refusal (an unexpected error), and any refusal a script asked for as JSON, goes on to the
// pages' error handler: the error page, or the API's envelope (docs/api-decisions.md).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../shared/errors.ts';
import { wantsJson } from './wants-json.ts';

/**
 * The refusal to show on the form's page; throws `error` on when it is not one to show there.
 * A refusal for too many tries says when to come back (`Retry-After`), on the page or not.
 */
export function formRefusal(
  request: FastifyRequest,
  reply: FastifyReply,
  error: unknown,
  retryAfterSeconds?: number,
): AppError {
  if (!(error instanceof AppError) || error.code === 'internal_error') throw error;
  if (error.code === 'rate_limit_exceeded' && retryAfterSeconds !== undefined) {
    void reply.header('Retry-After', retryAfterSeconds);
  }
  if (wantsJson(request)) throw error;
  return error;
}
