// A watch page in the site's layout: its header and navigation, app.css and the player's own
// watch.css, around the media feature's player markup (src/media/watch-page.ts), with the chat
// beside the player (below it on a phone): live on a stream's page, replayed in time with
// playback on a video recorded from a stream (public/chat.js does both). Its head carries what
// makes a shared link unfurl: Open Graph and Twitter card tags (the card plays the embeddable
// player) and the oEmbed discovery link (src/web/share/).
import type { FastifyRequest } from 'fastify';
import type { ChatMessage } from '../../chat/chat.serializer.ts';
import { renderWatchBody, WATCH_SCRIPTS } from '../../media/watch-page.ts';
import type { WatchInfo } from '../../media/watch.service.ts';
import type { PublicUrls } from '../../shared/public-urls.ts';
import { avatar as avatarOf } from '../avatar.ts';
import { html, raw, type SafeHtml } from '../html.ts';
import { renderPage } from '../layout.ts';
import { channelPath } from './cards.ts';

/** What the chat panel shows: a stream's live room, a video's replay, or nothing. */
export type WatchChat =
  | { mode: 'live'; socket: string; signedIn: boolean }
  | { mode: 'replay'; messages: ChatMessage[] }
  | { mode: 'none' };

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
 * paths. `avatar` is the path of the creator's small avatar, null when they have none (the
 * placeholder shows).
 */
export function watchPage(
  request: FastifyRequest,
  info: WatchInfo,
  pagePlayerInfo: WatchInfo,
  urls: PublicUrls,
  avatar: string | null,
  chat: WatchChat = { mode: 'none' },
): string {
  const body = renderWatchBody(pagePlayerInfo, {
    info: `/watch/${encodeURIComponent(info.id)}/info`,
    channel: channelPath(info.creator.id),
    page: urls.streamPage(info.id),
    embed: urls.embedPage(info.id),
    avatarMarkup: avatarOf({ ...info.creator, avatar }, 32, { lazy: false }).toString(),
    report: `/report?kind=${info.kind}&id=${encodeURIComponent(info.id)}`,
  });
  const panel = chat.mode === 'none' ? '' : chatPanel(chat);
  return renderPage({
    title: info.title,
    request,
    meta: shareMeta(info, urls),
    body: chat.mode === 'none' ? raw(body) : html`<div class="watch-layout">${raw(body)}${raw(panel)}</div>`,
    styles: ['/assets/watch.css'],
    scripts: [
      ...WATCH_SCRIPTS.map((name) => `/assets/${name}`),
      ...(chat.mode === 'none' ? [] : ['/assets/chat.js']),
    ],
  });
}

function chatPanel(chat: Exclude<WatchChat, { mode: 'none' }>): string {
  const data = JSON.stringify(chat).replace(/</g, '\\u003c');
  const live = chat.mode === 'live';
  const form = !live
    ? ''
    : chat.signedIn
      ? html`<form id="chat-form" class="chat-form" autocomplete="off">
          <label class="visually-hidden" for="chat-input">Message</label>
          <input id="chat-input" name="text" maxlength="500" placeholder="Say something…" required />
          <button type="submit" class="primary">Send</button>
        </form>`
      : html`<p class="chat-signin"><a href="/sign-in">Sign in</a> to chat.</p>`;
  return html`<aside class="chat" aria-labelledby="chat-title">
    <h2 id="chat-title">${live ? 'Live chat' : 'Chat replay'}</h2>
    <p id="chat-state" class="chat-state" aria-live="polite"></p>
    <ol id="chat-messages" class="chat-messages" tabindex="0" aria-label="Chat messages"></ol>
    <button id="chat-jump" type="button" class="chat-jump" hidden>New messages below</button>
    ${form}
    <script id="chat-data" type="application/json">
      ${raw(data)}
    </script>
  </aside>`.toString();
}
