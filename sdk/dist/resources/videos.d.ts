import type { RequestOptions, Transport } from '../http.js';
import { PageIterator } from '../pagination.js';
import type { ListVideosParams, Video, VideoListItem } from '../types.js';
export declare class Videos {
    private readonly transport;
    constructor(transport: Transport);
    /** Published videos, newest first: await it for one page, or `for await` over every video. */
    list(params?: ListVideosParams, options?: RequestOptions): PageIterator<VideoListItem>;
    get(id: string, options?: RequestOptions): Promise<Video>;
}
