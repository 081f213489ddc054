import type { RequestOptions, Transport } from '../http.js';
import type { CreateSimulcastTargetParams, DeletedSimulcastTarget, SimulcastTarget, SimulcastTargetList, UpdateSimulcastTargetParams } from '../types.js';
/**
 * The caller's default simulcast destinations: every stream created afterwards starts with a
 * copy of each (at most 5). Write-scoped key.
 */
export declare class SimulcastDefaults {
    private readonly transport;
    constructor(transport: Transport);
    /** Adds a default destination; the key is stored sealed and never returned. Retried with one Idempotency-Key. */
    create(params: CreateSimulcastTargetParams, options?: RequestOptions): Promise<SimulcastTarget>;
    list(options?: RequestOptions): Promise<SimulcastTargetList>;
    get(targetId: string, options?: RequestOptions): Promise<SimulcastTarget>;
    /** Changes the fields given (`name: null` clears it); streams created before are not changed. */
    update(targetId: string, params: UpdateSimulcastTargetParams, options?: RequestOptions): Promise<SimulcastTarget>;
    delete(targetId: string, options?: RequestOptions): Promise<DeletedSimulcastTarget>;
}
/**
 * A stream's simulcast destinations: other platforms (YouTube, Twitch, any RTMP or RTMPS URL with
 * a key) the stream is sent on to, by stream copy, while it is live; at most 5 per stream.
 * Changes to a live stream's destinations take effect at its next publish. Write-scoped key.
 */
export declare class Simulcast {
    private readonly transport;
    /** The defaults copied into every new stream. */
    readonly defaults: SimulcastDefaults;
    constructor(transport: Transport);
    /** Adds a destination to the stream; the key is stored sealed and never returned. Retried with one Idempotency-Key. */
    create(streamId: string, params: CreateSimulcastTargetParams, options?: RequestOptions): Promise<SimulcastTarget>;
    /** The stream's destinations with their states, oldest first. */
    list(streamId: string, options?: RequestOptions): Promise<SimulcastTargetList>;
    get(streamId: string, targetId: string, options?: RequestOptions): Promise<SimulcastTarget>;
    /** Changes the fields given (`name: null` clears it). */
    update(streamId: string, targetId: string, params: UpdateSimulcastTargetParams, options?: RequestOptions): Promise<SimulcastTarget>;
    delete(streamId: string, targetId: string, options?: RequestOptions): Promise<DeletedSimulcastTarget>;
}
