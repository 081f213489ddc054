// The web app: every page route lives in this plugin's scope, which adds what pages need and
// the JSON API must not have: form bodies, sessions and CSRF checks, and errors as HTML pages.
// Its features (sign-in and keys here, the creator's dashboard, the viewer's pages) are
// registered inside it; assets are served beside it. An error outside its routes (an address
// that matches no route) is a page too when a browser asked for one (errorPages, wired by
// src/app.ts); API clients get the JSON envelope.
import { mailLinkRoutes } from './auth/mail-links.routes.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../container.ts';
import {
  closeIfBodyUnread,
  sendError,
  STATUS_BY_CODE,
  toAppError,
  type ErrorPage,
} from '../http/error-handler.ts';
import type { AppError } from '../shared/errors.ts';
import { accountRoutes } from './account/account.routes.ts';
import { profileImageRoutes, profileRoutes } from './account/profile.routes.ts';
import { assetRoutes } from './assets.routes.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { dashboardRoutes } from './dashboard/dashboard.routes.ts';
import { acceptForms } from './form-body.ts';
import { keysRoutes } from './keys/keys.routes.ts';
import { renderErrorPage, sendPage } from './layout.ts';
import { csrfHook } from './session/csrf.ts';
import { flashCookies } from './session/flash.ts';
import { installSessions, sessionCookies, webSessions, type WebSessions } from './session/session.plugin.ts';
import { shareRoutes } from './share/share.routes.ts';
import { searchRoutes } from './search/search.routes.ts';
import { viewerRoutes } from './viewer/viewer.routes.ts';
import { adminRoutes } from './admin/admin.routes.ts';
import { reportRoutes } from './admin/report.routes.ts';
import { suspendedGate } from './admin/suspended-gate.ts';
import { wantsJson } from './wants-json.ts';

/** The sessions of the site at PUBLIC_URL, shared by the pages, the access check and error pages. */
export function createWebSessions(services: Services): WebSessions {
  return webSessions(services.sessions, sessionCookies(services.urls.origin));
}

/** The site's error page, with its header showing who is signed in, for any route's refusal. */
export function errorPages(sessions: WebSessions): ErrorPage {
  return async (request, reply, error) => sendErrorPage(sessions, request, reply, error);
}

async function sendErrorPage(
  sessions: WebSessions,
  request: FastifyRequest,
  reply: FastifyReply,
  error: AppError,
): Promise<FastifyReply> {
  // Refused before its body was read: the connection closes, as sendError does for the envelope.
  closeIfBodyUnread(reply);
  await sessions.attach(request, reply);
  const status = STATUS_BY_CODE[error.code];
  return sendPage(reply, renderErrorPage(request, status, error.code, error.message), status);
}

export function webPlugin(
  services: Services,
  sessions: WebSessions = createWebSessions(services),
): (app: FastifyInstance) => Promise<void> {
  return async (app) => {
    await app.register(assetRoutes);
    // Outside the pages' scope: the embed is framed by other sites and oEmbed answers JSON.
    await app.register(shareRoutes(services));
    await app.register(profileImageRoutes(services));
    await app.register(async (pages) => {
      // Forms may come from PUBLIC_URL's origin (and from the host a request names); cookies
      // are Secure when it is https.
      const publicOrigin = services.urls.origin;
      const { cookies } = sessions;
      acceptForms(pages);
      installSessions(pages, sessions);
      // A suspended user who signs in sees why, and nothing else (src/moderation/).
      pages.addHook('onRequest', suspendedGate);
      pages.addHook('preValidation', csrfHook(services.sessions, publicOrigin));
      pages.setErrorHandler(async (error: unknown, request, reply) => {
        const appError = toAppError(error, request);
        if (appError.code === 'internal_error') request.log.error({ err: error }, 'unhandled error');
        if (wantsJson(request)) return sendError(reply, appError);
        return sendErrorPage(sessions, request, reply, appError);
      });
      const options = { services, flash: flashCookies(services.webFlash, services.clock, publicOrigin) };
      await pages.register(authRoutes, { ...options, cookies });
      await pages.register(accountRoutes, options);
      await pages.register(mailLinkRoutes, { ...options, cookies });
      await pages.register(profileRoutes, options);
      await pages.register(keysRoutes, options);
      await pages.register(dashboardRoutes, options);
      await pages.register(viewerRoutes, options);
      await pages.register(searchRoutes, options);
      await pages.register(reportRoutes, options);
      await pages.register(adminRoutes, options);
    });
  };
}
