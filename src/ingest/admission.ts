// Who may publish. A key of a scheduled (standby) or live stream may; an unknown key, an ended
// stream's key, another application name or a second publisher is refused at once with a
// reason the encoder shows, and changes nothing. An address that keeps trying unknown keys is
// locked out for a while (penalty-box.ts) and refused without a database lookup.
import type { Logger } from 'pino';
import type { StreamService } from '../streams/stream.service.ts';
import type { StreamRow } from '../streams/stream.table.ts';
import type { PenaltyBox } from './penalty-box.ts';
import type { PublishConnection } from './rtmp-server.ts';
import type { StreamLifecycle } from './stream-lifecycle.ts';

/** The RTMP application name in the ingest URL (rtmp://host:port/live). */
export const INGEST_APP = 'live';

export interface AdmissionDeps {
  streams: StreamService;
  logger: Logger;
  penalties: PenaltyBox;
  /** Knows which streams are publishing, finishing, or shutting down. */
  lifecycle: Pick<StreamLifecycle, 'closing' | 'state'>;
}

interface Refusal {
  reason: string;
  message: string;
}

export class Admission {
  private readonly deps: AdmissionDeps;

  constructor(deps: AdmissionDeps) {
    this.deps = deps;
  }

  /**
   * Decides asynchronously (the RTMP server buffers the publisher meanwhile) and either
   * rejects `connection` or hands the stream to `admitted`, in the same step as the last
   * check, so two publishers of one key cannot both get through.
   */
  handle(connection: PublishConnection, admitted: (stream: StreamRow) => void): void {
    void this.admit(connection, admitted).catch((error: unknown) => {
      this.deps.logger.error({ err: error }, 'could not admit a publisher');
      connection.reject('The server could not start the stream.');
    });
  }

  private async admit(connection: PublishConnection, admitted: (stream: StreamRow) => void): Promise<void> {
    const { penalties, lifecycle } = this.deps;
    // An address locked out for guessing keys is refused without a database lookup.
    const lockedForMs = penalties.lockedFor(connection.remoteAddress);
    const stream =
      lifecycle.closing || connection.app !== INGEST_APP || lockedForMs > 0
        ? undefined
        : await this.deps.streams.findByStreamKey(connection.streamKey);
    if (connection.closed) return;
    // From here on nothing awaits.
    const refusal = this.refusal(connection, stream, lockedForMs);
    if (refusal) {
      if (refusal.reason === 'unknown_key') penalties.recordFailure(connection.remoteAddress);
      this.deps.logger.info(
        { streamId: stream?.id, remote: connection.remoteAddress, reason: refusal.reason },
        'publish refused',
      );
      connection.reject(refusal.message);
      return;
    }
    if (stream) admitted(stream);
  }

  private refusal(
    connection: PublishConnection,
    stream: StreamRow | undefined,
    lockedForMs: number,
  ): Refusal | undefined {
    if (this.deps.lifecycle.closing) {
      return { reason: 'shutting_down', message: 'The server is shutting down.' };
    }
    if (lockedForMs > 0) {
      return {
        reason: 'too_many_unknown_keys',
        message: `Too many invalid stream keys from this address; try again in ${Math.ceil(lockedForMs / 1000)} s.`,
      };
    }
    if (connection.app !== INGEST_APP) {
      return {
        reason: 'unknown_app',
        message: `Publish to rtmp://<host>:<port>/${INGEST_APP} with the stream key.`,
      };
    }
    if (!stream) return { reason: 'unknown_key', message: 'The stream key is not valid.' };
    const state = this.deps.lifecycle.state(stream.id);
    if (stream.status === 'ended' || state?.finishing) {
      return { reason: 'stream_ended', message: 'This stream has ended.' };
    }
    if (state?.publisher && !state.publisher.closed) {
      return { reason: 'already_publishing', message: 'Another encoder is already publishing this stream.' };
    }
    return undefined;
  }
}
