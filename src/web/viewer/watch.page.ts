// A watch page in the site's layout: its header and navigation, app.css and the player's own
// watch.css, around the media feature's player markup (src/media/watch-page.ts), with the chat
// beside the player (below it on a phone): live on a stream's page, replayed in time with
// playback on a video recorded from a stream (public/chat.js does both).
import type { FastifyRequest } from 'fastify';
import type { ChatMessage } from '../../chat/chat.serializer.ts';
import { renderWatchBody, WATCH_SCRIPTS } from '../../media/watch-page.ts';
import type { WatchInfo } from '../../media/watch.service.ts';
import { html, raw } from '../html.ts';
import { renderPage } from '../layout.ts';
import { channelPath } from './cards.ts';

/** What the chat panel shows: a stream's live room, a video's replay, or nothing. */
export type WatchChat =
  | { mode: 'live'; socket: string; signedIn: boolean }
  | { mode: 'replay'; messages: ChatMessage[] }
  | { mode: 'none' };

export function watchPage(
  request: FastifyRequest,
  info: WatchInfo,
  chat: WatchChat = { mode: 'none' },
): string {
  const body = renderWatchBody(info, {
    info: `/watch/${encodeURIComponent(info.id)}/info`,
    channel: channelPath(info.creator.id),
  });
  const panel = chat.mode === 'none' ? '' : chatPanel(chat);
  return renderPage({
    title: info.title,
    request,
    meta: html`<meta property="og:title" content="${info.title}" />
      ${info.thumbnail_url === null ? '' : html`<meta property="og:image" content="${info.thumbnail_url}" />`}`,
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
