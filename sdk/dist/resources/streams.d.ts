import type { RequestOptions, Transport } from '../http.js';
import { PageIterator } from '../pagination.js';
import type { CreateStreamParams, DeletedStream, ListStreamsParams, Stream, StreamListItem, UpdateStreamParams } from '../types.js';
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
    /**
     * Changes the fields given (creator only). Title, description, category and privacy change at
     * any time; `scheduled_at` and `latency_mode` only before the stream goes live (else a 409).
     */
    update(id: string, params: UpdateStreamParams, options?: RequestOptions): Promise<Stream>;
    /** Deletes a stream that is not live, for good; videos recorded from it stay. */
    delete(id: string, options?: RequestOptions): Promise<DeletedStream>;
    /** Ends a live stream: its encoder is disconnected and its recording published as usual. */
    end(id: string, options?: RequestOptions): Promise<Stream>;
}
