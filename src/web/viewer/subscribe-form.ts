// The Subscribe / Unsubscribe button: a plain form POST with the CSRF token, which
// public/subscribe.js turns into a request without reload. Visitors get a sign-in link; a
// creator on their own channel gets no button.
import type { FastifyRequest } from 'fastify';
import { html, type SafeHtml } from '../html.ts';
import { csrfField } from '../session/csrf.ts';
import { channelPath } from './cards.ts';
import { count } from './format.ts';

export interface SubscribeState {
  creatorId: string;
  subscribers: number;
  /** null for a visitor. */
  subscribed: boolean | null;
  own: boolean;
  /** Where the form comes back to (a same-origin path). */
  back: string;
  /** Subscribed: whether the channel going live mails the viewer (the channel page's setting). */
  notifyLive?: boolean | undefined;
}

export function subscriberCount(subscribers: number): string {
  return count(subscribers, 'subscriber', 'subscribers');
}

export function subscribeBlock(request: FastifyRequest, state: SubscribeState): SafeHtml {
  const counter = html`<p class="subscriber-count" data-subscriber-count aria-live="polite">
    ${subscriberCount(state.subscribers)}
  </p>`;
  if (state.own)
    return html`<div class="subscribe">
      ${counter}
      <p class="muted">This is your channel.</p>
    </div>`;
  if (state.subscribed === null) {
    return html`<div class="subscribe">
      ${counter}<a class="button primary" href="/sign-in?next=${encodeURIComponent(state.back)}"
        >Sign in to subscribe</a
      >
    </div>`;
  }
  const action = state.subscribed ? 'unsubscribe' : 'subscribe';
  return html`<div class="subscribe">
    ${counter}
    <form class="subscribe-form" method="post" action="${channelPath(state.creatorId)}/${action}">
      ${csrfField(request)}<input type="hidden" name="next" value="${state.back}" />
      <button
        type="submit"
        class="button${state.subscribed ? '' : ' primary'}"
        data-subscribed="${String(state.subscribed)}"
      >
        ${state.subscribed ? 'Unsubscribe' : 'Subscribe'}
      </button>
    </form>
    ${state.subscribed && state.notifyLive !== undefined ? notifyForm(request, state) : undefined}
  </div>`;
}

/** The per-subscription setting: mail me when this channel goes live. */
function notifyForm(request: FastifyRequest, state: SubscribeState): SafeHtml {
  const on = state.notifyLive === true;
  return html`<form class="notify-form" method="post" action="${channelPath(state.creatorId)}/notifications">
    ${csrfField(request)}<input type="hidden" name="notify" value="${on ? 'off' : 'on'}" />
    <p class="muted" id="notify-state">
      ${on ? 'You get a mail when this channel goes live.' : 'Go-live mails are off for this channel.'}
    </p>
    <button type="submit" class="button" aria-describedby="notify-state">
      ${on ? 'Stop go-live mails' : 'Mail me when it goes live'}
    </button>
  </form>`;
}
