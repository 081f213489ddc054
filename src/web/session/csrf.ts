// CSRF protection for every state-changing page request, in one hook: the request must come
// from this site (Sec-Fetch-Site, else Origin, when the browser sends them) and carry the
// token of its session or pre-session (form field `_csrf` or header `x-csrf-token`).
// SameSite=Lax cookies already keep most cross-site posts unauthenticated; the token also
// covers sign-in (login CSRF) and same-site attackers.
import type { FastifyRequest, preValidationHookHandler } from 'fastify';
import type { SessionService } from '../../accounts/session.service.ts';
import { AppError } from '../../shared/errors.ts';
import { html, type SafeHtml } from '../html.ts';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The hidden form field that carries the request's CSRF token. */
export function csrfField(request: FastifyRequest): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${request.csrfToken}" />`;
}

export function csrfHook(sessions: SessionService, publicOrigin: string): preValidationHookHandler {
  return (request, _reply, done) => {
    if (request.routeOptions.config.access !== 'page' || !STATE_CHANGING.has(request.method)) {
      done();
      return;
    }
    if (!isSameOrigin(request, publicOrigin)) {
      done(new AppError('csrf_failed', 'This form was sent from another site, so it was refused.'));
      return;
    }
    const body = request.body as Record<string, unknown> | null | undefined;
    const fromBody = body !== null && typeof body === 'object' ? body._csrf : undefined;
    const header = request.headers['x-csrf-token'];
    const presented = typeof fromBody === 'string' ? fromBody : typeof header === 'string' ? header : '';
    if (presented === '' || !sessions.csrfTokenMatches(request.csrfBinding, presented)) {
      done(
        new AppError(
          'csrf_failed',
          'This form has expired or did not come from this site. Go back, reload the page and try again.',
        ),
      );
      return;
    }
    done();
  };
}

/**
 * Browsers say where a request comes from: Sec-Fetch-Site (all current ones), else Origin.
 * A client that sends neither (not a browser, or a very old one) is judged by the token alone.
 */
function isSameOrigin(request: FastifyRequest, publicOrigin: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin';
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  if (origin === publicOrigin) return true;
  try {
    return new URL(origin).host === request.host;
  } catch {
    return false;
  }
}
