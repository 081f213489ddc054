// Pages answer browsers with HTML; a script that asks for JSON (and not HTML) gets the API's
// envelope instead, from the pages' error handler and the few routes that answer both ways.
import type { FastifyRequest } from 'fastify';

export function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
}
