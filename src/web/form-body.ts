// Page forms are application/x-www-form-urlencoded. The parser is added in the web plugin's
// scope only, so the JSON API keeps refusing every other content type exactly as before.
import type { FastifyInstance } from 'fastify';
import { BODY_LIMIT_BYTES } from '../http/body-limit.ts';

export function acceptForms(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (_request, body, done) => {
      // A repeated field keeps its last value; Object.fromEntries defines own properties, so a
      // field named __proto__ is just a field.
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
}
