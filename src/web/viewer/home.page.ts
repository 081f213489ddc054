// The home page: live streams first, then upcoming ones, then recent videos, narrowed to one
// category by the chips at the top (plain links, so no script is needed to filter).
import type { Listing } from '../../catalogue/catalogue.service.ts';
import { CATEGORIES } from '../../shared/categories.ts';
import { html, type SafeHtml } from '../html.ts';
import { listingSections } from './cards.ts';
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

export function homeBody(
  listing: Listing,
  options: { category: string | undefined; firstPage: boolean; now: number },
): SafeHtml {
  const { category, firstPage, now } = options;
  return html`<div class="viewer">
    <h1>${category === undefined ? 'Watch live streams and videos' : categoryLabel(category)}</h1>
    ${categoryChips(category)}
    ${listingSections(listing, {
      showCreator: true,
      now,
      firstPage,
      more: listing.nextVideos === null ? null : homePath(category, listing.nextVideos),
      newest: homePath(category),
    })}
  </div>`;
}
