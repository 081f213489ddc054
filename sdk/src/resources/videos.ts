import type { RequestOptions, Transport } from '../http.js';
import { PageIterator } from '../pagination.js';
import type { DeletedVideo, ListVideosParams, UpdateVideoParams, Video, VideoListItem } from '../types.js';

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

  /** Changes the fields given of a published video (creator only); tags and chapters are replaced. */
  update(id: string, params: UpdateVideoParams, options?: RequestOptions): Promise<Video> {
    return this.transport.call('updateVideo', { path: [id], body: params }, options);
  }

  /** Deletes a published video and its media for good; its URLs answer 404 from then on. */
  delete(id: string, options?: RequestOptions): Promise<DeletedVideo> {
    return this.transport.call('deleteVideo', { path: [id] }, options);
  }
}
