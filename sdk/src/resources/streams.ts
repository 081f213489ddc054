import type { RequestOptions, Transport } from '../http.js';
import { PageIterator } from '../pagination.js';
import type { CreateStreamParams, ListStreamsParams, Stream, StreamListItem } from '../types.js';

export class Streams {
  private readonly transport: Transport;
  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** Streams, newest first: await it for one page, or `for await` over every stream. */
  list(params: ListStreamsParams = {}, options?: RequestOptions): PageIterator<StreamListItem> {
    return new PageIterator(
      (cursor) => this.transport.call('listStreams', { query: { ...params, cursor } }, options),
      params.cursor,
    );
  }

  get(id: string, options?: RequestOptions): Promise<Stream> {
    return this.transport.call('getStream', { path: [id] }, options);
  }

  /** Creates a stream; `ingest` holds the RTMP URL and stream key to publish with. */
  create(params: CreateStreamParams, options?: RequestOptions): Promise<Stream> {
    return this.transport.call('createStream', { body: params, retry: 'keyed' }, options);
  }

  /** Replaces the stream key (creator only); the old key stops working at once. */
  resetStreamKey(id: string, options?: RequestOptions): Promise<Stream> {
    return this.transport.call('resetStreamKey', { path: [id] }, options);
  }
}
