// What mail links open: "forgot password" and the reset link, the email verification link
// (and asking for another), and a go-live mail's one-click unsubscribe (RFC 8058). Opening a
// link only asks (a mail scanner prefetching it spends nothing); the form's button uses it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { STATUS_BY_CODE } from '../../http/error-handler.ts';
import { clientKey } from '../../shared/client-address.ts';
import { findSubscriptionForMail, setNotifyLive } from '../../mail/mail.repository.ts';
import { html } from '../html.ts';
import { renderPage, sendPage } from '../layout.ts';
import { csrfField } from '../session/csrf.ts';
import { requireUser } from '../session/guards.ts';
import type { SessionCookies } from '../session/session.plugin.ts';
import type { WebRoutesOptions } from '../web-options.ts';
import { CsrfField, LinkParams } from './auth.schemas.ts';
import type { FormProblem } from './auth.pages.ts';
import { formRefusal } from '../form-refusal.ts';

const page = { access: 'page' } as const;
const hidden = { hide: true };
const secret = { ...page, secretInPath: true };

const ForgotForm = Type.Object(
  { _csrf: CsrfField, email: Type.String({ maxLength: 1000 }) },
  { additionalProperties: false },
);
const ResetForm = Type.Object(
  { _csrf: CsrfField, password: Type.String({ maxLength: 1000 }) },
  { additionalProperties: false },
);
const ButtonForm = Type.Object({ _csrf: CsrfField }, { additionalProperties: false });
const UnsubscribeParams = Type.Object({ token: Type.String({ maxLength: 128 }) });

function alert(problem: FormProblem | undefined) {
  return (
    problem && html`<div class="alert alert-error" role="alert" id="form-error">${problem.message}</div>`
  );
}

function panel(request: FastifyRequest, title: string, body: ReturnType<typeof html>): string {
  return renderPage({ title, request, body: html`<section class="panel narrow">${body}</section>` });
}

function forgotPage(
  request: FastifyRequest,
  options: { sent?: boolean; problem?: FormProblem; email?: string },
) {
  if (options.sent) {
    return panel(
      request,
      'Check your mail',
      html`<h1>Check your mail</h1>
        <p role="status" id="forgot-sent">
          If an account uses that address, a link to choose a new password is on its way. It works once,
          within the hour.
        </p>
        <p><a href="/sign-in">Back to sign in</a></p>`,
    );
  }
  return panel(
    request,
    'Forgot your password?',
    html`<h1>Forgot your password?</h1>
      <p class="muted">Enter your account's address: we mail you a link to choose a new password.</p>
      ${alert(options.problem)}
      <form method="post" action="/forgot-password" class="stacked-form">
        ${csrfField(request)}
        <label for="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="email"
          required
          maxlength="254"
          value="${options.email ?? ''}"
        />
        <button type="submit" class="button primary">Mail me a link</button>
      </form>`,
  );
}

function deadLinkPage(request: FastifyRequest, what: string, again: { href: string; label: string }) {
  return panel(
    request,
    'This link no longer works',
    html`<h1>This link no longer works</h1>
      <p>This ${what} link was already used, has expired, or a newer one was sent.</p>
      <p><a class="button" href="${again.href}">${again.label}</a></p>`,
  );
}

function resetPage(request: FastifyRequest, token: string, name: string, problem?: FormProblem) {
  return panel(
    request,
    'Choose a new password',
    html`<h1>Choose a new password</h1>
      <p class="muted">For ${name}. Every other session of the account is signed out.</p>
      ${alert(problem)}
      <form method="post" action="/reset-password/${token}" class="stacked-form">
        ${csrfField(request)}
        <label for="password">New password <span class="hint">at least 10 characters</span></label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="new-password"
          required
          minlength="10"
          maxlength="256"
          ${problem ? html`aria-invalid="true" aria-describedby="form-error"` : undefined}
        />
        <button type="submit" class="button primary">Save the new password</button>
      </form>`,
  );
}

