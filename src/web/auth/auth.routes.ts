// Sign-up, sign-in, sign-out (here and everywhere) and the one-time sign-in link.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { WebUser } from '../../accounts/login.service.ts';
import { clientKey } from '../../shared/client-address.ts';
import { STATUS_BY_CODE } from '../../http/error-handler.ts';
import { sendPage } from '../layout.ts';
import { requireUser, safeNext } from '../session/guards.ts';
import type { SessionCookies } from '../session/session.plugin.ts';
import type { WebRoutesOptions } from '../web-options.ts';
import { linkUsedPage, signInLinkPage, signInPage, signUpPage } from './auth.pages.ts';
import {
  ButtonForm,
  LinkParams,
  NextQuery,
  SignInForm,
  SignUpForm,
  type SignInForm as SignInBody,
  type SignUpForm as SignUpBody,
} from './auth.schemas.ts';
import { formRefusal } from '../form-refusal.ts';

/** Where a signed-in user lands unless the sign-in page was given somewhere to go back to. */
export const AFTER_SIGN_IN = '/dashboard';

const page = { access: 'page' } as const;
const hidden = { hide: true };

export async function authRoutes(
  app: FastifyInstance,
  options: WebRoutesOptions & { cookies: SessionCookies },
): Promise<void> {
  const { logins, sessions, mail } = options.services;
  const { cookies } = options;

  const signInAs = async (reply: FastifyReply, user: WebUser, next: string) => {
    const { token } = await sessions.start(user.id);
    // A session cookie the browser still sends (another account's) is replaced, and its session ended.
    if (reply.request.webSessionToken !== null) await sessions.end(reply.request.webSessionToken);
    cookies.setSession(reply, token);
    return reply.redirect(next, 303);
  };

  app.get<{ Querystring: NextQuery }>(
    '/sign-up',
    { config: page, schema: { ...hidden, querystring: NextQuery } },
    async (request, reply) => {
      const next = safeNext(request.query.next, AFTER_SIGN_IN);
      if (request.webUser) return reply.redirect(next, 303);
      return sendPage(reply, signUpPage(request, { open: logins.signups === 'open', next }));
    },
  );

  app.post<{ Body: SignUpBody }>(
    '/sign-up',
    { config: page, schema: { ...hidden, body: SignUpForm } },
    async (request, reply) => {
      const { name, email, password } = request.body;
      const next = safeNext(request.body.next, AFTER_SIGN_IN);
      try {
        const user = await logins.signUp({ name, email, password, address: clientKey(request.ip) });
        // With mail configured, the address is confirmed by a link before it counts.
        if (mail.verificationRequired && user.email !== null) {
          const token = await logins.createEmailToken(user.id, 'verify', user.email);
          await mail.enqueue('verify-email', user.email, {
            name: user.name,
            url: mail.link(`/verify-email/${token}`),
          });
        }
        return await signInAs(reply, user, next);
      } catch (error) {
        const refusal = formRefusal(request, reply, error);
        const html = signUpPage(request, {
          open: logins.signups === 'open',
          next,
          values: { name, email },
          problem: { message: refusal.message, field: refusal.param },
        });
        return sendPage(reply, html, STATUS_BY_CODE[refusal.code]);
      }
    },
  );

  app.get<{ Querystring: NextQuery }>(
    '/sign-in',
    { config: page, schema: { ...hidden, querystring: NextQuery } },
    async (request, reply) => {
      const next = safeNext(request.query.next, AFTER_SIGN_IN);
      if (request.webUser) return reply.redirect(next, 303);
      return sendPage(reply, signInPage(request, { next, signupsOpen: logins.signups === 'open' }));
    },
  );

  app.post<{ Body: SignInBody }>(
    '/sign-in',
    { config: page, schema: { ...hidden, body: SignInForm } },
    async (request, reply) => {
      const { email, password } = request.body;
      const next = safeNext(request.body.next, AFTER_SIGN_IN);
      try {
        const user = await logins.signIn({ email, password, address: clientKey(request.ip) });
        return await signInAs(reply, user, next);
      } catch (error) {
        const refusal = formRefusal(request, reply, error, 900);
        const html = signInPage(request, {
          next,
          signupsOpen: logins.signups === 'open',
          email,
          problem: {
            message: refusal.message,
            field: refusal.code === 'invalid_credentials' ? 'password' : refusal.param,
          },
        });
        return sendPage(reply, html, STATUS_BY_CODE[refusal.code]);
      }
    },
  );

  app.post('/sign-out', { config: page, schema: { ...hidden, body: ButtonForm } }, async (request, reply) => {
    if (request.webSessionToken !== null) await sessions.end(request.webSessionToken);
    cookies.clearSession(reply);
    return reply.redirect('/sign-in', 303);
  });

  app.post(
    '/sign-out-everywhere',
    { config: page, schema: { ...hidden, body: ButtonForm } },
    async (request, reply) => {
      const user = requireUser(request, reply);
      if (!user) return reply;
      await sessions.endAll(user.id);
      cookies.clearSession(reply);
      return reply.redirect('/sign-in', 303);
    },
  );

  // Opening the link only asks; the button uses it. A mail scanner or a browser prefetching
  // the link does not spend it.
  app.get<{ Params: LinkParams }>(
    '/sign-in/link/:token',
    { config: { ...page, secretInPath: true }, schema: { ...hidden, params: LinkParams } },
    async (request, reply) => {
      const user = await logins.peekSignInLink(request.params.token);
      if (!user) return sendPage(reply, linkUsedPage(request), 404);
      return sendPage(reply, signInLinkPage(request, request.params.token, user.name));
    },
  );

  app.post<{ Params: LinkParams }>(
    '/sign-in/link/:token',
    { config: { ...page, secretInPath: true }, schema: { ...hidden, params: LinkParams, body: ButtonForm } },
    async (request, reply) => {
      const user = await logins.redeemSignInLink(request.params.token);
      if (!user) return sendPage(reply, linkUsedPage(request), 404);
      return signInAs(reply, user, '/account');
    },
  );
}
