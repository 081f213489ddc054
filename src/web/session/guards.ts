import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WebUser } from './types.ts';

/**
 * The signed-in user; for a visitor, sends a 303 to the sign-in page (which comes back here
 * afterwards) and returns undefined: the route then returns the reply.
 */
export function requireUser(request: FastifyRequest, reply: FastifyReply): WebUser | undefined {
  if (request.webUser) return request.webUser;
  const back = request.method === 'GET' ? (request.url.split('#')[0] ?? '/') : '/';
  void reply.redirect(`/sign-in?next=${encodeURIComponent(back)}`, 303);
  return undefined;
}

/**
 * A preHandler for routes that are for signed-in users only (the fastify/demo way): a visitor
 * is sent to sign in as requireUser does, and the route's handler never runs.
 */
export async function signedIn(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  return requireUser(request, reply) ? undefined : reply;
}

/** The signed-in user of a route behind `signedIn`. */
export function userOf(request: FastifyRequest): WebUser {
  if (!request.webUser)
    throw new Error(`${request.routeOptions.url ?? request.url} has no signedIn preHandler`);
  return request.webUser;
}

/** A `next` target that stays on this site (a path, never `//host` or `/\host`); else the fallback. */
export function safeNext(next: unknown, fallback: string): string {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) {
    return fallback;
  }
  // eslint-disable-next-line no-control-regex -- a header-splitting character must not reach Location
  if (/[\u0000-\u001f]/.test(next)) return fallback;
  // A Location header carries bytes, not text: what the query decoded to beyond printable
  // ASCII (`/%C4%80` became `/\u0100`) is percent-encoded again, so it is sent as it came.
  return next.replace(/[^\u0020-\u007e]+/gu, (text) => {
    try {
      return encodeURIComponent(text);
    } catch {
      return ''; // a lone surrogate: nothing a URL can carry
    }
  });
}
