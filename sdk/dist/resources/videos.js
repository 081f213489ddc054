import { PageIterator } from '../pagination.js';
export class Videos {
    transport;
    constructor(transport) {
        this.transport = transport;
    }
    /** Published videos, newest first: await it for one page, or `for await` over every video. */
    list(params = {}, options) {
        return new PageIterator((cursor) => this.transport.call('listVideos', { query: { ...params, cursor } }, options), params.cursor);
    }
    get(id, options) {
        return this.transport.call('getVideo', { path: [id] }, options);
    }
}
