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
    /** Changes the fields given of a published video (creator only); tags and chapters are replaced. */
    update(id, params, options) {
        return this.transport.call('updateVideo', { path: [id], body: params }, options);
    }
    /** Deletes a published video and its media for good; its URLs answer 404 from then on. */
    delete(id, options) {
        return this.transport.call('deleteVideo', { path: [id] }, options);
    }
}
