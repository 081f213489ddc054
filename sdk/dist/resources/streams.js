import { PageIterator } from '../pagination.js';
export class Streams {
    transport;
    constructor(transport) {
        this.transport = transport;
    }
    /** Streams, newest first: await it for one page, or `for await` over every stream. */
    list(params = {}, options) {
        return new PageIterator((cursor) => this.transport.call('listStreams', { query: { ...params, cursor } }, options), params.cursor);
    }
    get(id, options) {
        return this.transport.call('getStream', { path: [id] }, options);
    }
    /** Creates a stream; `ingest` holds the RTMP URL and stream key to publish with. */
    create(params, options) {
        return this.transport.call('createStream', { body: params, retry: 'keyed' }, options);
    }
    /** Replaces the stream key (creator only); the old key stops working at once. */
    resetStreamKey(id, options) {
        return this.transport.call('resetStreamKey', { path: [id] }, options);
    }
    /**
     * Changes the fields given (creator only). Title, description, category and privacy change at
     * any time; `scheduled_at` and `latency_mode` only before the stream goes live (else a 409).
     */
    update(id, params, options) {
        return this.transport.call('updateStream', { path: [id], body: params }, options);
    }
    /** Deletes a stream that is not live, for good; videos recorded from it stay. */
    delete(id, options) {
        return this.transport.call('deleteStream', { path: [id] }, options);
    }
    /** Ends a live stream: its encoder is disconnected and its recording published as usual. */
    end(id, options) {
        return this.transport.call('endStream', { path: [id], retry: 'keyed' }, options);
    }
}
