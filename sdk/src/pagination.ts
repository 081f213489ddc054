// A list call: awaited, it is the first page; iterated with `for await`, it is every item of
// every page, fetched one page at a time as the loop needs them.

export interface Page<T> {
  data: T[];
  pagination: { next_cursor: string | null; has_more: boolean };
}

export class PageIterator<T> implements AsyncIterable<T>, PromiseLike<Page<T>> {
  private readonly fetchPage: (cursor: string | undefined) => Promise<Page<T>>;
  private readonly startCursor: string | undefined;

  constructor(fetchPage: (cursor: string | undefined) => Promise<Page<T>>, startCursor?: string) {
    this.fetchPage = fetchPage;
    this.startCursor = startCursor;
  }

  // The request is made when awaited or iterated, not when list() is called.
  then<A = Page<T>, B = never>(
    onFulfilled?: ((page: Page<T>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.fetchPage(this.startCursor).then(onFulfilled, onRejected);
  }

  /** Every page in turn, starting with the first. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let cursor = this.startCursor;
    for (;;) {
      const page = await this.fetchPage(cursor);
      yield page;
      const next = page.pagination.next_cursor;
      if (!page.pagination.has_more || next === null) return;
      cursor = next;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** Collects items into an array, stopping after `max` (all of them unless given). */
  async toArray(max = Infinity): Promise<T[]> {
    const items: T[] = [];
    if (max <= 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= max) break;
    }
    return items;
  }
}
