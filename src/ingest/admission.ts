// Who may publish. A key of a scheduled (standby) or live stream may; an unknown key, an ended
// stream's key, another application name or a second publisher is refused at once with an
// onStatus error the encoder shows (NetStream.Publish.BadName when the key or application is
// wrong, NetStream.Publish.Rejected when the publish is not allowed now), and changes nothing. An address that keeps trying unknown keys is
// locked out for a while (penalty-box.ts) and refused without a database lookup. A key is
// looked up among stream keys and creators' channel keys alike; a channel key publishes the
// creator's next stream (src/channels/next-stream.ts), then the same checks apply to it.
import type { Logger } from 'pino';
import type { ChannelKeyService } from '../channels/channel-key.service.ts';
import type { NextStream } from '../channels/next-stream.ts';
import type { StreamService } from '../streams/stream.service.ts';
import type { StreamRow } from '../streams/stream.table.ts';
import type { PenaltyBox } from './penalty-box.ts';
import type { Publisher, Refusal } from '../rtmp/publisher.ts';
import type { StreamLifecycle } from './stream-lifecycle.ts';
import type { ModerationWatch } from './moderation-watch.ts';
import type { StreamLeases } from './stream-leases.ts';

/** The RTMP application name in the ingest URL (rtmp://host:port/live). */
export const INGEST_APP = 'live';

export interface AdmissionDeps {
  streams: StreamService;
  /** Finds what a presented key publishes to. */
  channels: Pick<ChannelKeyService, 'findPublishTarget'>;
  nextStream: Pick<NextStream, 'pick'>;
  logger: Logger;
  penalties: PenaltyBox;
  /** Knows which streams are publishing, finishing, or shutting down. */
  lifecycle: Pick<StreamLifecycle, 'closing' | 'state'>;
  /** Why the creator may not go live yet (an unconfirmed address), or undefined. */
  unverifiedReason?: ((creatorId: string) => Promise<string | undefined>) | undefined;
  /** A suspended creator's or a taken-down stream's publisher is refused (src/moderation/). */
  moderation?: Pick<ModerationWatch, 'refusal'>;
  /** Many ingest processes: a stream another process holds is refused here (stream-leases.ts). */
  leases?: Pick<StreamLeases, 'acquire' | 'release'> | undefined;
}

export class Admission {
  private readonly deps: AdmissionDeps;
  /** Per creator, the channel-key admission under way: one at a time, so two cannot create two streams. */
  private readonly channelTurns = new Map<string, Promise<void>>();

  constructor(deps: AdmissionDeps) {
    this.deps = deps;
  }

  /**
   * Decides asynchronously (the RTMP server buffers the publisher meanwhile) and either
   * rejects `connection` or hands the stream to `admitted`, in the same step as the last
   * check, so two publishers of one key cannot both get through.
   */
  handle(connection: Publisher, admitted: (stream: StreamRow) => void): void {
    void this.admit(connection, admitted).catch((error: unknown) => {
      this.deps.logger.error({ err: error }, 'could not admit a publisher');
      connection.reject(
        'The server could not start the stream. Try again.',
        'NetStream.Publish.Rejected',
        'error',
      );
    });
  }

  private async admit(connection: Publisher, admitted: (stream: StreamRow) => void): Promise<void> {
    const { penalties, lifecycle } = this.deps;
    // An address locked out for guessing keys is refused without a database lookup.
    const lockedForMs = penalties.lockedFor(connection.remoteAddress);
    const target =
      lifecycle.closing || connection.app !== INGEST_APP || lockedForMs > 0
        ? undefined
        : await this.deps.channels.findPublishTarget(connection.streamKey);
    const creatorId = target?.kind === 'channel' ? target.creatorId : target?.stream.creator_id;
    const withheld =
      creatorId === undefined
        ? undefined
        : await this.deps.moderation?.refusal(
            creatorId,
            target?.kind === 'channel' ? undefined : target?.stream.id,
          );
    if (withheld !== undefined) {
      if (connection.closed || connection.refusal) return;
      const refusal = rejected('withheld', withheld);
      this.logRefusal(connection, target?.kind === 'channel' ? undefined : target?.stream, refusal);
      connection.reject(refusal.description, refusal.code, refusal.reason);
      return;
    }
    // An unverified creator is refused before a lease is taken; otherwise the lease decides.
    const settle = async (stream: Parameters<typeof this.unverified>[0]) => {
      const unverified = await this.unverified(stream);
      this.decide(
        connection,
        stream,
        lockedForMs,
        admitted,
        unverified ?? (await this.lease(connection, stream, lockedForMs)),
      );
    };
    if (target?.kind === 'channel') {
      await this.inTurn(target.creatorId, async () => {
        const stream =
          connection.closed || connection.refusal
            ? undefined
            : await this.deps.nextStream.pick(
                target.creatorId,
                (id) => lifecycle.state(id)?.finishing === true,
              );
        await settle(stream);
      });
      return;
    }
    await settle(target?.stream);
  }

