// The inside of a watch page: the player, the title, the creator and status, the Subscribe spot
// and the description. The web app (src/web/viewer/watch.page.ts) puts it in the site's layout,
// with its header, navigation, stylesheets and Content-Security-Policy. Everything dynamic is
// escaped; the page's data travels as JSON in a non-executed script element, and the only
// scripts are the project's own files (hls.js, realtime.js, subscribe.js and watch.js).
import type { PublicUrls } from '../shared/public-urls.ts';
import type { WatchInfo } from './watch.service.ts';

export interface PageLinks {
  /** Same-origin paths, so the page works whichever host name reached it. */
  info: string;
  /** The creator's channel page. */
  channel: string;
  /** The watch page's address under PUBLIC_URL (what Share copies). */
  page: string;
  /** The embeddable player's address under PUBLIC_URL (the embed code's iframe). */
  embed: string;
  /**
   * The creator's avatar or its placeholder, as markup the web app made (src/web/avatar.ts):
   * trusted, inserted as it is.
   */
  avatarMarkup?: string | undefined;
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
export const WATCH_SCRIPTS = ['hls.min.js', 'realtime.js', 'subscribe.js', 'watch.js'];
/** The embedded player's: no Subscribe. */
export const EMBED_SCRIPTS = ['hls.min.js', 'realtime.js', 'watch.js'];

/** The embed code Share offers and oEmbed answers: a 16:9 iframe of the embeddable player. */
export function embedCode(embedUrl: string, title: string, width = 640, height = 360): string {
  return (
    `<iframe src="${escapeHtml(embedUrl)}" width="${width}" height="${height}" title="${escapeHtml(title)}" ` +
    `frameborder="0" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen></iframe>`
  );
}

/** The keyboard shortcuts public/watch.js answers, as the page lists them. */
export const SHORTCUTS: [string, string][] = [
  ['Space or K', 'Play or pause'],
  ['F', 'Full screen'],
  ['M', 'Mute or unmute'],
  ['\u2190 / \u2192', 'Back or forward 5 seconds'],
  ['\u2191 / \u2193', 'Volume up or down'],
  ['T', 'Theatre mode (wide screens)'],
  ['I', 'Picture in picture'],
];

function pageData(info: WatchInfo, links: PageLinks): string {
  return JSON.stringify({ ...info, info_url: links.info }).replace(/</g, '\\u003c');
}

/** The video with its notice and Unmute button, then the bar of its settings. */
function playerMarkup(info: WatchInfo, options: { theatre: boolean; share: boolean }): string {
  const poster = info.thumbnail_url === null ? '' : ` poster="${escapeHtml(info.thumbnail_url)}"`;
  return `<div class="player" id="player-box"><video id="player" controls playsinline muted autoplay${poster}></video>
<p id="notice" class="notice" hidden></p>
<button id="unmute" class="unmute" type="button" hidden>Unmute</button></div>
<div class="player-bar" role="group" aria-label="Player">
<span class="quality"><label for="quality">Quality</label>
<select id="quality" disabled><option value="-1">Auto</option></select>
<span id="quality-current" class="quality-current" aria-live="polite"></span></span>
<span id="latency" class="latency" hidden></span>
<span class="player-buttons">${options.theatre ? '<button type="button" id="theatre" class="button-small" aria-pressed="false">Theatre</button>\n' : ''}<button type="button" id="pip" class="button-small" hidden>Picture in picture</button>
<button type="button" id="fullscreen" class="button-small">Full screen</button>
${options.share ? '<button type="button" id="share-button" class="button-small" aria-expanded="false" aria-controls="share">Share</button>' : ''}</span>
<span id="player-status" class="visually-hidden" aria-live="polite"></span>
</div>`;
}

function sharePanel(info: WatchInfo, links: PageLinks): string {
  return `<section id="share" class="share-panel" aria-labelledby="share-heading" hidden>
<h2 id="share-heading">Share</h2>
<label for="share-link">Link</label>
<div class="copy-row"><input id="share-link" type="text" readonly value="${escapeHtml(links.page)}" />
<button type="button" class="button" data-copy="share-link">Copy link</button></div>
<label for="share-embed">Embed on a website</label>
<div class="copy-row"><input id="share-embed" type="text" readonly value="${escapeHtml(embedCode(links.embed, info.title))}" />
<button type="button" class="button" data-copy="share-embed">Copy embed code</button></div>
</section>`;
}

function shortcutsList(): string {
  const rows = SHORTCUTS.map(
    ([keys, action]) => `<dt><kbd>${escapeHtml(keys)}</kbd></dt><dd>${escapeHtml(action)}</dd>`,
  );
  return `<details class="shortcuts" id="shortcuts"><summary>Keyboard shortcuts</summary>
<dl>${rows.join('')}</dl></details>`;
}

export function renderWatchBody(info: WatchInfo, links: PageLinks): string {
  const avatar = links.avatarMarkup ?? '';
  return `<div class="watch" id="watch">
${playerMarkup(info, { theatre: true, share: true })}
${sharePanel(info, links)}
<div class="watch-info">
<h1 id="title">${escapeHtml(info.title)}</h1>
<p class="meta"><a id="creator" class="creator-link" href="${escapeHtml(links.channel)}">${avatar}<span>${escapeHtml(info.creator.name)}</span></a>
<span id="status" class="status status-${pageStatus(info)}">${statusLabel(pageStatus(info))}</span>
<span id="viewers"></span></p>
<div id="subscribe" class="subscribe" data-state-url="${escapeHtml(links.channel)}/subscription" aria-live="polite"></div>
${info.description === null ? '' : `<p id="description" class="description">${escapeHtml(info.description)}</p>\n`}${links.report === undefined ? '' : `<p class="report-link"><a id="report" class="button button-small" href="${escapeHtml(links.report)}">Report this ${info.kind}</a></p>\n`}${shortcutsList()}
</div>
</div>
<script id="watch-data" type="application/json">${pageData(info, links)}</script>
`;
}

/**
 * The embeddable player (/embed/{id}): the video and its settings filling the frame, and the
 * title linking to the watch page in a new tab. No header, no Subscribe.
 */
export function renderEmbedBody(info: WatchInfo, links: PageLinks): string {
  return `<main class="embed" id="watch">
${playerMarkup(info, { theatre: false, share: false })}
<p class="embed-title"><a href="${escapeHtml(links.page)}" target="_blank" rel="noopener">${escapeHtml(info.title)}</a>
<span class="muted">${escapeHtml(info.creator.name)} on Tributary</span></p>
</main>
<script id="watch-data" type="application/json">${pageData(info, links)}</script>
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
