import type { RequestOptions, Transport } from '../http.js';
import type { IngestSettings } from '../types.js';
/** The caller's own channel: where their streaming software publishes, across broadcasts. */
export declare class Ingest {
    private readonly transport;
    constructor(transport: Transport);
    /** The RTMP server URL and the channel stream key (write-scoped key; created on first read). */
    get(options?: RequestOptions): Promise<IngestSettings>;
    /** Replaces the channel stream key; the old one stops working for new publishes. */
    resetKey(options?: RequestOptions): Promise<IngestSettings>;
}
