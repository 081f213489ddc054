/** Time comes from a clock passed in, so tests can fix or advance it. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function toIso(ms: number): string;
export function toIso(ms: number | null): string | null;
export function toIso(ms: number | null): string | null {
  if (ms === null) return null;
  // Every timestamp of every list item goes through here; Date#toISOString was a tenth of a
  // page's CPU time. Outside 1970-9999 the exact formatting matters more than speed.
  if (ms < 0 || ms >= MAX_FAST_MS || !Number.isInteger(ms)) return new Date(ms).toISOString();
  return formatUtc(ms);
}

const DAY_MS = 86_400_000;
const MAX_FAST_MS = 253_402_300_800_000; // 10000-01-01T00:00:00.000Z

// Digits come from tables rather than number-to-string conversions, and the date part of
// the last day formatted is kept: the items of a page are mostly from the same few days.
const TWO_DIGITS = Array.from({ length: 100 }, (_, value) => String(value).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, value) => String(value).padStart(3, '0'));
let lastDay = Number.NaN;
let lastDayPrefix = '';

/** `YYYY-MM-DDTHH:mm:ss.sssZ` from epoch milliseconds in years 1970-9999. */
function formatUtc(ms: number): string {
  const days = Math.floor(ms / DAY_MS);
  if (days !== lastDay) {
    lastDayPrefix = formatDay(days);
    lastDay = days;
  }
  let rest = ms - days * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  return `${lastDayPrefix}${TWO_DIGITS[hours] as string}:${TWO_DIGITS[minutes] as string}:${TWO_DIGITS[seconds] as string}.${THREE_DIGITS[millis] as string}Z`;
}

/** `YYYY-MM-DDT` of a day since the epoch (Hinnant's days-to-civil algorithm). */
function formatDay(days: number): string {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}-${TWO_DIGITS[month] as string}-${TWO_DIGITS[day] as string}T`;
}
