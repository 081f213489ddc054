// How the viewer's pages write numbers and durations; dates and categories as every page writes
// them (../format.ts: one date format, shown in the viewer's time zone).
export { categoryLabel, localDay, localTime } from '../format.ts';

const COUNT = new Intl.NumberFormat('en-GB');

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
