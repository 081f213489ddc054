/**
 * The caller's default simulcast destinations: every stream created afterwards starts with a
 * copy of each (at most 5). Write-scoped key.
 */
export class SimulcastDefaults {
    transport;
    constructor(transport) {
        this.transport = transport;
    }
    /** Adds a default destination; the key is stored sealed and never returned. Retried with one Idempotency-Key. */
    create(params, options) {
        return this.transport.call('createSimulcastDefault', { body: params, retry: 'keyed' }, options);
    }
    list(options) {
        return this.transport.call('listSimulcastDefaults', {}, options);
    }
    get(targetId, options) {
        return this.transport.call('getSimulcastDefault', { path: [targetId] }, options);
    }
    /** Changes the fields given (`name: null` clears it); streams created before are not changed. */
    update(targetId, params, options) {
        return this.transport.call('updateSimulcastDefault', { path: [targetId], body: params }, options);
    }
    delete(targetId, options) {
        return this.transport.call('deleteSimulcastDefault', { path: [targetId] }, options);
    }
}
/**
 * A stream's simulcast destinations: other platforms (YouTube, Twitch, any RTMP or RTMPS URL with
 * a key) the stream is sent on to, by stream copy, while it is live; at most 5 per stream.
 * Changes to a live stream's destinations take effect at its next publish. Write-scoped key.
 */
export class Simulcast {
    transport;
    /** The defaults copied into every new stream. */
    defaults;
    constructor(transport) {
        this.transport = transport;
        this.defaults = new SimulcastDefaults(transport);
    }
    /** Adds a destination to the stream; the key is stored sealed and never returned. Retried with one Idempotency-Key. */
    create(streamId, params, options) {
        return this.transport.call('createStreamSimulcastTarget', { path: [streamId], body: params, retry: 'keyed' }, options);
    }
    /** The stream's destinations with their states, oldest first. */
    list(streamId, options) {
        return this.transport.call('listStreamSimulcastTargets', { path: [streamId] }, options);
    }
    get(streamId, targetId, options) {
        return this.transport.call('getStreamSimulcastTarget', { path: [streamId, targetId] }, options);
    }
    /** Changes the fields given (`name: null` clears it). */
    update(streamId, targetId, params, options) {
        return this.transport.call('updateStreamSimulcastTarget', { path: [streamId, targetId], body: params }, options);
    }
    delete(streamId, targetId, options) {
        return this.transport.call('deleteStreamSimulcastTarget', { path: [streamId, targetId] }, options);
    }
}
