// The pieces the home and channel pages share: stream and video cards, the upcoming list, the
// pager. Cards link to the watch page; the creator's name links to the channel.
import type { CardCreator, Listing, StreamCard, VideoCard } from '../../catalogue/catalogue.service.ts';
import { avatar } from '../avatar.ts';
import { html, type SafeHtml } from '../html.ts';
import { categoryLabel, count, duration, localDay, localTime } from './format.ts';

export function channelPath(creatorId: string): string {
  return `/channels/${encodeURIComponent(creatorId)}`;
}

function watchPath(id: string): string {
  return `/watch/${encodeURIComponent(id)}`;
}

/**
 * A card's picture, or its placeholder while there is none (a live stream before its first
 * thumbnail, a video whose thumbnail could not be made yet): never an image that is not there.
 * Decorative either way: the title next to it says what it shows.
 */
function thumbnail(src: string | null, empty: string): SafeHtml {
  return src === null
    ? html`<span class="thumb-empty" aria-hidden="true"><span class="thumb-empty-text">${empty}</span></span>`
    : html`<img
        class="thumb-img"
        src="${src}"
        alt=""
        width="320"
        height="180"
        loading="lazy"
        decoding="async"
      />`;
}

function byline(creator: CardCreator, showCreator: boolean, category: string): SafeHtml {
  return html`<p class="card-meta">
    ${
      showCreator
        ? html`<a class="card-creator" href="${channelPath(creator.id)}"
              >${avatar(creator, 24)}<span>${creator.name}</span></a
            >
            · `
        : null
    }<span>${categoryLabel(category)}</span>
  </p>`;
}

export function liveCard(stream: StreamCard, showCreator: boolean): SafeHtml {
  return html`<li class="card card-live">
    <a class="card-link" href="${watchPath(stream.id)}"
      ><span class="thumb"
        >${thumbnail(stream.thumbnail, 'Preview soon')} <span class="thumb-badge thumb-live">Live</span
        ><span class="thumb-badge thumb-viewers"
          >${count(stream.viewerCount, 'viewer', 'viewers')}</span
        ></span
      >
      <span class="card-title">${stream.title}</span></a
    >
    ${byline(stream.creator, showCreator, stream.category)}
  </li>`;
}

export function videoCard(video: VideoCard, showCreator: boolean): SafeHtml {
  return html`<li class="card">
    <a class="card-link" href="${watchPath(video.id)}"
      ><span class="thumb"
        >${thumbnail(video.thumbnail, 'No preview')}
        <span class="thumb-badge thumb-duration">${duration(video.durationSeconds)}</span></span
      >
      <span class="card-title">${video.title}</span></a
    >
    ${byline(video.creator, showCreator, video.category)}
    <p class="card-meta muted">${count(video.viewCount, 'view', 'views')} · ${localDay(video.publishedAt)}</p>
  </li>`;
}

export function upcomingItem(stream: StreamCard, showCreator: boolean, now: number): SafeHtml {
  const at = stream.scheduledAt ?? now;
  return html`<li class="upcoming-item">
    <span class="upcoming-when">${at <= now ? 'Starting soon' : localTime(at)}</span>
    <a class="upcoming-title" href="${watchPath(stream.id)}">${stream.title}</a>
    ${byline(stream.creator, showCreator, stream.category)}
  </li>`;
}

/** The three sections of a listing; `more` is the link to the next page of videos. */
export function listingSections(
  listing: Listing,
  options: { showCreator: boolean; now: number; firstPage: boolean; more: string | null; newest: string },
): SafeHtml {
  const { showCreator, now, firstPage, more, newest } = options;
  const live = firstPage
    ? html`<section class="listing" aria-labelledby="live-heading">
        <h2 id="live-heading">Live now</h2>
        ${
          listing.live.length === 0
            ? html`<p class="empty">Nobody is live right now.</p>`
            : html`<ul class="card-grid" id="live-list">
                ${listing.live.map((stream) => liveCard(stream, showCreator))}
              </ul>`
        }
      </section>`
    : null;
  const upcoming =
    firstPage && listing.upcoming.length > 0
      ? html`<section class="listing" aria-labelledby="upcoming-heading">
          <h2 id="upcoming-heading">Upcoming</h2>
          <ul class="upcoming-list" id="upcoming-list">
            ${listing.upcoming.map((stream) => upcomingItem(stream, showCreator, now))}
          </ul>
        </section>`
      : null;
  const videos = html`<section class="listing" aria-labelledby="videos-heading">
    <h2 id="videos-heading">${firstPage ? 'Recent videos' : 'More videos'}</h2>
    ${
      listing.videos.length === 0
        ? html`<p class="empty">No videos yet.</p>`
        : html`<ul class="card-grid" id="video-list">
            ${listing.videos.map((video) => videoCard(video, showCreator))}
          </ul>`
    }
    <nav class="pager" aria-label="Videos pages">
      ${firstPage ? null : html`<a href="${newest}">Newest videos</a>`}${
        more === null
          ? null
          : html`<a class="button button-secondary" rel="next" href="${more}">More videos</a>`
      }
    </nav>
  </section>`;
  return html`${live}${upcoming}${videos}`;
}
