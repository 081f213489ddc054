// A creator's channel: who it is, how many subscribe, the button, then what is live, what is
// coming and the videos.
import type { FastifyRequest } from 'fastify';
import type { Channel } from '../../catalogue/catalogue.service.ts';
import { html, type SafeHtml } from '../html.ts';
import { channelPath, listingSections } from './cards.ts';
import { subscribeBlock, type SubscribeState } from './subscribe-form.ts';

export function channelBody(
  request: FastifyRequest,
  channel: Channel,
  options: { subscribe: SubscribeState; firstPage: boolean; now: number },
): SafeHtml {
  const path = channelPath(channel.creator.id);
  return html`<div class="viewer">
    <header class="channel-header">
      <div>
        <p class="muted">Channel</p>
        <h1 id="channel-name">${channel.creator.name}</h1>
      </div>
      <div class="channel-actions">
        ${subscribeBlock(request, options.subscribe)}
        ${
          options.subscribe.own
            ? ''
            : html`<a
                id="report-channel"
                class="button button-small"
                href="/report?kind=channel&id=${channel.creator.id}"
                >Report channel</a
              >`
        }
      </div>
    </header>
    ${listingSections(channel, {
      showCreator: false,
      now: options.now,
      firstPage: options.firstPage,
      more: channel.nextVideos === null ? null : `${path}?after=${encodeURIComponent(channel.nextVideos)}`,
      newest: path,
    })}
  </div>`;
}
