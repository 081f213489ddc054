// A watch page in the site's layout: its header and navigation, app.css and the player's own
// watch.css, around the media feature's player markup (src/media/watch-page.ts). Its head
// carries what makes a shared link unfurl: Open Graph and Twitter card tags (the card plays the
// embeddable player) and the oEmbed discovery link (src/web/share/).
import type { FastifyRequest } from 'fastify';
import { renderWatchBody, WATCH_SCRIPTS } from '../../media/watch-page.ts';
import type { WatchInfo } from '../../media/watch.service.ts';
import type { PublicUrls } from '../../shared/public-urls.ts';
import { html, raw, type SafeHtml } from '../html.ts';
import { renderPage } from '../layout.ts';
import { channelPath } from './cards.ts';

/** The size an embedded player is offered at (16:9), in the cards and in oEmbed by default. */
export const EMBED_WIDTH = 640;
export const EMBED_HEIGHT = 360;

/** What the page's head says about it; `info` has absolute URLs (the API's). */
function shareMeta(info: WatchInfo, urls: PublicUrls): SafeHtml {
  const page = urls.streamPage(info.id);
  const embed = urls.embedPage(info.id);
  const description = (
    info.description ?? `${info.kind === 'stream' ? 'A stream' : 'A video'} by ${info.creator.name}`
  ).slice(0, 300);
  const image = info.thumbnail_url;
  return html`<meta name="description" content="${description}" />
    <link rel="canonical" href="${page}" />
    <meta property="og:site_name" content="Tributary" />
    <meta property="og:type" content="video.other" />
    <meta property="og:title" content="${info.title}" />
    <meta property="og:description" content="${description}" />
    <meta property="og:url" content="${page}" />
    ${image === null ? null : html`<meta property="og:image" content="${image}" />`}
    <meta property="og:video" content="${embed}" />
    <meta property="og:video:type" content="text/html" />
    <meta property="og:video:width" content="${EMBED_WIDTH}" />
    <meta property="og:video:height" content="${EMBED_HEIGHT}" />
    <meta name="twitter:card" content="player" />
    <meta name="twitter:title" content="${info.title}" />
    <meta name="twitter:description" content="${description}" />
    ${image === null ? null : html`<meta name="twitter:image" content="${image}" />`}
    <meta name="twitter:player" content="${embed}" />
    <meta name="twitter:player:width" content="${EMBED_WIDTH}" />
    <meta name="twitter:player:height" content="${EMBED_HEIGHT}" />
    <link
      rel="alternate"
      type="application/json+oembed"
      href="${urls.oembed(page)}"
      title="${info.title}"
    />`;
}

/**
 * `info` as the API gives it (absolute URLs, for the head's tags); the player gets `pageInfo`'s
 * paths. `avatar` is the creator's small avatar, when they have one.
 */
export function watchPage(
  request: FastifyRequest,
  info: WatchInfo,
  pagePlayerInfo: WatchInfo,
  urls: PublicUrls,
  avatar: string | null,
): string {
  const body = renderWatchBody(pagePlayerInfo, {
    info: `/watch/${encodeURIComponent(info.id)}/info`,
    channel: channelPath(info.creator.id),
    page: urls.streamPage(info.id),
    embed: urls.embedPage(info.id),
    avatar,
  });
  return renderPage({
    title: info.title,
    request,
    meta: shareMeta(info, urls),
    body: raw(body),
    styles: ['/assets/watch.css'],
    scripts: WATCH_SCRIPTS.map((name) => `/assets/${name}`),
  });
}
