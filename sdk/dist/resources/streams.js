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
}
