import type { RequestOptions, Transport } from '../http.js';
import type {
  CreateSimulcastTargetParams,
  DeletedSimulcastTarget,
  SimulcastTarget,
  SimulcastTargetList,
  UpdateSimulcastTargetParams,
} from '../types.js';

/**
 * The caller's default simulcast destinations: every stream created afterwards starts with a
 * copy of each (at most 5). Write-scoped key.
 */
export class SimulcastDefaults {
  private readonly transport: Transport;
  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** Adds a default destination; the key is stored sealed and never returned. Retried with one Idempotency-Key. */
  create(params: CreateSimulcastTargetParams, options?: RequestOptions): Promise<SimulcastTarget> {
    return this.transport.call('createSimulcastDefault', { body: params, retry: 'keyed' }, options);
  }

  list(options?: RequestOptions): Promise<SimulcastTargetList> {
    return this.transport.call('listSimulcastDefaults', {}, options);
  }

  get(targetId: string, options?: RequestOptions): Promise<SimulcastTarget> {
    return this.transport.call('getSimulcastDefault', { path: [targetId] }, options);
  }

  /** Changes the fields given (`name: null` clears it); streams created before are not changed. */
  update(
    targetId: string,
    params: UpdateSimulcastTargetParams,
    options?: RequestOptions,
  ): Promise<SimulcastTarget> {
    return this.transport.call('updateSimulcastDefault', { path: [targetId], body: params }, options);
  }

  delete(targetId: string, options?: RequestOptions): Promise<DeletedSimulcastTarget> {
    return this.transport.call('deleteSimulcastDefault', { path: [targetId] }, options);
  }
}

/**
 * A stream's simulcast destinations: other platforms (YouTube, Twitch, any RTMP or RTMPS URL with
 * a key) the stream is sent on to, by stream copy, while it is live; at most 5 per stream.
 * Changes to a live stream's destinations take effect at its next publish. Write-scoped key.
 */
export class Simulcast {
  private readonly transport: Transport;
  /** The defaults copied into every new stream. */
  readonly defaults: SimulcastDefaults;

  constructor(transport: Transport) {
    this.transport = transport;
    this.defaults = new SimulcastDefaults(transport);
  }

  /** Adds a destination to the stream; the key is stored sealed and never returned. Retried with one Idempotency-Key. */
  create(
    streamId: string,
    params: CreateSimulcastTargetParams,
    options?: RequestOptions,
  ): Promise<SimulcastTarget> {
    return this.transport.call(
      'createStreamSimulcastTarget',
      { path: [streamId], body: params, retry: 'keyed' },
      options,
    );
  }

  /** The stream's destinations with their states, oldest first. */
  list(streamId: string, options?: RequestOptions): Promise<SimulcastTargetList> {
    return this.transport.call('listStreamSimulcastTargets', { path: [streamId] }, options);
  }

  get(streamId: string, targetId: string, options?: RequestOptions): Promise<SimulcastTarget> {
    return this.transport.call('getStreamSimulcastTarget', { path: [streamId, targetId] }, options);
  }

  /** Changes the fields given (`name: null` clears it). */
  update(
    streamId: string,
    targetId: string,
    params: UpdateSimulcastTargetParams,
    options?: RequestOptions,
  ): Promise<SimulcastTarget> {
    return this.transport.call(
      'updateStreamSimulcastTarget',
      { path: [streamId, targetId], body: params },
      options,
    );
  }

  delete(streamId: string, targetId: string, options?: RequestOptions): Promise<DeletedSimulcastTarget> {
    return this.transport.call('deleteStreamSimulcastTarget', { path: [streamId, targetId] }, options);
  }
}
