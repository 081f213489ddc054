import type { RequestOptions, Transport } from '../http.js';
import { PageIterator } from '../pagination.js';
import type { CreateStreamParams, ListStreamsParams, Stream, StreamListItem } from '../types.js';
export declare class Streams {
    private readonly transport;
    constructor(transport: Transport);
    /** Streams, newest first: await it for one page, or `for await` over every stream. */
    list(params?: ListStreamsParams, options?: RequestOptions): PageIterator<StreamListItem>;
    get(id: string, options?: RequestOptions): Promise<Stream>;
    /** Creates a stream; `ingest` holds the RTMP URL and stream key to publish with. */
    create(params: CreateStreamParams, options?: RequestOptions): Promise<Stream>;
    /** Replaces the stream key (creator only); the old key stops working at once. */
    resetStreamKey(id: string, options?: RequestOptions): Promise<Stream>;
}
