// Conditional requests and byte ranges of media files (RFC 9110, sections 13 and 14), as
// players and caches use them: a cache revalidates a playlist with If-None-Match and gets a
// 304; a player seeks into a large file with Range and gets a 206. Pure functions over the
// request's headers and the file's validators; whatever a header holds, the answer is one of
// these, never an exception.
import type { IncomingHttpHeaders } from 'node:http';

export interface Validators {
  etag: string;
  mtimeMs: number;
  size: number;
}

/** Whether a GET or HEAD is answered 304 (section 13.2.2: If-None-Match before If-Modified-Since). */
export function notModified(headers: IncomingHttpHeaders, file: Validators): boolean {
  const noneMatch = headers['if-none-match'];
  if (noneMatch !== undefined) return matchesAny(noneMatch, file.etag, 'weak');
  const since = headers['if-modified-since'];
  if (since === undefined) return false;
  const date = Date.parse(since);
  // An invalid date is ignored; HTTP dates have whole seconds, the file's mtime has more.
  return Number.isFinite(date) && Math.floor(file.mtimeMs / 1000) * 1000 <= date;
}

export type RangeAnswer =
  { kind: 'whole' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

const WHOLE: RangeAnswer = { kind: 'whole' };
const UNSATISFIABLE: RangeAnswer = { kind: 'unsatisfiable' };
const SINGLE_RANGE = /^(\d+)-(\d*)$|^-(\d+)$/;

/**
 * What a GET answers for its Range header. A header that is absent, not in bytes, malformed,
 * or stale per If-Range is ignored (the whole file, as section 14.2 allows); several ranges
 * are answered with the whole file too, which section 14.2 permits and spares multipart
 * bodies. A range that starts past the end is unsatisfiable (416).
 */
export function requestedRange(headers: IncomingHttpHeaders, file: Validators): RangeAnswer {
  const range = headers.range;
  if (range === undefined) return WHOLE;
  const ifRange = headers['if-range'];
  if (ifRange !== undefined && (typeof ifRange !== 'string' || !ifRangeHolds(ifRange, file))) return WHOLE;
  const equals = range.indexOf('=');
  if (equals < 0 || range.slice(0, equals).trim().toLowerCase() !== 'bytes') return WHOLE;
  const specs = range
    .slice(equals + 1)
    .split(',')
    .map((spec) => spec.trim())
    .filter((spec) => spec !== '');
  const [spec] = specs;
  if (specs.length !== 1 || spec === undefined) return WHOLE;
  const match = SINGLE_RANGE.exec(spec);
  if (!match) return WHOLE;
  const [, first, last, suffix] = match;
  if (suffix !== undefined) {
    const length = Number(suffix);
    if (length === 0 || file.size === 0) return UNSATISFIABLE;
    return { kind: 'part', start: Math.max(0, file.size - length), end: file.size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? Number.POSITIVE_INFINITY : Number(last);
  if (end < start) return WHOLE; // invalid per section 14.1.1: ignored
  if (start >= file.size) return UNSATISFIABLE;
  return { kind: 'part', start, end: Math.min(end, file.size - 1) };
}

/** If-Range: an entity tag must match strongly; a date must be the file's Last-Modified. */
function ifRangeHolds(value: string, file: Validators): boolean {
  const trimmed = value.trim();
  if (trimmed.startsWith('"') || trimmed.startsWith('W/')) return matchesAny(trimmed, file.etag, 'strong');
  const date = Date.parse(trimmed);
  return Number.isFinite(date) && date === Math.floor(file.mtimeMs / 1000) * 1000;
}

/** An If-None-Match or If-Range list against our (always strong) entity tag. */
function matchesAny(list: string, etag: string, comparison: 'weak' | 'strong'): boolean {
  for (const raw of list.split(',')) {
    const tag = raw.trim();
    if (tag === '*') return comparison === 'weak';
    if (tag.startsWith('W/')) {
      if (comparison === 'weak' && tag.slice(2) === etag) return true;
    } else if (tag === etag) {
      return true;
    }
  }
  return false;
}
