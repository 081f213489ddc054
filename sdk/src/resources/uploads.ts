import type { RequestOptions, Transport } from '../http.js';
import { PageIterator } from '../pagination.js';
import type { CreateUploadParams, ListUploadsParams, Upload } from '../types.js';

/**
 * Uploads by their API calls. `client.uploadFile` does all of it (create, send the bytes with
 * tus, wait); these are for a program that sends the bytes itself or checks on an upload.
 */
export class Uploads {
  private readonly transport: Transport;
  constructor(transport: Transport) {
    this.transport = transport;
  }

  /**
   * Declares a file (`size` in bytes) and its video; the answer's `upload_url` is the tus
   * resource to send exactly that many bytes to. Retried with one Idempotency-Key.
   */
  create(params: CreateUploadParams, options?: RequestOptions): Promise<Upload> {
    return this.transport.call('createUpload', { body: params, retry: 'keyed' }, options);
  }

  /** An upload's status, bytes received, progress and, once ready, its `video_id`. */
  get(id: string, options?: RequestOptions): Promise<Upload> {
    return this.transport.call('getUpload', { path: [id] }, options);
  }

  /** The account's uploads, newest first: await it for one page, or `for await` over all. */
  list(params: ListUploadsParams = {}, options?: RequestOptions): PageIterator<Upload> {
    return new PageIterator(
      (cursor) => this.transport.call('listUploads', { query: { ...params, cursor } }, options),
      params.cursor,
    );
  }

  /** Cancels an upload still waiting for or receiving bytes; its bytes are removed. */
  cancel(id: string, options?: RequestOptions): Promise<Upload> {
    return this.transport.call('cancelUpload', { path: [id] }, options);
  }
}
