// The web app: every page route lives in this plugin's scope, which adds what pages need and
// the JSON API must not have: form bodies, sessions and CSRF checks, and errors as HTML pages.
// Its features (sign-in and keys here, the creator's dashboard, the viewer's pages) are
// registered inside it; assets are served beside it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../container.ts';
import { sendError, STATUS_BY_CODE, toAppError } from '../http/error-handler.ts';
import { accountRoutes } from './account/account.routes.ts';
import { assetRoutes } from './assets.routes.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { dashboardRoutes } from './dashboard/dashboard.routes.ts';
import { acceptForms } from './form-body.ts';
import { keysRoutes } from './keys/keys.routes.ts';
import { renderErrorPage, sendPage } from './layout.ts';
import { csrfHook } from './session/csrf.ts';
import { installSessions, sessionCookies } from './session/session.plugin.ts';
import { viewerRoutes } from './viewer/viewer.routes.ts';

export function webPlugin(services: Services): (app: FastifyInstance) => Promise<void> {
  return async (app) => {
    await app.register(assetRoutes);
    await app.register(async (pages) => {
      // Forms may come from PUBLIC_URL's origin (and from the host a request names); cookies
      // are Secure when it is https.
      const publicOrigin = services.urls.origin;
      const cookies = sessionCookies(publicOrigin);
      acceptForms(pages);
      installSessions(pages, services.sessions, cookies);
      pages.addHook('preValidation', csrfHook(services.sessions, publicOrigin));
      pages.setErrorHandler((error: unknown, request, reply) => {
        const appError = toAppError(error, request);
        if (appError.code === 'internal_error') request.log.error({ err: error }, 'unhandled error');
        if (wantsJson(request)) return sendError(reply, appError);
        const status = STATUS_BY_CODE[appError.code];
        return sendPage(reply, renderErrorPage(request, status, appError.code, appError.message), status);
      });
      const options = { services };
      await pages.register(authRoutes, { ...options, cookies });
      await pages.register(accountRoutes, options);
      await pages.register(keysRoutes, options);
      await pages.register(dashboardRoutes, options);
      await pages.register(viewerRoutes, options);
    });
  };
}

/** Scripts that ask for JSON get the API's envelope; browsers get a page. */
function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
}
