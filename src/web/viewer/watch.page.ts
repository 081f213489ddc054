// A watch page in the site's layout: its header and navigation, app.css and the player's own
// watch.css, around the media feature's player markup (src/media/watch-page.ts).
import type { FastifyRequest } from 'fastify';
import { renderWatchBody, WATCH_SCRIPTS } from '../../media/watch-page.ts';
import type { WatchInfo } from '../../media/watch.service.ts';
import { html, raw } from '../html.ts';
import { renderPage } from '../layout.ts';
import { channelPath } from './cards.ts';

export function watchPage(request: FastifyRequest, info: WatchInfo): string {
  const body = renderWatchBody(info, {
    info: `/watch/${encodeURIComponent(info.id)}/info`,
    channel: channelPath(info.creator.id),
    report: `/report?kind=${info.kind}&id=${encodeURIComponent(info.id)}`,
  });
  return renderPage({
    title: info.title,
    request,
    meta: html`<meta property="og:title" content="${info.title}" />
      ${info.thumbnail_url === null ? '' : html`<meta property="og:image" content="${info.thumbnail_url}" />`}`,
    body: raw(body),
    styles: ['/assets/watch.css'],
    scripts: WATCH_SCRIPTS.map((name) => `/assets/${name}`),
  });
}
