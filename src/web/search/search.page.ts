// The search results page: tabs for all results and each kind, the results as the home page's
// cards, and Previous/Next pages. Nothing is counted (a count reads every match:
// search.repository.ts), so the tabs carry no numbers, the all view's links say "All videos"
// and the pager "Page 2". Also its states without results: nothing typed, nothing searchable
// typed, too long, nothing found, a page past the last.
import type { StreamCard } from '../../catalogue/catalogue.service.ts';
import {
  LAST_PAGE,
  type ChannelResult,
  type SearchKind,
  type SearchResults,
} from '../../search/search.service.ts';
import { avatar } from '../avatar.ts';
import { html, type SafeHtml } from '../html.ts';
import { channelPath, liveCard, upcomingItem, videoCard } from '../viewer/cards.ts';
import { count } from '../viewer/format.ts';

const KIND_LABELS: Record<SearchKind, string> = {
  all: 'All',
  streams: 'Streams',
  videos: 'Videos',
  channels: 'Channels',
};

export function searchPath(text: string, kind: SearchKind = 'all', page = 1): string {
  const query = new URLSearchParams({ q: text });
  if (kind !== 'all') query.set('type', kind);
  if (page > 1) query.set('page', String(page));
  return `/search?${query.toString()}`;
}

function tabs(text: string, results: SearchResults): SafeHtml {
  const tab = (kind: SearchKind) =>
    html`<li>
      <a
        class="chip"
        href="${searchPath(text, kind)}"
        ${kind === results.kind ? html`aria-current="page"` : null}
        >${KIND_LABELS[kind]}</a
      >
    </li>`;
  return html`<nav class="chips search-tabs" aria-label="Result types">
    <ul>
      ${tab('all')}${tab('streams')}${tab('videos')}${tab('channels')}
    </ul>
  </nav>`;
}

function streamList(streams: StreamCard[], now: number): SafeHtml {
  // Live ones come first (the query's order), as cards; upcoming ones as the home page's list.
  const live = streams.filter((stream) => stream.startedAt !== null);
  const upcoming = streams.filter((stream) => stream.startedAt === null);
  return html`${
    live.length === 0
      ? null
      : html`<ul class="card-grid" id="stream-results">
          ${live.map((stream) => liveCard(stream, true))}
        </ul>`
  }${
    upcoming.length === 0
      ? null
      : html`<ul class="upcoming-list" id="upcoming-results">
          ${upcoming.map((stream) => upcomingItem(stream, true, now))}
        </ul>`
  }`;
}

function channelList(channels: ChannelResult[]): SafeHtml {
  return html`<ul class="channel-results" id="channel-results">
    ${channels.map(
      (channel) =>
        html`<li class="channel-result">
          <a href="${channelPath(channel.id)}">${avatar(channel, 32)}<span>${channel.name}</span></a>
          <span class="muted">${count(channel.subscribers, 'subscriber', 'subscribers')}</span>
        </li>`,
    )}
  </ul>`;
}

/** One kind's section: heading with its count, its results, and in the "all" view a link to all. */
function section(
  text: string,
  results: SearchResults,
  kind: Exclude<SearchKind, 'all'>,
  list: SafeHtml,
): SafeHtml | null {
  const { more: beyond, rows } = results[kind];
  if (rows.length === 0) return null;
  const more =
    results.kind === 'all' && beyond
      ? html`<p class="see-all">
          <a href="${searchPath(text, kind)}">All ${KIND_LABELS[kind].toLowerCase()}</a>
        </p>`
      : null;
  return html`<section class="listing" aria-labelledby="${kind}-heading">
    <h2 id="${kind}-heading">${KIND_LABELS[kind]}</h2>
    ${list}${more}
  </section>`;
}

function pager(text: string, results: SearchResults): SafeHtml | null {
  if (results.kind === 'all') return null;
  const { page, kind } = results;
  const next = results[kind].more && page < LAST_PAGE;
  if (page === 1 && !next) return null;
  return html`<nav class="pager" aria-label="Result pages">
    ${page > 1 ? html`<a class="button" rel="prev" href="${searchPath(text, kind, page - 1)}">Previous</a>` : null}
    <span class="muted">Page ${page}</span>
    ${next ? html`<a class="button" rel="next" href="${searchPath(text, kind, page + 1)}">Next</a>` : null}
  </nav>`;
}

/** The results, or why there are none. */
export function searchBody(text: string, results: SearchResults, now: number): SafeHtml {
  const sections = [
    section(text, results, 'streams', streamList(results.streams.rows, now)),
    section(text, results, 'channels', channelList(results.channels.rows)),
    section(
      text,
      results,
      'videos',
      html`<ul class="card-grid" id="video-results">
        ${results.videos.rows.map((video) => videoCard(video, true))}
      </ul>`,
    ),
  ].filter((part) => part !== null);
  let empty: SafeHtml | null = null;
  if (sections.length === 0) {
    if (results.page > 1 && results.kind !== 'all') {
      empty = html`<p class="empty" id="search-empty">
        There are no more results. <a href="${searchPath(text, results.kind)}">Back to the first page</a>.
      </p>`;
    } else if (results.elsewhere) {
      empty = html`<p class="empty" id="search-empty">
        No ${KIND_LABELS[results.kind].toLowerCase()} match “${text}”.
        <a href="${searchPath(text)}">See all results</a>.
      </p>`;
    } else {
      empty = html`<p class="empty" id="search-empty">
        Nothing matches “${text}”. Check the spelling, or try fewer or shorter words: every word must match,
        and a word also finds the longer words it begins.
      </p>`;
    }
  }
  return html`<div class="viewer search-page">
    <h1>Results for “<span id="search-text">${text}</span>”</h1>
    ${tabs(text, results)} ${sections} ${empty} ${pager(text, results)}
  </div>`;
}

/** The page before a search, or after one with nothing to search for (with its reason). */
export function searchPrompt(problem: string | null): SafeHtml {
  return html`<div class="viewer search-page">
    <h1>Search</h1>
    ${
      problem === null
        ? html`<p id="search-empty">
            Find live and upcoming streams, videos and channels by their title, description, tags or creator’s
            name: type in the search box at the top of the page.
          </p>`
        : html`<p class="alert alert-error" id="search-problem" role="alert">${problem}</p>`
    }
  </div>`;
}
