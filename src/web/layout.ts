// The one layout of every app page: a skip link, the top navigation (what it offers depends on
// who is signed in), the page's own content in <main id="main">, and the shared stylesheet and
// script. sendPage sends it with the headers every page needs.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_PAGE_CSP } from './csp.ts';
import { avatar, initialOf, toneOf } from './avatar.ts';
import { html, type SafeHtml } from './html.ts';
import { AVATAR_SMALL, ProfileService } from '../profiles/profile.service.ts';
import { csrfField } from './session/csrf.ts';
import { MAX_QUERY_LENGTH as SEARCH_MAX_LENGTH } from '../search/search-terms.ts';

export type Section =
  | 'home'
  | 'search'
  | 'dashboard'
  | 'streams'
  | 'videos'
  | 'ingest'
  | 'keys'
  | 'webhooks'
  | 'chat'
  | 'account'
  | 'admin';

export interface Page {
  title: string;
  request: FastifyRequest;
  body: SafeHtml;
  /** Same-origin paths of extra scripts (served from /assets/...). */
  scripts?: string[];
  /** Same-origin paths of extra stylesheets. */
  styles?: string[];
  /** Extra elements for the document's head (a watch page's Open Graph tags). */
  meta?: SafeHtml;
  section?: Section;
  /** What the header's search box holds (the search page's own query). */
  searchText?: string;
}

const DASHBOARD_LINKS: { section: Section; href: string; label: string }[] = [
  { section: 'streams', href: '/dashboard/streams', label: 'Streams' },
  { section: 'videos', href: '/dashboard/videos', label: 'Videos' },
  { section: 'ingest', href: '/dashboard/ingest', label: 'Channel' },
  { section: 'keys', href: '/dashboard/keys', label: 'API keys' },
  { section: 'webhooks', href: '/dashboard/webhooks', label: 'Webhooks' },
  { section: 'chat', href: '/dashboard/chat', label: 'Chat' },
];

function current(page: Page, section: Section): SafeHtml | undefined {
  return page.section === section ? html` aria-current="page"` : undefined;
}

/** The search box every page's header has: a plain GET form, so it works without script. */
function searchBox(page: Page): SafeHtml {
  return html`<form class="site-search" role="search" action="/search" method="get">
    <label class="visually-hidden" for="site-search-q">Search streams, videos and channels</label>
    <input
      type="search"
      id="site-search-q"
      name="q"
      value="${page.searchText ?? ''}"
      placeholder="Search"
      maxlength="${SEARCH_MAX_LENGTH}"
      autocomplete="off"
      enterkeyhint="search"
    />
    <button type="submit" class="site-search-button">Search</button>
  </form>`;
}

function navigation(page: Page): SafeHtml {
  const user = page.request.webUser;
  // Their avatar, or their initial on a circle (drawn by app.css from data-initial).
  const version = user?.avatarVersion ?? null;
  const account = user
    ? html`<a
          class="nav-user"
          href="/account"
          ${
            version === null
              ? html`data-initial="${initialOf(user.name)}" data-tone="${toneOf(user.id)}"`
              : null
          }
          title="Your account"
          ${current(page, 'account')}
          >${
            version === null
              ? null
              : avatar(
                  {
                    id: user.id,
                    name: user.name,
                    avatar: `/profiles/${user.id}/${ProfileService.fileName('avatar', version, AVATAR_SMALL)}`,
                  },
                  28,
                  { lazy: false },
                )
          }<span class="nav-user-name">${user.name}</span></a
        >
        <form method="post" action="/sign-out" class="inline-form">
          ${csrfField(page.request)}<button type="submit" class="link-button">Sign out</button>
        </form>`
    : html`<a href="/sign-in">Sign in</a> <a class="button primary button-small" href="/sign-up">Sign up</a>`;
  const inDashboard = DASHBOARD_LINKS.some((link) => link.section === page.section);
  const dashboard = user
    ? html`<li>
        <a
          href="/dashboard"
          ${current(page, 'dashboard')}
          ${inDashboard ? html`class="in-section"` : undefined}
          >Dashboard</a
        >
      </li>`
    : undefined;
  // The dashboard's sections get a bar of their own under the header, full width on a phone;
  // only inside the dashboard, so the viewer's pages stay the viewer's.
  const sections =
    user && inDashboard
      ? html`<nav class="section-nav" aria-label="Dashboard">
          <ul>
            ${DASHBOARD_LINKS.map(
              (link) =>
                html`<li><a href="${link.href}" ${current(page, link.section)}>${link.label}</a></li>`,
            )}
          </ul>
        </nav>`
      : undefined;
  return html`<header class="site-header">
    <nav class="site-nav" aria-label="Main">
      <a class="brand" href="/">Tributary</a>
      <ul class="nav-links">
        <li><a href="/" ${current(page, 'home')}>Home</a></li>
        ${dashboard}
        ${
          user?.role === 'operator'
            ? html`<li><a href="/admin" ${current(page, 'admin')} id="nav-admin">Admin</a></li>`
            : undefined
        }
      </ul>
      ${searchBox(page)}
      <div class="nav-account">${account}</div>
    </nav>
    ${sections}
  </header>`;
}

