// The HTML of a watch page. Everything dynamic is escaped; the page's data travels as JSON in
// a non-executed script element, and the only scripts are the project's own files (hls.js and
// watch.js), which the Content-Security-Policy holds it to.
import type { WatchInfo } from './watch.service.ts';

export const WATCH_PAGE_CSP = [
  "default-src 'self'",
  "img-src 'self' data:",
  "media-src 'self' blob:",
  "worker-src 'self' blob:",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  // The Subscribe form posts to this service (its script usually sends it without reload).
  "form-action 'self'",
].join('; ');

export interface PageLinks {
  /** Same-origin paths, so the page works whichever host name reached it. */
  assets: string;
  info: string;
  /** The creator's channel page. */
  channel: string;
}

export function renderWatchPage(info: WatchInfo, links: PageLinks): string {
  const data = JSON.stringify({ ...info, info_url: links.info }).replace(/</g, '\\u003c');
  const poster = info.thumbnail_url === null ? '' : ` poster="${escapeHtml(info.thumbnail_url)}"`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title)} · Tributary</title>
<meta property="og:title" content="${escapeHtml(info.title)}">
${info.thumbnail_url === null ? '' : `<meta property="og:image" content="${escapeHtml(info.thumbnail_url)}">\n`}<link rel="stylesheet" href="${links.assets}/watch.css">
</head>
<body>
<main>
<div class="player"><video id="player" controls playsinline muted autoplay${poster}></video>
<p id="notice" class="notice" hidden></p>
<button id="unmute" class="unmute" type="button" hidden>Unmute</button></div>
<h1 id="title">${escapeHtml(info.title)}</h1>
<p class="meta"><a id="creator" href="${escapeHtml(links.channel)}">${escapeHtml(info.creator.name)}</a>
<span id="status" class="status status-${pageStatus(info)}">${statusLabel(pageStatus(info))}</span>
<span id="viewers"></span></p>
<div id="subscribe" class="subscribe" data-state-url="${escapeHtml(links.channel)}/subscription" aria-live="polite"></div>
${info.description === null ? '' : `<p id="description" class="description">${escapeHtml(info.description)}</p>\n`}</main>
<script id="watch-data" type="application/json">${data}</script>
<script src="${links.assets}/hls.min.js"></script>
<script src="${links.assets}/subscribe.js"></script>
<script src="${links.assets}/watch.js"></script>
</body>
</html>
`;
}

export function renderNotFoundPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Not found · Tributary</title></head>
<body><main><h1>Nothing to watch here</h1><p>This stream or video does not exist, or is not published yet.</p></main></body>
</html>
`;
}

/** A live stream waiting for its publisher to reconnect is not labelled live. */
function pageStatus(info: WatchInfo): WatchInfo['status'] | 'reconnecting' {
  return info.status === 'live' && info.reconnecting ? 'reconnecting' : info.status;
}

function statusLabel(status: WatchInfo['status'] | 'reconnecting'): string {
  return {
    scheduled: 'Starting soon',
    live: 'Live',
    ended: 'Ended',
    published: 'Video',
    reconnecting: 'Reconnecting',
  }[status];
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
