// The WHIP endpoint (RFC 9725): POST /v1/whip with `Content-Type: application/sdp` and the
// stream key as `Authorization: Bearer`, answered 201 with the SDP answer and the session's
// Location; DELETE on that Location ends the publish. Trickle ICE (PATCH) is not taken: the
// answer carries every candidate. Every refusal is the JSON error envelope.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BODY_LIMIT_BYTES } from '../http/body-limit.ts';
import { AppError } from '../shared/errors.ts';
import type { WhipIngest } from './whip-ingest.ts';

export const WHIP_PATH = '/v1/whip';
const BEARER = /^Bearer +(\S+) *$/i;

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}

function isSdp(request: FastifyRequest): boolean {
  const type = request.headers['content-type'];
  return type !== undefined && type.split(';')[0]?.trim().toLowerCase() === 'application/sdp';
}

function notTrickled(reply: FastifyReply): never {
  void reply.header('Allow', 'DELETE');
  throw new AppError(
    'method_not_allowed',
    'Trickle ICE is not supported: send every candidate in the offer.',
  );
}

export function whipRoutes(whip: WhipIngest): (app: FastifyInstance) => Promise<void> {
  return async (app) => {
    // The offer is read as text here; any other type (JSON included) is left unread and
    // refused with 415.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      'application/sdp',
      { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
      (_request, body, done) => {
        done(null, body);
      },
    );
    app.addContentTypeParser('*', (_request, _payload, done) => {
      done(null, undefined);
    });
    const config = { access: 'public' as const };
    app.post(WHIP_PATH, { config, schema: { hide: true } }, async (request, reply) => {
      const token = bearer(request);
      if (token === undefined) {
        throw new AppError(
          'authentication_required',
          'Send the stream key as the bearer token: "Authorization: Bearer <stream key>".',
        );
      }
      if (!isSdp(request) || typeof request.body !== 'string') {
        throw new AppError(
          'unsupported_media_type',
          'Send the SDP offer with "Content-Type: application/sdp".',
        );
      }
      const answer = await whip.offer({ sdp: request.body, token, remoteAddress: request.ip });
      return reply
        .code(201)
        .header('Location', `${WHIP_PATH}/${answer.id}`)
        .header('Cache-Control', 'no-store')
        .type('application/sdp')
        .send(answer.sdp);
    });
    app.delete(`${WHIP_PATH}/:session`, { config, schema: { hide: true } }, async (request, reply) => {
      const { session } = request.params as { session: string };
      await whip.end(session, bearer(request));
      return reply.code(200).send();
    });
    app.patch(`${WHIP_PATH}/:session`, { config, schema: { hide: true } }, async (_request, reply) =>
      notTrickled(reply),
    );
  };
}
