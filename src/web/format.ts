// How every page writes dates and categories. One date format everywhere ("26 Nov 2026, 17:21"),
// sent in UTC and said so, inside <time data-local>: app.js rewrites it in the viewer's own time
// zone, with the zone's name, so a page without scripts is still right and a page with them is
// in local time. Dates without a time ("26 Nov 2026") are the same day format.
import { html, type SafeHtml } from './html.ts';

// Written out by hand: Intl's format() cost 3% of a page's CPU (a card has two dates). The month
// names are Intl's own (en-GB writes September "Sept"), read once; format.test.ts checks the
// output against Intl's.
const MONTHS = Array.from({ length: 12 }, (_, month) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', month: 'short' }).format(Date.UTC(2026, month, 15)),
);
const twoDigits = (value: number) => (value < 10 ? `0${value}` : String(value));

/** "26 Nov 2026, 17:21 UTC"; "—" for none. */
export function formatTime(ms: number | null): string {
  if (ms === null) return '—';
  const date = new Date(ms);
  return `${formatDay(ms)}, ${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())} UTC`;
}

/** "26 Nov 2026" (UTC). */
export function formatDay(ms: number): string {
  const date = new Date(ms);
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()] ?? ''} ${date.getUTCFullYear()}`;
}

export function isoTime(ms: number | null): string | undefined {
  return ms === null ? undefined : new Date(ms).toISOString();
}

/** A date and time the viewer's browser shows in their time zone (public/app.js). */
export function localTime(ms: number | null): SafeHtml {
  if (ms === null) return html`—`;
  return html`<time datetime="${isoTime(ms)}" data-local="datetime">${formatTime(ms)}</time>`;
}

/** A day the viewer's browser shows in their time zone (public/app.js). */
export function localDay(ms: number): SafeHtml {
  return html`<time datetime="${isoTime(ms)}" data-local="day">${formatDay(ms)}</time>`;
}

/** "just-chatting" -> "Just chatting": the name a person reads, never the slug. */
export function categoryLabel(slug: string): string {
  const words = slug.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
