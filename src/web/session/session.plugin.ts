// Runs on every request to a page route (installed in the web plugin's scope): resolves the
// session cookie to the signed-in user, gives a visitor a pre-session cookie, and sets the
// request's CSRF token, so every page can render forms and every form can be checked.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_IDLE_MS, type ActiveSession, type SessionService } from '../../accounts/session.service.ts';
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

/**
 * Finds a request's session once, whoever asks first: the access check (a signed-in user's page
 * views are counted per user, not per address, src/http/access.ts), the page routes' hook, or an
 * error page rendered outside them (an unknown address), which then still shows who is signed in.
 */
export interface WebSessions {
  cookies: SessionCookies;
  /** The live session the request's cookie names, looked up at most once per request. */
  session(request: FastifyRequest): Promise<ActiveSession | undefined>;
  /** Gives the request its user (or visitor) and CSRF token, and the reply its cookies; once. */
  attach(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

export function webSessions(sessions: SessionService, cookies: SessionCookies): WebSessions {
  const { names } = cookies;
  const found = new WeakMap<FastifyRequest, Promise<ActiveSession | undefined>>();
  const attached = new WeakSet<FastifyRequest>();
  const session = (request: FastifyRequest): Promise<ActiveSession | undefined> => {
    let lookup = found.get(request);
    if (lookup === undefined) {
      const token = readCookie(request.headers.cookie, names.session);
      lookup = token === undefined ? Promise.resolve(undefined) : sessions.resume(token);
      found.set(request, lookup);
    }
    return lookup;
  };
  return {
    cookies,
    session,
    async attach(request, reply) {
      if (attached.has(request)) return;
      attached.add(request);
      const header = request.headers.cookie;
      const token = readCookie(header, names.session);
      const active = await session(request);
      if (active && token !== undefined) {
        request.webUser = active.user;
        request.webSessionToken = token;
        request.csrfBinding = `session:${active.id}`;
        // Sliding expiry: the browser's copy lives as long as the server's.
        if (active.extendedUntil !== undefined) cookies.setSession(reply, token);
      } else {
        let visitor = readCookie(header, names.visitor);
        if (visitor === undefined || !VISITOR_PATTERN.test(visitor)) {
          visitor = sessions.newPreSession();
          cookies.setVisitor(reply, visitor);
        }
        request.webUser = null;
        request.webSessionToken = null;
        request.csrfBinding = `visitor:${visitor}`;
      }
      request.csrfToken = sessions.csrfToken(request.csrfBinding);
    },
  };
}

/** Runs on every request to a page route: resolves the session cookie to the signed-in user. */
export function installSessions(app: FastifyInstance, web: WebSessions): void {
  app.decorateRequest('webUser', null);
  app.decorateRequest('csrfToken', '');
  app.decorateRequest('csrfBinding', '');
  app.decorateRequest('webSessionToken', null);
  app.addHook('onRequest', (request, reply) => web.attach(request, reply));
}

function appendCookie(reply: FastifyReply, cookie: string): void {
  const existing = reply.getHeader('set-cookie');
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
  const prefix = `${cookie.slice(0, cookie.indexOf('='))}=`;
  void reply.header('set-cookie', [...list.filter((c) => !c.startsWith(prefix)), cookie]);
}

/**
 * The signed-in user a Cookie header names, looked up afresh each call (the chat socket asks
 * before every message, so a user who signs out stops posting at once).
 */
export function sessionUserOf(
  sessions: SessionService,
  cookies: SessionCookies,
): (header: string | undefined) => Promise<{ id: string; name: string; suspended: boolean } | undefined> {
  return async (header) => {
    const token = readCookie(header, cookies.names.session);
    if (token === undefined) return undefined;
    const active = await sessions.resume(token);
    return active === undefined
      ? undefined
      : { id: active.user.id, name: active.user.name, suspended: active.user.suspension !== null };
  };
}
