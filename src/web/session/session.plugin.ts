// Runs on every request to a page route (installed in the web plugin's scope): resolves the
// session cookie to the signed-in user, gives a visitor a pre-session cookie, and sets the
// request's CSRF token, so every page can render forms and every form can be checked.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { SESSION_IDLE_MS, type SessionService } from '../../accounts/session.service.ts';
import { readCookie, serializeCookie } from '../cookies.ts';
import { cookieNames, type CookieNames } from './cookie-names.ts';
import './types.ts';

const VISITOR_PATTERN = /^[0-9A-Za-z]{32}$/;

export interface SessionCookies {
  names: CookieNames;
  /** Starts sending the cookie of a new session. */
  setSession(reply: FastifyReply, token: string): void;
  /** Tells the browser to forget its session cookie. */
  clearSession(reply: FastifyReply): void;
  /** Starts sending a visitor's pre-session cookie. */
  setVisitor(reply: FastifyReply, value: string): void;
}

/** The cookies of the site at `publicOrigin` (PUBLIC_URL's): Secure, with the __Host- prefix, on https. */
export function sessionCookies(publicOrigin: string): SessionCookies {
  const secure = new URL(publicOrigin).protocol === 'https:';
  const names = cookieNames(secure);
  return {
    names,
    setSession(reply, token) {
      appendCookie(
        reply,
        serializeCookie(names.session, token, { secure, maxAgeSeconds: Math.floor(SESSION_IDLE_MS / 1000) }),
      );
    },
    clearSession(reply) {
      appendCookie(reply, serializeCookie(names.session, '', { secure, maxAgeSeconds: 0 }));
    },
    setVisitor(reply, value) {
      appendCookie(reply, serializeCookie(names.visitor, value, { secure }));
    },
  };
}

export function installSessions(
  app: FastifyInstance,
  sessions: SessionService,
  cookies: SessionCookies,
): void {
  app.decorateRequest('webUser', null);
  app.decorateRequest('csrfToken', '');
  app.decorateRequest('csrfBinding', '');
  app.decorateRequest('webSessionToken', null);
  const { names } = cookies;
  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers.cookie;
    const token = readCookie(header, names.session);
    const session = token === undefined ? undefined : await sessions.resume(token);
    if (session && token !== undefined) {
      request.webUser = session.user;
      request.webSessionToken = token;
      request.csrfBinding = `session:${session.id}`;
      // Sliding expiry: the browser's copy lives as long as the server's.
      if (session.extendedUntil !== undefined) cookies.setSession(reply, token);
    } else {
      let visitor = readCookie(header, names.visitor);
      if (visitor === undefined || !VISITOR_PATTERN.test(visitor)) {
        visitor = sessions.newPreSession();
        cookies.setVisitor(reply, visitor);
      }
      request.csrfBinding = `visitor:${visitor}`;
    }
    request.csrfToken = sessions.csrfToken(request.csrfBinding);
  });
}

function appendCookie(reply: FastifyReply, cookie: string): void {
  const existing = reply.getHeader('set-cookie');
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
  const prefix = `${cookie.slice(0, cookie.indexOf('='))}=`;
  void reply.header('set-cookie', [...list.filter((c) => !c.startsWith(prefix)), cookie]);
}
