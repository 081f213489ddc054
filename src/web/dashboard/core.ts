// The dashboard's one door to web-core's foundation (html, layout, session guard, CSRF field).
export { html, raw, SafeHtml } from '../html.ts';
export { renderPage, sendPage } from '../layout.ts';
export { signedIn, userOf } from '../session/guards.ts';
export { csrfField } from '../session/csrf.ts';
export type { WebUser } from '../session/types.ts';

/** Every dashboard page route: no API key, rate-limited per address, CSRF-checked when it changes state. */
export const PAGE = { access: 'page' } as const;
