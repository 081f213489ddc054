// Opaque, tamper-evident keyset cursors. A cursor carries the sort key of the last item of a
// page and a digest of the filters it was made under, authenticated with an HMAC, so a
// forged, edited or reused-with-other-filters cursor is refused instead of misread.
import { createHash, createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { KeysetPosition } from '../db/keyset.ts';
import { AppError } from '../shared/errors.ts';
import { LruCache } from '../shared/lru.ts';

const PREFIX = 'cur_';
const MAC_BYTES = 16;

export type CursorFilters = Record<string, string | undefined>;

export class CursorCodec {
  // A KeyObject is imported once; handing createHmac a Buffer re-imports it on every call.
  private readonly key: KeyObject;
  constructor(key: Buffer) {
    this.key = createSecretKey(key);
  }

  /** `list` names the endpoint, so a cursor from one list is refused by another. */
  encode(list: string, position: KeysetPosition, filters: CursorFilters): string {
    const payload = Buffer.from(
      JSON.stringify([position.sortKey, position.id, digestFilters(list, filters)]),
    );
    return PREFIX + Buffer.concat([payload, this.mac(payload)]).toString('base64url');
  }

  decode(list: string, cursor: string, filters: CursorFilters): KeysetPosition {
    const invalid = (message: string) => new AppError('invalid_cursor', message, 'cursor');
    if (!cursor.startsWith(PREFIX)) throw invalid('The cursor is not one this API issued.');
    const text = cursor.slice(PREFIX.length);
    const raw = Buffer.from(text, 'base64url');
    // Decoding is lenient (stray characters are skipped), so insist on the exact encoding.
    if (raw.length <= MAC_BYTES || raw.toString('base64url') !== text) {
      throw invalid('The cursor is not one this API issued.');
    }
    const payload = raw.subarray(0, raw.length - MAC_BYTES);
    const mac = raw.subarray(raw.length - MAC_BYTES);
    if (!timingSafeEqual(mac, this.mac(payload))) throw invalid('The cursor is not one this API issued.');
    const [sortKey, id, filterDigest] = JSON.parse(payload.toString()) as [number, string, string];
    if (filterDigest !== digestFilters(list, filters)) {
      throw invalid(
        'The cursor was issued for another list or other filters; repeat the same filters with it.',
      );
    }
    return { sortKey, id };
  }

  private mac(payload: Buffer): Buffer {
    return createHmac('sha256', this.key).update(payload).digest().subarray(0, MAC_BYTES);
  }
}

// Clients repeat the same few lists and filters, so their digests are remembered; the bound
// keeps a client that varies its filters endlessly from growing the cache.
const filterDigests = new LruCache<string, string>(1000);

function digestFilters(list: string, filters: CursorFilters): string {
  const canonical = JSON.stringify([
    list,
    Object.keys(filters)
      .sort()
      .map((name) => [name, filters[name] ?? null]),
  ]);
  let digest = filterDigests.get(canonical);
  if (digest === undefined) {
    digest = createHash('sha256').update(canonical).digest('base64url').slice(0, 12);
    filterDigests.set(canonical, digest);
  }
  return digest;
}

export interface Page<T> {
  data: T[];
  pagination: { next_cursor: string | null; has_more: boolean };
}

/**
 * Builds a page from `limit + 1` rows fetched in order: the extra row only says whether
 * more exist.
 */
export function toPage<Row, Item>(
  rows: Row[],
  limit: number,
  position: (row: Row) => KeysetPosition,
  serialize: (row: Row) => Item,
  nextCursor: (position: KeysetPosition) => string,
): Page<Item> {
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const last = pageRows.at(-1);
  return {
    data: pageRows.map(serialize),
    pagination: {
      next_cursor: hasMore && last !== undefined ? nextCursor(position(last)) : null,
      has_more: hasMore,
    },
  };
}

export interface PageRequest {
  /** The list's name, bound into its cursors. */
  list: string;
  limit: number;
  cursor: string | undefined;
  filters: CursorFilters;
}

/**
 * One keyset page: decodes the cursor (refusing a foreign or tampered one), fetches up to
 * `limit + 1` rows after it, and builds the page with the next cursor.
 */
export async function keysetPage<Row, Item>(
  cursors: CursorCodec,
  request: PageRequest,
  fetchAfter: (after: KeysetPosition | undefined) => Promise<Row[]>,
  position: (row: Row) => KeysetPosition,
  serialize: (row: Row) => Item,
): Promise<Page<Item>> {
  const { list, limit, cursor, filters } = request;
  const after = cursor === undefined ? undefined : cursors.decode(list, cursor, filters);
  return toPage(await fetchAfter(after), limit, position, serialize, (next) =>
    cursors.encode(list, next, filters),
  );
}
