// A suspended account may still sign in, to read why (src/moderation/): every page then shows
// the suspension and its reason (403), except signing out. Its sessions were ended by the
// suspension, so this is a fresh sign-in; the session read gives the standing on each request.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { renderPage, sendPage } from '../layout.ts';
import { csrfField } from '../session/csrf.ts';
import { suspendedBody } from './admin.pages.ts';

const ALLOWED = new Set(['/sign-out', '/sign-in']);

export async function suspendedGate(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  const suspension = request.webUser?.suspension;
  if (!suspension) return undefined;
  if (ALLOWED.has(request.routeOptions.url ?? '')) return undefined;
  return sendPage(
    reply,
    renderPage({ title: 'Account suspended', request, body: suspendedBody(csrfField(request), suspension) }),
    403,
  );
}
