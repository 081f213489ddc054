// What the session plugin (session.plugin.ts) adds to every request that reaches a page route.
import type { WebUser } from '../../accounts/login.service.ts';

export type { WebUser };

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null for a visitor. */
    webUser: WebUser | null;
    /** The CSRF token forms on this page must send back (csrf.ts csrfField). */
    csrfToken: string;
    /** What the token is bound to: `session:<id>` or `visitor:<pre-session cookie>`. */
    csrfBinding: string;
    /** The raw session token from the cookie, when it named a live session (sign-out ends it). */
    webSessionToken: string | null;
  }
}
