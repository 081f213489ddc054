// A list call: awaited, it is the first page; iterated with `for await`, it is every item of
// every page, fetched one page at a time as the loop needs them.
export class PageIterator {
    fetchPage;
    startCursor;
    constructor(fetchPage, startCursor) {
        this.fetchPage = fetchPage;
        this.startCursor = startCursor;
    }
    // The request is made when awaited or iterated, not when list() is called.
    then(onFulfilled, onRejected) {
        return this.fetchPage(this.startCursor).then(onFulfilled, onRejected);
    }
    /** Every page in turn, starting with the first. */
    async *pages() {
        let cursor = this.startCursor;
        for (;;) {
            const page = await this.fetchPage(cursor);
            yield page;
            const next = page.pagination.next_cursor;
            if (!page.pagination.has_more || next === null)
                return;
            cursor = next;
        }
    }
    async *[Symbol.asyncIterator]() {
        for await (const page of this.pages())
            yield* page.data;
    }
    /** Collects items into an array, stopping after `max` (all of them unless given). */
    async toArray(max = Infinity) {
        const items = [];
        if (max <= 0)
            return items;
        for await (const item of this) {
            items.push(item);
            if (items.length >= max)
                break;
        }
        return items;
    }
}
