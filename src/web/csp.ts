// The Content-Security-Policy of every app page: only the service's own scripts, styles and
// media, no inline code, forms posting only to the service, never framed (clickjacking).
export const APP_PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "media-src 'self' blob:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');
