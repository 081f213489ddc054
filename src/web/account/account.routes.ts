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
import type { Profile } from '../../profiles/profile.service.ts';
import { profileSections } from './profile.pages.ts';

/** What a redirect after a saved form says on the account page (`?saved=`). */
const SAVED: Record<string, string> = {
  profile: 'Your profile is saved.',
  email: 'Your email is changed.',
  avatar: 'Your avatar is uploaded; it shows as soon as it is prepared.',
  banner: 'Your banner is uploaded; it shows as soon as it is prepared.',
};
const AccountQuery = Type.Object({ saved: Type.Optional(Type.String({ maxLength: 32 })) });

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

export function accountPage(
  request: FastifyRequest,
  user: WebUser,
  profile: Profile,
  notice?: Notice,
): string {
  const hasEmail = user.email !== null;
  return renderPage({
    title: 'Account',
    request,
    section: 'account',
    body: html`<h1>Account</h1>
      ${notice && html`<div class="alert alert-${notice.kind}" role="${notice.kind === 'error' ? 'alert' : 'status'}" id="account-notice">${notice.message}</div>`}
      <section class="panel">
        <h2>You</h2>
        <dl class="facts">
          <dt>Name</dt>
          <dd>${user.name}</dd>
          <dt>Email</dt>
          <dd>
            ${user.email ?? html`<span class="muted">none yet: add one below to sign in with a password</span>`}
          </dd>
          <dt>User id</dt>
          <dd><code>${user.id}</code></dd>
        </dl>
      </section>
      ${profileSections(request, profile, user.email)}
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
  const { logins, sessions, profiles } = options.services;
  const profileOf = async (user: WebUser): Promise<Profile> => {
    const profile = await profiles.find(user.id);
    if (!profile) throw new AppError('resource_not_found', 'This account no longer exists.');
    return profile;
  };

  app.get<{ Querystring: { saved?: string } }>(
    '/account',
    { config: { access: 'page' }, schema: { hide: true, querystring: AccountQuery } },
    async (request, reply) => {
      const user = requireUser(request, reply);
      if (!user) return reply;
      const key = request.query.saved;
      const saved = key !== undefined && Object.hasOwn(SAVED, key) ? SAVED[key] : undefined;
      const notice = saved === undefined ? undefined : { kind: 'success' as const, message: saved };
      return sendPage(reply, accountPage(request, user, await profileOf(user), notice));
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
          accountPage(request, user, await profileOf(user), { kind: 'error', message: error.message }),
          STATUS_BY_CODE[error.code],
        );
      }
      // Whoever knew the old password is signed out everywhere else.
      if (request.webSessionToken !== null) await sessions.endOthers(user.id, request.webSessionToken);
      return sendPage(
        reply,
        accountPage(request, updated, await profileOf(updated), {
          kind: 'success',
          message: 'Your password is saved. Your other sessions are signed out.',
        }),
      );
    },
  );
}
