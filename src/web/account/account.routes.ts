// /account: who is signed in, changing the password (or giving a CLI-made account an email
// and a password), and signing out everywhere.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { STATUS_BY_CODE } from '../../http/error-handler.ts';
import { AppError } from '../../shared/errors.ts';
import { CsrfField } from '../auth/auth.schemas.ts';
import { html } from '../html.ts';
import { renderPage, sendPage } from '../layout.ts';
import { csrfField } from '../session/csrf.ts';
import { requireUser } from '../session/guards.ts';
import type { WebUser } from '../session/types.ts';
import type { WebRoutesOptions } from '../web-options.ts';

const EmailForm = Type.Object(
  {
    _csrf: CsrfField,
    email: Type.String({ maxLength: 1000 }),
    current_password: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { additionalProperties: false },
);
type EmailForm = Static<typeof EmailForm>;

const AccountQuery = Type.Object(
  {
    reset: Type.Optional(Type.String({ maxLength: 8 })),
    verification: Type.Optional(Type.String({ maxLength: 8 })),
  },
  { additionalProperties: false },
);

const PasswordForm = Type.Object(
  {
    _csrf: CsrfField,
    email: Type.Optional(Type.String({ maxLength: 1000 })),
    current_password: Type.Optional(Type.String({ maxLength: 1000 })),
    password: Type.String({ maxLength: 1000 }),
  },
  { additionalProperties: false },
);
type PasswordForm = Static<typeof PasswordForm>;

interface Notice {
  kind: 'success' | 'error';
  message: string;
}

/** What an unconfirmed address stops, said where it matters (also on the keys and dashboard pages). */
export function verificationNotice(request: FastifyRequest, user: WebUser, required: boolean) {
  if (!required || user.email === null || user.emailVerified) return undefined;
  return html`<div class="alert alert-warning" role="status" id="verify-notice">
    <p>
      Confirm your address (<strong>${user.email}</strong>) with the link we mailed you. Until then you can
      watch, subscribe and set up streams, but not go live, publish videos or create API keys.
    </p>
    <form method="post" action="/account/verification">
      ${csrfField(request)}<button type="submit" class="button">Mail me another link</button>
    </form>
  </div>`;
}

function accountPage(request: FastifyRequest, user: WebUser, notice?: Notice, verify = false): string {
  const hasEmail = user.email !== null;
  return renderPage({
    title: 'Account',
    request,
    section: 'account',
    body: html`<h1>Account</h1>
      ${verificationNotice(request, user, verify)}
      ${notice && html`<div class="alert alert-${notice.kind}" role="${notice.kind === 'error' ? 'alert' : 'status'}" id="account-notice">${notice.message}</div>`}
      <section class="panel">
        <h2>You</h2>
        <dl class="facts">
          <dt>Name</dt>
          <dd>${user.name}</dd>
          <dt>Email</dt>
          <dd>
            ${user.email ?? html`<span class="muted">none yet: add one below to sign in with a password</span>`}
            ${user.email !== null && verify ? (user.emailVerified ? html` <span class="badge">confirmed</span>` : html` <span class="badge badge-warning">not confirmed</span>`) : undefined}
          </dd>
          <dt>User id</dt>
          <dd><code>${user.id}</code></dd>
        </dl>
      </section>
      <section class="panel">
        <h2>${hasEmail ? 'Change your password' : 'Set an email and a password'}</h2>
        <form method="post" action="/account/password" class="stacked-form">
          ${csrfField(request)}
          ${hasEmail ? undefined : html`<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="254" />`}
          ${hasEmail ? html`<label for="current_password">Current password</label><input id="current_password" name="current_password" type="password" autocomplete="current-password" required maxlength="256" />` : undefined}
          <label for="password">New password <span class="hint">at least 10 characters</span></label>
          <input
            id="password"
            name="password"
            type="password"
            autocomplete="new-password"
            required
            minlength="10"
            maxlength="256"
          />
          <button type="submit" class="button primary">Save password</button>
        </form>
      </section>
      ${
        hasEmail
          ? html`<section class="panel">
              <h2>Change your email</h2>
              <p class="muted">
                ${
                  verify
                    ? 'We mail a link to the new address; it replaces the current one when you open it.'
                    : 'The new address replaces the current one at once.'
                }
              </p>
              <form method="post" action="/account/email" class="stacked-form">
                ${csrfField(request)}
                <label for="new_email">New email</label>
                <input
                  id="new_email"
                  name="email"
                  type="email"
                  autocomplete="email"
                  required
                  maxlength="254"
                />
                <label for="email_current_password">Current password</label>
                <input
                  id="email_current_password"
                  name="current_password"
                  type="password"
                  autocomplete="current-password"
                  required
                  maxlength="256"
                />
                <button type="submit" class="button">Change email</button>
              </form>
            </section>`
          : undefined
      }
      <section class="panel">
        <h2>Sign out everywhere</h2>
        <p>Ends every session of this account, on every device and browser, this one included.</p>
        <form
          method="post"
          action="/sign-out-everywhere"
          data-confirm="Sign out everywhere? Every session of this account ends, this one included."
          data-confirm-action="Sign out everywhere"
        >
          ${csrfField(request)}<button type="submit" class="button danger">Sign out everywhere</button>
        </form>
      </section>`,
  });
}

export async function accountRoutes(app: FastifyInstance, options: WebRoutesOptions): Promise<void> {
  const { logins, sessions, mail } = options.services;
  const verify = mail.verificationRequired;

  app.get<{ Querystring: Static<typeof AccountQuery> }>(
    '/account',
    { config: { access: 'page' }, schema: { hide: true, querystring: AccountQuery } },
    async (request, reply) => {
      const user = requireUser(request, reply);
      if (!user) return reply;
      const notice: Notice | undefined =
        request.query.reset !== undefined
          ? { kind: 'success', message: 'Your new password is saved. Every other session is signed out.' }
          : request.query.verification !== undefined
            ? { kind: 'success', message: 'A new confirmation link is on its way.' }
            : undefined;
      return sendPage(reply, accountPage(request, user, notice, verify));
    },
  );

  app.post<{ Body: EmailForm }>(
    '/account/email',
    { config: { access: 'page' }, schema: { hide: true, body: EmailForm } },
    async (request, reply) => {
      const user = requireUser(request, reply);
      if (!user) return reply;
      let pending;
      try {
        pending = await logins.changeEmail(user.id, {
          current: request.body.current_password ?? '',
          email: request.body.email,
          verify,
        });
      } catch (error) {
        if (!(error instanceof AppError) || error.code === 'internal_error') throw error;
        if (error.code === 'rate_limit_exceeded') void reply.header('Retry-After', 900);
        return sendPage(
          reply,
          accountPage(request, user, { kind: 'error', message: error.message }, verify),
          STATUS_BY_CODE[error.code],
        );
      }
      if (pending) {
        await mail.enqueue('verify-email', pending.email, {
          name: user.name,
          url: mail.link(`/verify-email/${pending.token}`),
        });
        return sendPage(
          reply,
          accountPage(
            request,
            user,
            {
              kind: 'success',
              message: `We mailed a link to ${pending.email}: open it to make it your address.`,
            },
            verify,
          ),
        );
      }
      const updated = (await logins.findUser(user.id)) ?? user;
      return sendPage(
        reply,
        accountPage(request, updated, { kind: 'success', message: 'Your email is changed.' }, verify),
      );
    },
  );

  app.post<{ Body: PasswordForm }>(
    '/account/password',
    { config: { access: 'page' }, schema: { hide: true, body: PasswordForm } },
    async (request, reply) => {
      const user = requireUser(request, reply);
      if (!user) return reply;
      const { email, current_password: current = '', password } = request.body;
      let updated: WebUser;
      try {
        updated =
          user.email === null && email !== undefined
            ? await logins.setLogin(user.id, { email, password })
            : (await logins.changePassword(user.id, current, password), user);
      } catch (error) {
        if (!(error instanceof AppError) || error.code === 'internal_error') throw error;
        if (error.code === 'rate_limit_exceeded') void reply.header('Retry-After', 900);
        return sendPage(
          reply,
          accountPage(request, user, { kind: 'error', message: error.message }, verify),
          STATUS_BY_CODE[error.code],
        );
      }
      // Whoever knew the old password is signed out everywhere else.
      if (request.webSessionToken !== null) await sessions.endOthers(user.id, request.webSessionToken);
      return sendPage(
        reply,
        accountPage(
          request,
          updated,
          {
            kind: 'success',
            message: 'Your password is saved. Your other sessions are signed out.',
          },
          verify,
        ),
      );
    },
  );
}