/** The whole document of an app page. */
export function renderPage(page: Page): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${page.title} · Tributary</title>
        ${page.meta}
        <link rel="icon" href="/assets/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/assets/app.css" />
        ${(page.styles ?? []).map((href) => html`<link rel="stylesheet" href="${href}" /> `)}
        <script src="/assets/app.js" defer></script>
        ${(page.scripts ?? []).map((src) => html`<script src="${src}" defer></script> `)}
      </head>
      <body>
        <a class="skip-link" href="#main">Skip to content</a>
        ${navigation(page)}
        <main id="main" tabindex="-1">${page.body}</main>
      </body>
    </html> `.toString();
}

/**
 * Sends a page: HTML, the app's Content-Security-Policy, never framed or sniffed, and never
 * stored by a cache (pages carry the user's data and CSRF tokens).
 */
export function sendPage(reply: FastifyReply, document: string, status = 200): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('Content-Security-Policy', APP_PAGE_CSP)
    .header('X-Content-Type-Options', 'nosniff')
    .header('X-Frame-Options', 'DENY')
    .header('Referrer-Policy', 'same-origin')
    .header('Cache-Control', reply.request.webUser ? 'no-store' : 'private, no-cache')
    .header('Vary', 'Cookie')
    .send(document);
}

/** An error page's heading: a refusal (4xx) is not "something went wrong". */
function errorHeading(status: number): string {
  if (status === 404) return 'Page not found';
  if (status === 403) return 'Refused';
  if (status === 429) return 'Too many requests';
  return status >= 500 ? 'Something went wrong' : 'Request refused';
}

/** What a person reads: an unknown address is said plainly, not as the API's "no route". */
function errorMessage(request: FastifyRequest, code: string, message: string): string {
  if (code !== 'route_not_found') return message;
  const path = request.url.split('?')[0] ?? '/';
  return `There is no page at ${path.length > 80 ? `${path.slice(0, 80)}…` : path}. Check the address, or start again from the home page.`;
}

/** An error as a page: what went wrong, the code (as in the API's envelope), and a way on. */
export function renderErrorPage(
  request: FastifyRequest,
  status: number,
  code: string,
  message: string,
): string {
  return renderPage({
    title: errorHeading(status),
    request,
    body: html`<section class="panel narrow error-page">
      <p class="error-status" aria-hidden="true">${status}</p>
      <h1>${errorHeading(status)}</h1>
      <p id="error-message">${errorMessage(request, code, message)}</p>
      <p class="button-row">
        <a class="button primary" href="/">Home page</a>
        ${request.webUser ? html`<a class="button" href="/dashboard">Your dashboard</a>` : ''}
      </p>
      <p class="muted small">Error code: <code class="error-code">${code}</code> (HTTP ${status})</p>
    </section>`,
  });
}
