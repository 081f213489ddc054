/** The caller's own channel: where their streaming software publishes, across broadcasts. */
export class Ingest {
    transport;
    constructor(transport) {
        this.transport = transport;
    }
    /** The RTMP server URL and the channel stream key (write-scoped key; created on first read). */
    get(options) {
        return this.transport.call('getIngestSettings', {}, options);
    }
    /** Replaces the channel stream key; the old one stops working for new publishes. */
    resetKey(options) {
        return this.transport.call('resetChannelKey', {}, options);
    }
}
