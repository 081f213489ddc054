// The Content-Security-Policy of every app page: only the service's own scripts, styles and
// media, no inline code, forms posting only to the service, never framed (clickjacking).
const APP_PAGE_RULES = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "media-src 'self' blob:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
];

export const APP_PAGE_CSP = [...APP_PAGE_RULES, "frame-ancestors 'none'"].join('; ');

/**
 * The embeddable player's (/embed/{id}): the same rules, but any site may frame it. It holds
 * no form and acts for nobody (no session is read), so being framed risks no clickjacking.
 */
export const EMBED_PAGE_CSP = [...APP_PAGE_RULES, 'frame-ancestors *'].join('; ');
