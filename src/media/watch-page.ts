// The inside of a watch page: the player, the title, the creator and status, the Subscribe spot
// and the description. The web app (src/web/viewer/watch.page.ts) puts it in the site's layout,
// with its header, navigation, stylesheets and Content-Security-Policy. Everything dynamic is
// escaped; the page's data travels as JSON in a non-executed script element, and the only
// scripts are the project's own files (hls.js, subscribe.js and watch.js).
import type { PublicUrls } from '../shared/public-urls.ts';
import type { WatchInfo } from './watch.service.ts';

export interface PageLinks {
  /** Same-origin paths, so the page works whichever host name reached it. */
  info: string;
  /** The creator's channel page. */
  channel: string;
  /** Where a viewer reports this stream or video to the operators (src/web/admin/report.routes.ts). */
  report?: string;
}

/** The page's copy of the info links media by path, so it plays under any host name. */
export function pageInfo(info: WatchInfo, urls: PublicUrls): WatchInfo {
  return {
    ...info,
    playback_url: info.playback_url === null ? null : urls.pathOf(info.playback_url),
    thumbnail_url: info.thumbnail_url === null ? null : urls.pathOf(info.thumbnail_url),
  };
}

/** The scripts a watch page loads, in order, under the assets path. */
export const WATCH_SCRIPTS = ['hls.min.js', 'subscribe.js', 'watch.js'];

export function renderWatchBody(info: WatchInfo, links: PageLinks): string {
  const data = JSON.stringify({ ...info, info_url: links.info }).replace(/</g, '\\u003c');
  const poster = info.thumbnail_url === null ? '' : ` poster="${escapeHtml(info.thumbnail_url)}"`;
  return `<div class="watch">
<div class="player"><video id="player" controls playsinline muted autoplay${poster}></video>
<p id="notice" class="notice" hidden></p>
<button id="unmute" class="unmute" type="button" hidden>Unmute</button></div>
<div class="watch-info">
<h1 id="title">${escapeHtml(info.title)}</h1>
<p class="meta"><a id="creator" href="${escapeHtml(links.channel)}">${escapeHtml(info.creator.name)}</a>
<span id="status" class="status status-${pageStatus(info)}">${statusLabel(pageStatus(info))}</span>
<span id="viewers"></span></p>
<div id="subscribe" class="subscribe" data-state-url="${escapeHtml(links.channel)}/subscription" aria-live="polite"></div>
${info.description === null ? '' : `<p id="description" class="description">${escapeHtml(info.description)}</p>\n`}${links.report === undefined ? '' : `<p class="report-link"><a id="report" class="button button-small" href="${escapeHtml(links.report)}">Report this ${info.kind}</a></p>\n`}</div>
</div>
<script id="watch-data" type="application/json">${data}</script>
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
