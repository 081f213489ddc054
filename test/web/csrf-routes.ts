// The state-changing page routes test/web/csrf.test.ts tries, web-core's. Each feature adds
// its own in a file next to this one named `csrf-routes-<feature>.ts` exporting `CSRF_ROUTES`
// (the test reads every such file), so nobody edits another's list.
import type { TestApp } from '../helpers/app.ts';
import type { WebAgent } from '../helpers/web.ts';

export interface CsrfContext {
  server: TestApp;
  /** A signed-up, signed-in user. */
  user: WebAgent;
  userId: string;
  /** A visitor (not signed in) with a pre-session. */
  visitor: WebAgent;
}

export interface CsrfCase {
  /** Who sends the request: the signed-in user or the visitor. */
  as: 'user' | 'visitor';
  /** The concrete path to post to. */
  path: string;
  /** A form that would succeed with the right token (the test adds or withholds `_csrf`). */
  form: Record<string, string>;
  /**
   * Sends the page's own request with the right token, for a form that is not urlencoded (a
   * multipart upload); `form` is posted otherwise.
   */
  accept?: (token: string) => Promise<Response>;
  /** Asserts nothing changed after the refused requests (optional). */
  unchanged?: () => Promise<void>;
}

export interface CsrfRoute {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The route as registered (`/dashboard/keys/:id/revoke`). */
  route: string;
  setup(context: CsrfContext): Promise<CsrfCase>;
}

async function keyCount(context: CsrfContext): Promise<number> {
  return (await context.server.services.accounts.listKeysWithUsage(context.userId)).length;
}

export const CSRF_ROUTES: CsrfRoute[] = [
  {
    method: 'POST',
    route: '/sign-up',
    async setup() {
      return {
        as: 'visitor',
        path: '/sign-up',
        form: { name: 'Mallory', email: 'm@example.com', password: 'password one two' },
      };
    },
  },
  {
    method: 'POST',
    route: '/sign-in',
    async setup() {
      return {
        as: 'visitor',
        path: '/sign-in',
        form: { email: 'csrf-user@example.com', password: 'csrf user password' },
      };
    },
  },
  { method: 'POST', route: '/sign-out', setup: async () => ({ as: 'user', path: '/sign-out', form: {} }) },
  {
    method: 'POST',
    route: '/sign-out-everywhere',
    setup: async () => ({ as: 'user', path: '/sign-out-everywhere', form: {} }),
  },
  {
    method: 'POST',
    route: '/account/password',
    async setup() {
      return {
        as: 'user',
        path: '/account/password',
        form: { current_password: 'csrf user password', password: 'a changed password' },
      };
    },
  },
  {
    method: 'POST',
    route: '/dashboard/keys',
    async setup(context) {
      const before = await keyCount(context);
      return {
        as: 'user',
        path: '/dashboard/keys',
        form: { scope: 'write' },
        async unchanged() {
          if ((await keyCount(context)) !== before) throw new Error('a key was created');
        },
      };
    },
  },
  {
    method: 'POST',
    route: '/dashboard/keys/:id/revoke',
    async setup(context) {
      const key = await context.server.services.accounts.createKey(context.userId, 'read');
      return {
        as: 'user',
        path: `/dashboard/keys/${key.id}/revoke`,
        form: {},
        async unchanged() {
          if (!(await context.server.services.accounts.authenticate(key.key)))
            throw new Error('the key was revoked');
        },
      };
    },
  },
  {
    method: 'POST',
    route: '/sign-in/link/:token',
    async setup(context) {
      const token = await context.server.services.logins.createSignInLink(context.userId);
      return {
        as: 'visitor',
        path: `/sign-in/link/${token}`,
        form: {},
        async unchanged() {
          if (!(await context.server.services.logins.peekSignInLink(token)))
            throw new Error('the link was used');
        },
      };
    },
  },
];