  /**
   * Takes the stream's lease once every other check passes: another ingest process holding it
   * (its publisher is live there, or it has not yet lapsed after that process died) is a
   * second encoder, refused as on one machine.
   */
  private async lease(
    connection: Publisher,
    stream: StreamRow | undefined,
    lockedForMs: number,
  ): Promise<Refusal | undefined> {
    const { leases } = this.deps;
    if (!leases || !stream || connection.closed || connection.refusal) return undefined;
    if (this.refusal(connection, stream, lockedForMs)) return undefined;
    if (await leases.acquire(stream.id)) return undefined;
    return alreadyPublishing();
  }

  private async unverified(stream: StreamRow | undefined): Promise<Refusal | undefined> {
    if (!stream || !this.deps.unverifiedReason) return undefined;
    const reason = await this.deps.unverifiedReason(stream.creator_id);
    return reason === undefined ? undefined : rejected('email_unverified', reason);
  }

  /** Runs `step` after the creator's previous channel-key admission has finished. */
  private async inTurn(creatorId: string, step: () => Promise<void>): Promise<void> {
    const previous = this.channelTurns.get(creatorId) ?? Promise.resolve();
    const turn = previous.then(step);
    const settled = turn.catch(() => undefined);
    this.channelTurns.set(creatorId, settled);
    void settled.then(() => {
      if (this.channelTurns.get(creatorId) === settled) this.channelTurns.delete(creatorId);
    });
    await turn;
  }

  /** The last step of admission, which awaits nothing: refuse, or admit. */
  private decide(
    connection: Publisher,
    stream: StreamRow | undefined,
    lockedForMs: number,
    admitted: (stream: StreamRow) => void,
    unverified?: Refusal,
  ): void {
    const { penalties } = this.deps;
    if (connection.closed || connection.refusal) {
      // Gone, or refused while admission was asking the database (media it cannot take).
      if (connection.refusal) this.logRefusal(connection, stream, connection.refusal);
      return;
    }
    const refusal = this.refusal(connection, stream, lockedForMs) ?? unverified;
    if (refusal) {
      if (refusal.reason === 'unknown_key') penalties.recordFailure(connection.remoteAddress);
      this.logRefusal(connection, stream, refusal);
      connection.reject(refusal.description, refusal.code, refusal.reason);
      return;
    }
    if (stream) admitted(stream);
  }

  private logRefusal(connection: Publisher, stream: StreamRow | undefined, refusal: Refusal): void {
    this.deps.logger.info(
      { streamId: stream?.id, remote: connection.remoteAddress, reason: refusal.reason },
      'publish refused',
    );
  }

  private refusal(
    connection: Publisher,
    stream: StreamRow | undefined,
    lockedForMs: number,
  ): Refusal | undefined {
    if (this.deps.lifecycle.closing) {
      return rejected('shutting_down', 'The server is restarting. Try again in a minute.');
    }
    if (lockedForMs > 0) {
      return rejected(
        'too_many_unknown_keys',
        `Too many invalid stream keys from this address; try again in ${Math.ceil(lockedForMs / 1000)} s.`,
      );
    }
    if (connection.app !== INGEST_APP) {
      return badName('unknown_app', `Publish to rtmp://<host>:<port>/${INGEST_APP} with the stream key.`);
    }
    if (!stream) {
      return badName(
        'unknown_key',
        "The stream key is not valid. Copy the stream's key again (it changes when it is reset).",
      );
    }
    const state = this.deps.lifecycle.state(stream.id);
    if (stream.status === 'ended' || state?.finishing) {
      return rejected('stream_ended', 'This stream has ended. Create a new stream and publish with its key.');
    }
    const publisher = state?.publish?.connection;
    if (publisher && !publisher.closed && !publisher.refusal) {
      return alreadyPublishing();
    }
    return undefined;
  }
}

function alreadyPublishing(): Refusal {
  return badName(
    'already_publishing',
    'Another encoder is already publishing this stream. Stop it first, or wait a few seconds if it just disconnected.',
  );
}

/** The name is wrong: the stream key or the application. */
function badName(reason: string, description: string): Refusal {
  return { reason, code: 'NetStream.Publish.BadName', description };
}

/** The name is right but the publish is not allowed now. */
function rejected(reason: string, description: string): Refusal {
  return { reason, code: 'NetStream.Publish.Rejected', description };
}
