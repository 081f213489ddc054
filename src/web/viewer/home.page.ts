// The home page: live streams first, then upcoming ones, then recent videos, narrowed to one
// category by the chips at the top (plain links, so no script is needed to filter).
import type { Following, Listing } from '../../catalogue/catalogue.service.ts';
import { CATEGORIES } from '../../shared/categories.ts';
import { html, type SafeHtml } from '../html.ts';
import { listingSections, liveCard, videoCard } from './cards.ts';
import { categoryLabel } from './format.ts';

function homePath(category: string | undefined, after?: string): string {
  const query = new URLSearchParams();
  if (category !== undefined) query.set('category', category);
  if (after !== undefined) query.set('after', after);
  const text = query.toString();
  return text === '' ? '/' : `/?${text}`;
}

function categoryChips(selected: string | undefined): SafeHtml {
  const chip = (slug: string | undefined, label: string) =>
    html`<li>
      <a class="chip" href="${homePath(slug)}" ${slug === selected ? html` aria-current="page"` : null}
        >${label}</a
      >
    </li>`;
  return html`<nav class="chips" aria-label="Categories">
    <ul>
      ${chip(undefined, 'All')}${CATEGORIES.map((slug) => chip(slug, categoryLabel(slug)))}
    </ul>
  </nav>`;
}

/**
 * The signed-in viewer's feed at the top of the home page: what the channels they subscribe to
 * have live and their newest videos. Nothing when those channels have neither.
 */
export function followingSection(following: Following): SafeHtml | null {
  if (following.live.length === 0 && following.videos.length === 0) return null;
  return html`<section class="listing following" id="following" aria-labelledby="following-heading">
    <h2 id="following-heading">From channels you follow</h2>
    ${
      following.live.length === 0
        ? null
        : html`<h3 class="following-kind">Live now</h3>
            <ul class="card-grid" id="following-live">
              ${following.live.map((stream) => liveCard(stream, true))}
            </ul>`
    }
    ${
      following.videos.length === 0
        ? null
        : html`<h3 class="following-kind">Recent videos</h3>
            <ul class="card-grid" id="following-videos">
              ${following.videos.map((video) => videoCard(video, true))}
            </ul>`
    }
  </section>`;
}

/** The page around the listing: its heading, then the viewer's feed, then the shared part. */
export function homePage(
  category: string | undefined,
  following: SafeHtml | null,
  listing: SafeHtml,
): SafeHtml {
  return html`<div class="viewer">
    <h1>${category === undefined ? 'Watch live streams and videos' : categoryLabel(category)}</h1>
    ${following}${listing}
  </div>`;
}

/** The listing's part of the home page, the same for every visitor (and cached so). */
export function homeBody(
  listing: Listing,
  options: { category: string | undefined; firstPage: boolean; now: number },
): SafeHtml {
  const { category, firstPage, now } = options;
  return html`${categoryChips(category)}
  ${listingSections(listing, {
    showCreator: true,
    now,
    firstPage,
    more: listing.nextVideos === null ? null : homePath(category, listing.nextVideos),
    newest: homePath(category),
  })}`;
}
