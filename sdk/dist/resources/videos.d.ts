import type { RequestOptions, Transport } from '../http.js';
import { PageIterator } from '../pagination.js';
import type { DeletedVideo, ListVideosParams, UpdateVideoParams, Video, VideoListItem } from '../types.js';
export declare class Videos {
    private readonly transport;
    constructor(transport: Transport);
    /** Published videos, newest first: await it for one page, or `for await` over every video. */
    list(params?: ListVideosParams, options?: RequestOptions): PageIterator<VideoListItem>;
    get(id: string, options?: RequestOptions): Promise<Video>;
    /** Changes the fields given of a published video (creator only); tags and chapters are replaced. */
    update(id: string, params: UpdateVideoParams, options?: RequestOptions): Promise<Video>;
    /** Deletes a published video and its media for good; its URLs answer 404 from then on. */
    delete(id: string, options?: RequestOptions): Promise<DeletedVideo>;
}
