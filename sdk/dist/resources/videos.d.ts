import type { RequestOptions, Transport } from '../http.ts';
import { PageIterator } from '../pagination.ts';
import type { ListVideosParams, Video, VideoListItem } from '../types.ts';
export declare class Videos {
    private readonly transport;
    constructor(transport: Transport);
    /** Published videos, newest first: await it for one page, or `for await` over every video. */
    list(params?: ListVideosParams, options?: RequestOptions): PageIterator<VideoListItem>;
    get(id: string, options?: RequestOptions): Promise<Video>;
}
