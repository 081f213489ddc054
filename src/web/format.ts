// How every page writes dates and categories. One date format everywhere ("26 Nov 2026, 17:21"),
// sent in UTC and said so, inside <time data-local>: app.js rewrites it in the viewer's own time
// zone, with the zone's name, so a page without scripts is still right and a page with them is
// in local time. Dates without a time ("26 Nov 2026") are the same day format.
import { html, type SafeHtml } from './html.ts';

const DATE_TIME = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const DAY = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});

/** "26 Nov 2026, 17:21 UTC"; "—" for none. */
export function formatTime(ms: number | null): string {
  return ms === null ? '—' : `${DATE_TIME.format(ms)} UTC`;
}

/** "26 Nov 2026" (UTC). */
export function formatDay(ms: number): string {
  return DAY.format(ms);
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
