// The dashboard's one door to web-core's foundation (html, layout, session guard, CSRF field).
export { html, raw, SafeHtml, renderPage, sendPage, requireUser, csrfField } from '../_pending-core.ts';
export type { WebUser } from '../_pending-core.ts';

/** Every dashboard page route: no API key, rate-limited per address, CSRF-checked when it changes state. */
export const PAGE = { access: 'public' } as const;
