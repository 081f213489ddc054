// A creator's channel: who it is, how many subscribe, the button, then what is live, what is
// coming and the videos.
import type { FastifyRequest } from 'fastify';
import type { Channel } from '../../catalogue/catalogue.service.ts';
import type { Profile } from '../../profiles/profile.service.ts';
import { initialOf, toneOf } from '../avatar.ts';
import { html, type SafeHtml } from '../html.ts';
import { channelPath, listingSections } from './cards.ts';
import { subscribeBlock, type SubscribeState } from './subscribe-form.ts';

export function channelBody(
  request: FastifyRequest,
  channel: Channel,
  options: { subscribe: SubscribeState; firstPage: boolean; now: number; profile: Profile | undefined },
): SafeHtml {
  const path = channelPath(channel.creator.id);
  const profile = options.profile;
  const banner = profile?.banner.urls ?? null;
  const avatar = profile?.avatar.urls ?? null;
  return html`<div class="viewer">
    ${
      banner === null
        ? null
        : html`<img
            class="channel-banner"
            id="channel-banner"
            src="${banner[1600]}"
            srcset="${banner[800]} 800w, ${banner[1600]} 1600w"
            sizes="(max-width: 72rem) 100vw, 72rem"
            alt=""
            width="1600"
            height="400"
          />`
    }
    <header class="channel-header">
      <div class="channel-who">
        ${
          avatar === null
            ? html`<span
                class="avatar avatar-large avatar-initial avatar-tone-${toneOf(channel.creator.id)}"
                aria-hidden="true"
                >${initialOf(channel.creator.name)}</span
              >`
            : html`<img
                class="avatar avatar-large"
                id="channel-avatar"
                src="${avatar[256]}"
                alt=""
                width="96"
                height="96"
              />`
        }
        <div>
          <p class="muted">Channel</p>
          <h1 id="channel-name">${channel.creator.name}</h1>
        </div>
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
    ${
      profile && (profile.bio !== null || profile.links.length > 0)
        ? html`<section class="channel-about" aria-label="About">
            ${profile.bio === null ? null : html`<p id="channel-bio" class="channel-bio">${profile.bio}</p>`}
            ${
              profile.links.length === 0
                ? null
                : html`<ul class="channel-links" id="channel-links">
                    ${profile.links.map(
                      (link) =>
                        html`<li>
                          <a href="${link}" rel="nofollow noopener ugc" target="_blank">${linkLabel(link)}</a>
                        </li>`,
                    )}
                  </ul>`
            }
          </section>`
        : null
    }
    ${listingSections(channel, {
      showCreator: false,
      now: options.now,
      firstPage: options.firstPage,
      more: channel.nextVideos === null ? null : `${path}?after=${encodeURIComponent(channel.nextVideos)}`,
      newest: path,
    })}
  </div>`;
}

/** A link as its host and path, without the scheme (https://example.com/a → example.com/a). */
function linkLabel(link: string): string {
  const url = new URL(link);
  const rest = `${url.pathname}${url.search}`;
  return `${url.host}${rest === '/' ? '' : rest}`;
}
