// Lists are read a page at a time by keyset: newest first by (sort key, id), each page after
// the last item of the one before. Repositories query by it and HTTP carries it in cursors,
// so it lives below both.

/** The position after which the next page starts: the last item's sort key. */
export interface KeysetPosition {
  sortKey: number;
  id: string;
}