export async function mailLinkRoutes(
  app: FastifyInstance,
  options: WebRoutesOptions & { cookies: SessionCookies },
): Promise<void> {
  const { logins, sessions, mail } = options.services;
  const { cookies } = options;

  /** Mails the account a link confirming `email` (the address it has, or the one it asked for). */
  const sendVerification = async (user: { id: string; name: string }, email: string, token?: string) => {
    const link = token ?? (await logins.createEmailToken(user.id, 'verify', email));
    await mail.enqueue('verify-email', email, { name: user.name, url: mail.link(`/verify-email/${link}`) });
  };

  app.get('/forgot-password', { config: page, schema: hidden }, async (request, reply) =>
    sendPage(reply, forgotPage(request, {})),
  );

  app.post<{ Body: Static<typeof ForgotForm> }>(
    '/forgot-password',
    { config: page, schema: { ...hidden, body: ForgotForm } },
    async (request, reply) => {
      try {
        const found = await logins.requestPasswordReset(request.body.email, clientKey(request.ip));
        if (found) {
          await mail.enqueue('password-reset', found.email, {
            name: found.user.name,
            url: mail.link(`/reset-password/${found.token}`),
          });
        }
      } catch (error) {
        const refusal = formRefusal(request, reply, error, 3600);
        return sendPage(
          reply,
          forgotPage(request, {
            problem: { message: refusal.message, field: 'email' },
            email: request.body.email,
          }),
          STATUS_BY_CODE[refusal.code],
        );
      }
      // The same answer whether or not the address has an account.
      return sendPage(reply, forgotPage(request, { sent: true }));
    },
  );

  /** A reset link that is unknown, used, replaced or expired: a page that says so, and the way on. */
  const deadResetLink = (request: FastifyRequest, reply: FastifyReply) =>
    sendPage(
      reply,
      deadLinkPage(request, 'password reset', { href: '/forgot-password', label: 'Ask for a new link' }),
      404,
    );

  app.get<{ Params: LinkParams }>(
    '/reset-password/:token',
    { config: secret, schema: { ...hidden, params: LinkParams } },
    async (request, reply) => {
      const user = await logins.peekEmailToken(request.params.token, 'reset');
      if (!user) return deadResetLink(request, reply);
      return sendPage(reply, resetPage(request, request.params.token, user.name));
    },
  );

  app.post<{ Params: LinkParams; Body: Static<typeof ResetForm> }>(
    '/reset-password/:token',
    { config: secret, schema: { ...hidden, params: LinkParams, body: ResetForm } },
    async (request, reply) => {
      const { token } = request.params;
      let user;
      try {
        user = await logins.resetPassword(token, request.body.password);
      } catch (error) {
        const refusal = formRefusal(request, reply, error);
        const who = await logins.peekEmailToken(token, 'reset');
        if (!who) throw refusal;
        return sendPage(
          reply,
          resetPage(request, token, who.name, { message: refusal.message, field: 'password' }),
          STATUS_BY_CODE[refusal.code],
        );
      }
      if (!user) return deadResetLink(request, reply);
      // Everyone else who was signed in is signed out; this browser starts afresh.
      await sessions.endAll(user.id);
      const started = await sessions.start(user.id);
      cookies.setSession(reply, started.token);
      return reply.redirect('/account?reset=1', 303);
    },
  );

  app.get<{ Params: LinkParams }>(
    '/verify-email/:token',
    { config: secret, schema: { ...hidden, params: LinkParams } },
    async (request, reply) => {
      const user = await logins.peekEmailToken(request.params.token, 'verify');
      if (!user)
        return sendPage(
          reply,
          deadLinkPage(request, 'confirmation', { href: '/account', label: 'Go to your account' }),
          404,
        );
      return sendPage(
        reply,
        panel(
          request,
          'Confirm your address',
          html`<h1>Confirm your address</h1>
            <p>Confirm this address for ${user.name}'s account.</p>
            <form method="post" action="/verify-email/${request.params.token}" class="stacked-form">
              ${csrfField(request)}
              <button type="submit" class="button primary">Confirm my address</button>
            </form>`,
        ),
      );
    },
  );

  app.post<{ Params: LinkParams }>(
    '/verify-email/:token',
    { config: secret, schema: { ...hidden, params: LinkParams, body: ButtonForm } },
    async (request, reply) => {
      const user = await logins.verifyEmail(request.params.token);
      if (!user)
        return sendPage(
          reply,
          deadLinkPage(request, 'confirmation', { href: '/account', label: 'Go to your account' }),
          404,
        );
      return sendPage(
        reply,
        panel(
          request,
          'Address confirmed',
          html`<h1>Address confirmed</h1>
            <p role="status" id="verified">
              ${user.email ?? ''} is confirmed. You can go live, publish and create API keys.
            </p>
            <p>
              <a class="button primary" href="${request.webUser ? '/dashboard' : '/sign-in'}"
                >${request.webUser ? 'Go to your dashboard' : 'Sign in'}</a
              >
            </p>`,
        ),
      );
    },
  );

  app.post(
    '/account/verification',
    { config: page, schema: { ...hidden, body: ButtonForm } },
    async (request, reply) => {
      const user = requireUser(request, reply);
      if (!user) return reply;
      if (mail.verificationRequired && user.email !== null && !user.emailVerified)
        await sendVerification(user, user.email);
      return reply.redirect('/account?verification=sent', 303);
    },
  );

  app.get<{ Params: Static<typeof UnsubscribeParams> }>(
    '/unsubscribe/:token',
    { config: secret, schema: { ...hidden, params: UnsubscribeParams } },
    async (request, reply) => {
      const found = await subscriptionOf(request.params.token);
      if (!found)
        return sendPage(
          reply,
          panel(
            request,
            'Link not recognised',
            html`<h1>This link is not recognised</h1>
              <p>Manage your go-live mails on each channel's page.</p>`,
          ),
          404,
        );
      return sendPage(
        reply,
        panel(
          request,
          'Stop go-live mails',
          html`<h1>Stop go-live mails from ${found.channel}?</h1>
            <p>You stay subscribed; only the mails stop. Turn them on again on the channel's page.</p>
            <form method="post" action="/unsubscribe/${request.params.token}" class="stacked-form">
              <input type="hidden" name="List-Unsubscribe" value="One-Click" />
              <button type="submit" class="button primary">Stop these mails</button>
            </form>`,
        ),
      );
    },
  );

  // RFC 8058: the mail client POSTs here itself (no cookies, no CSRF token): the signed link
  // is the authority, and all it can do is turn one subscription's mails off.
  // The body (`List-Unsubscribe=One-Click`) is not needed to know what to do, and a link is
  // judged before any body: a forged one is a 404 whatever was sent.
  app.post<{ Params: Static<typeof UnsubscribeParams> }>(
    '/unsubscribe/:token',
    {
      config: { access: 'public', secretInPath: true },
      schema: { ...hidden, params: UnsubscribeParams },
    },
    async (request, reply) => {
      const found = await subscriptionOf(request.params.token);
      if (!found)
        return sendPage(
          reply,
          panel(request, 'Link not recognised', html`<h1>This link is not recognised</h1>`),
          404,
        );
      await setNotifyLive(options.services.database.db, found.id, false);
      return sendPage(
        reply,
        panel(
          request,
          'Go-live mails stopped',
          html`<h1>Go-live mails stopped</h1>
            <p role="status" id="unsubscribed">
              You will not be mailed when ${found.channel} goes live. You are still subscribed.
            </p>
            <p><a href="/channels/${found.creator_id}">${found.channel}'s channel</a></p>`,
        ),
      );
    },
  );

  async function subscriptionOf(token: string) {
    const id = mail.openUnsubscribeToken(token);
    return id === undefined ? undefined : findSubscriptionForMail(options.services.database.db, id);
  }
}
