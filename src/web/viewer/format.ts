// How the viewer's pages write numbers, durations, dates and categories. Dates are in UTC: the
// server does not know the visitor's time zone, and saying so beats guessing.
const COUNT = new Intl.NumberFormat('en-GB');
const WHEN = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});
const DAY = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});

export function count(value: number, one: string, many: string): string {
  return `${COUNT.format(value)} ${value === 1 ? one : many}`;
}

/** 75 -> "1:15", 3725 -> "1:02:05". */
export function duration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

export function when(at: number): string {
  return `${WHEN.format(at)} UTC`;
}

export function day(at: number): string {
  return DAY.format(at);
}

export function isoDate(at: number): string {
  return new Date(at).toISOString();
}

/** "just-chatting" -> "Just chatting". */
export function categoryLabel(slug: string): string {
  const words = slug.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
