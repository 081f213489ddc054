// A person's small round picture beside their name: their avatar (src/profiles/, served by
// profileImageRoutes) when they have one, otherwise their initial on a circle whose colour comes
// from their id (so a creator keeps one colour everywhere). Decorative: the name beside it says
// who it is. Sizes are classes, not style attributes (the pages' CSP allows no inline style);
// the width and height attributes keep the layout still while the image loads.
import { html, type SafeHtml } from './html.ts';

/** The avatar sizes pages use, in CSS pixels (each has its class in app.css). */
export type AvatarSize = 24 | 28 | 32;

/** How many placeholder colours app.css defines (.avatar-tone-0 …). */
const TONES = 6;

/** The first letter of a name, upper-cased; '?' for a blank one. */
export function initialOf(name: string): string {
  return (Array.from(name.trim())[0] ?? '?').toUpperCase();
}

/** The placeholder colour of a user: the same for the same id, on every page. */
export function toneOf(id: string): number {
  let hash = 0;
  for (let i = 0; i < id.length; i++) hash = (hash * 31 + id.charCodeAt(i)) >>> 0;
  return hash % TONES;
}

export function avatar(
  person: { id: string; name: string; avatar: string | null },
  size: AvatarSize,
  options: { lazy?: boolean } = {},
): SafeHtml {
  const classes = `avatar avatar-${size}`;
  if (person.avatar === null) {
    return html`<span class="${classes} avatar-initial avatar-tone-${toneOf(person.id)}" aria-hidden="true"
      >${initialOf(person.name)}</span
    >`;
  }
  // The 64 px file serves every size here (sharp on a 2x screen up to 32 px). Should it fail to
  // load (a file removed since), public/app.js puts the placeholder in its place.
  return html`<img
    class="${classes}"
    src="${person.avatar}"
    alt=""
    width="${size}"
    height="${size}"
    ${options.lazy === false ? null : html`loading="lazy"`}
    decoding="async"
    data-initial="${initialOf(person.name)}"
    data-tone="${toneOf(person.id)}"
  />`;
}
