// WHEP playback of realtime streams (draft-ietf-wish-whep): POST /v1/streams/{id}/whep with an
// SDP offer answers 201, the SDP answer and the session's Location; DELETE on the Location ends
// the session; PATCH (trickle ICE, ICE restarts) is answered 405: offers carry their candidates.
// Anyone who may open the watch page may play (no key: private means unlisted). Refusals are
// the JSON error envelope: 404 no such stream, 409 not realtime or not live, 400 an offer that
// cannot be answered, 413 an offer over 32 KiB, 415 a body that is not application/sdp, 429 too
// many sessions still connecting from one address, 503 over this process's WebRTC capacity
// (`realtime_capacity`) or not sent over WebRTC by this process (`realtime_unavailable`); a
// player falls back to the stream's HLS on any of them.
//
// CORS, for WHEP players served from other origins (the WHEP draft asks for it): every answer of
// these routes, refusals included, carries Access-Control-Allow-Origin: * and exposes the
// headers a player reads (Location, and ETag, Link, Accept-Patch should they ever be sent), and
// OPTIONS answers the preflight. No credentials are involved (the routes take no cookie and no
// key), so the wildcard is safe. Nothing else of the API or the pages gets these headers: the
// hooks are this plugin's own.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Db } from '../db/database.ts';
import { BODY_LIMIT_BYTES } from '../http/body-limit.ts';
import { NoQuery } from '../http/schemas.ts';
import { AppError, notFound } from '../shared/errors.ts';
import { findShownStream } from '../streams/stream.repository.ts';
import type { RealtimeHub } from './realtime-hub.ts';
import { MAX_OFFER_BYTES } from './whep-offer.ts';
import { SdpAnswer, SdpOffer, WhepParams, WhepSessionParams, whepErrorResponses } from './whep.schemas.ts';

export interface WhepRoutesOptions {
  db: Db;
  realtime: RealtimeHub;
}

/** What a cross-origin WHEP player may read of an answer (the WHEP draft's list, and Retry-After). */
export const WHEP_EXPOSED_HEADERS = 'Location, ETag, Link, Accept-Patch, Retry-After';
/** Request headers a WHEP player may send (Authorization and If-Match: WHEP's, unused here). */
const WHEP_ALLOWED_HEADERS = 'Content-Type, Authorization, If-Match';
/** How long a browser may keep a preflight's answer (Chrome caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = 7200;

export const whepRoutes: FastifyPluginAsyncTypebox<WhepRoutesOptions> = async (app, { db, realtime }) => {
  // Encapsulated: these hooks apply to this plugin's routes only.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', WHEP_EXPOSED_HEADERS);
    return payload;
  });
  const preflight = (methods: string) => async (_request: unknown, reply: FastifyReply) =>
    reply
      .code(204)
      .header('allow', methods)
      .header('access-control-allow-methods', methods)
      .header('access-control-allow-headers', WHEP_ALLOWED_HEADERS)
      .header('access-control-max-age', String(PREFLIGHT_MAX_AGE_SECONDS))
      .send(null);
  const preflightSchema = (summary: string) => ({
    // The browser's CORS preflight: not an operation to call, so not in the document.
    hide: true,
    security: [],
    summary,
    tags: ['streams'],
    querystring: NoQuery,
    response: { 204: Type.Null({ description: 'The methods and headers a player may use.' }) },
  });
  app.options(
    '/streams/:id/whep',
    {
      config: { access: 'public' },
      schema: { ...preflightSchema('CORS preflight of the WHEP endpoint'), params: WhepParams },
    },
    preflight('POST, OPTIONS'),
  );
  app.options(
    '/streams/:id/whep/:session_id',
    {
      config: { access: 'public' },
      schema: { ...preflightSchema('CORS preflight of a WHEP session'), params: WhepSessionParams },
    },
    preflight('DELETE, PATCH, OPTIONS'),
  );

  // Trickle ICE fragments (PATCH) are read only to be answered 405.
  app.addContentTypeParser(
    ['application/sdp', 'application/trickle-ice-sdpfrag'],
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (_r, body, done) => {
      done(null, body);
    },
  );

  app.post(
    '/streams/:id/whep',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'playStreamWebRtc',
        // No key: anyone who may open the watch page may play.
        security: [],
        summary: 'Play a realtime stream over WebRTC (WHEP): post an SDP offer, get the answer',
        description:
          "For streams whose latency_mode is `realtime`, while live. The request body is an SDP offer (Content-Type: application/sdp), the 201 response an SDP answer (application/sdp) with the session in Location; DELETE that Location to end it. Refusals are JSON errors: fall back to the stream's HLS playback_url.",
        tags: ['streams'],
        params: WhepParams,
        querystring: NoQuery,
        body: { content: { 'application/sdp': { schema: SdpOffer } } },
        response: {
          201: { description: 'The SDP answer.', content: { 'application/sdp': { schema: SdpAnswer } } },
          ...whepErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const body: unknown = request.body;
      const type = request.headers['content-type'] ?? '';
      if (typeof body !== 'string' || !/^application\/sdp\s*(;|$)/i.test(type))
        throw new AppError(
          'unsupported_media_type',
          'Send the SDP offer with Content-Type: application/sdp.',
        );
      if (Buffer.byteLength(body) > MAX_OFFER_BYTES)
        throw new AppError(
          'payload_too_large',
          `The SDP offer is larger than ${MAX_OFFER_BYTES / 1024} KiB.`,
        );
      const id = request.params.id;
      const stream = await findShownStream(db, id);
      if (!stream) throw notFound('stream', id);
      if (stream.latency_mode !== 'realtime')
        throw new AppError(
          'stream_not_realtime',
          `Stream '${id}' is not a realtime stream (its latency_mode is ${stream.latency_mode}): play its HLS playback_url.`,
        );
      if (stream.status !== 'live')
        throw new AppError('stream_not_live', `Stream '${id}' is not live (it is ${stream.status}).`);
      const { sessionId, answer } = await realtime.play(id, body, request.ip);
      return reply
        .code(201)
        .header('location', `/v1/streams/${id}/whep/${sessionId}`)
        .header('cache-control', 'no-store')
        .type('application/sdp')
        .send(answer);
    },
  );

  app.delete(
    '/streams/:id/whep/:session_id',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'endStreamWebRtc',
        // No key: anyone who may open the watch page may play.
        security: [],
        summary: 'End a WebRTC (WHEP) playback session',
        tags: ['streams'],
        params: WhepSessionParams,
        querystring: NoQuery,
        response: { 204: Type.Null({ description: 'Ended.' }), ...whepErrorResponses },
      },
    },
    async (request, reply) => {
      realtime.end(request.params.id, request.params.session_id);
      return reply.code(204).send(null);
    },
  );

  app.patch(
    '/streams/:id/whep/:session_id',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'patchStreamWebRtc',
        // Answered 405 as WHEP asks of a server without trickle ICE: not an operation to call
        // (as WHIP's PATCH), so not in the document.
        hide: true,
        security: [],
        summary: 'Trickle ICE for a WHEP session: not supported (405)',
        description:
          'Offers must carry their ICE candidates (wait for gathering to complete before POSTing).',
        tags: ['streams'],
        params: WhepSessionParams,
        querystring: NoQuery,
        response: { 405: whepErrorResponses[400] },
      },
    },
    async () => {
      throw new AppError(
        'method_not_allowed',
        'Trickle ICE and ICE restarts are not supported: post a new offer with its candidates gathered.',
      );
    },
  );
};
