import type { RequestOptions, Transport } from '../http.js';
import { PageIterator } from '../pagination.js';
import type { ListVideosParams, Video, VideoListItem } from '../types.js';

export class Videos {
  private readonly transport: Transport;
  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** Published videos, newest first: await it for one page, or `for await` over every video. */
  list(params: ListVideosParams = {}, options?: RequestOptions): PageIterator<VideoListItem> {
    return new PageIterator(
      (cursor) => this.transport.call('listVideos', { query: { ...params, cursor } }, options),
      params.cursor,
    );
  }

  get(id: string, options?: RequestOptions): Promise<Video> {
    return this.transport.call('getVideo', { path: [id] }, options);
  }
}
