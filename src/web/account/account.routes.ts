// /account: who is signed in, the profile (profile.routes.ts answers its forms, the email among
// them), changing the password (or giving a CLI-made account an email and a password), and
// signing out everywhere.
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
import type { Profile } from '../../profiles/profile.service.ts';
import { profileSections } from './profile.pages.ts';
import { formRefusal } from '../form-refusal.ts';

/** What a redirect after a saved form says on the account page (`?saved=`). */
const SAVED: Record<string, string> = {
  profile: 'Your profile is saved.',
  email: 'Your email is changed.',
  'email-link': 'We mailed a link to the new address: open it to make it your address.',
  avatar: 'Your avatar is uploaded; it shows as soon as it is prepared.',
  banner: 'Your banner is uploaded; it shows as soon as it is prepared.',
};

const AccountQuery = Type.Object(
  {
    reset: Type.Optional(Type.String({ maxLength: 8 })),
    verification: Type.Optional(Type.String({ maxLength: 8 })),
    saved: Type.Optional(Type.String({ maxLength: 32 })),
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

export interface Notice {
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

export function accountPage(
  request: FastifyRequest,
  user: WebUser,
  profile: Profile,
  notice?: Notice,
  verify = false,
): string {
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
      ${profileSections(request, profile, user.email, verify)}
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
  const { logins, sessions, mail, profiles } = options.services;
  const verify = mail.verificationRequired;
  const profileOf = async (user: WebUser): Promise<Profile> => {
    const profile = await profiles.find(user.id);
    if (!profile) throw new AppError('resource_not_found', 'This account no longer exists.');
    return profile;
  };

  app.get<{ Querystring: Static<typeof AccountQuery> }>(
    '/account',
    { config: { access: 'page' }, schema: { hide: true, querystring: AccountQuery } },
    async (request, reply) => {
      const user = requireUser(request, reply);
      if (!user) return reply;
      const key = request.query.saved;
      const saved = key !== undefined && Object.hasOwn(SAVED, key) ? SAVED[key] : undefined;
      const notice: Notice | undefined =
        request.query.reset !== undefined
          ? { kind: 'success', message: 'Your new password is saved. Every other session is signed out.' }
          : request.query.verification !== undefined
            ? { kind: 'success', message: 'A new confirmation link is on its way.' }
            : saved !== undefined
              ? { kind: 'success', message: saved }
              : undefined;
      return sendPage(reply, accountPage(request, user, await profileOf(user), notice, verify));
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
        const refusal = formRefusal(request, reply, error, 900);
        return sendPage(
          reply,
          accountPage(
            request,
            user,
            await profileOf(user),
            { kind: 'error', message: refusal.message },
            verify,
          ),
          STATUS_BY_CODE[refusal.code],
        );
      }
      // Whoever knew the old password is signed out everywhere else.
      if (request.webSessionToken !== null) await sessions.endOthers(user.id, request.webSessionToken);
      return sendPage(
        reply,
        accountPage(
          request,
          updated,
          await profileOf(updated),
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
