export interface Page<T> {
    data: T[];
    pagination: {
        next_cursor: string | null;
        has_more: boolean;
    };
}
export declare class PageIterator<T> implements AsyncIterable<T>, PromiseLike<Page<T>> {
    private readonly fetchPage;
    private readonly startCursor;
    constructor(fetchPage: (cursor: string | undefined) => Promise<Page<T>>, startCursor?: string);
    then<A = Page<T>, B = never>(onFulfilled?: ((page: Page<T>) => A | PromiseLike<A>) | null, onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B>;
    /** Every page in turn, starting with the first. */
    pages(): AsyncGenerator<Page<T>, void, undefined>;
    [Symbol.asyncIterator](): AsyncGenerator<T, void, undefined>;
    /** Collects items into an array, stopping after `max` (all of them unless given). */
    toArray(max?: number): Promise<T[]>;
}
