// Simulcast destinations: where a creator's live stream is sent on by stream copy (another
// platform's RTMP or RTMPS ingest with its stream key), up to MAX_TARGETS per stream, plus up to
// MAX_TARGETS channel defaults that every stream created afterwards starts with (copied by
// SimulcastDefaults, in the stream's own creation). The key is sealed at rest and never returned.
// While a stream is live each destination's state is recorded here, with its webhook event in
// the same transaction; knows nothing of HTTP.
import type { Db } from '../db/database.ts';
import type { EventType } from '../events/event-types.ts';
import { recordEvent } from '../events/outbox.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError, notFound, stateConflict } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { findStream } from '../streams/stream.repository.ts';
import type { RelayState } from './rtmp-relay.ts';
import { keyHint, type SimulcastKeys } from './simulcast-keys.ts';
import * as repo from './simulcast.repository.ts';
import { MAX_TARGETS } from './simulcast.schemas.ts';
import { toSimulcastTarget } from './simulcast.serializer.ts';
import type { SimulcastState, SimulcastTargetRow } from './simulcast-target.table.ts';
import { checkKeyNotInUrl, checkServerUrl, checkStreamKey } from './simulcast-url.ts';

/** Whose destinations a call is about: a stream's (its id), or the caller's channel defaults (null). */
export type TargetOwner = string | null;

export interface CreateTargetInput {
  url: string;
  streamKey: string;
  name?: string | undefined;
  enabled?: boolean | undefined;
}

export interface UpdateTargetInput {
  url?: string | undefined;
  streamKey?: string | undefined;
  /** null clears the label. */
  name?: string | null | undefined;
  enabled?: boolean | undefined;
}

export interface SimulcastOptions {
  /** Loopback and private destinations allowed (SIMULCAST_ALLOW_PRIVATE_TARGETS). */
  allowPrivateTargets: boolean;
}

const EVENT_OF: Record<Exclude<SimulcastState, 'idle'>, EventType> = {
  connecting: 'simulcast_target.connecting',
  live: 'simulcast_target.live',
  failing: 'simulcast_target.failing',
  stopped: 'simulcast_target.stopped',
};

export class SimulcastService {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly keys: SimulcastKeys;
  private readonly options: SimulcastOptions;

  constructor(db: Db, clock: Clock, keys: SimulcastKeys, options: SimulcastOptions) {
    this.db = db;
    this.clock = clock;
    this.keys = keys;
    this.options = options;
  }

  /** The destinations of the caller's stream, or the caller's channel defaults, oldest first. */
  async list(creatorId: string, owner: TargetOwner): Promise<SimulcastTargetRow[]> {
    if (owner === null) return repo.listTargets(this.db, { creatorId, streamId: null });
    await this.ownedStream(this.db, creatorId, owner);
    return repo.listTargets(this.db, { streamId: owner });
  }

  async get(creatorId: string, owner: TargetOwner, targetId: string): Promise<SimulcastTargetRow> {
    return this.owned(this.db, creatorId, owner, targetId);
  }

  async create(creatorId: string, owner: TargetOwner, input: CreateTargetInput): Promise<SimulcastTargetRow> {
    const streamKey = checkStreamKey(input.streamKey);
    const url = await checkServerUrl(input.url, this.options.allowPrivateTargets);
    checkKeyNotInUrl(url, streamKey);
    return this.db.transaction().execute(async (trx) => {
      await repo.lockAccount(trx, creatorId);
      if (owner !== null) {
        const stream = await this.ownedStream(trx, creatorId, owner);
        if (stream.status === 'ended') {
          throw stateConflict(`Stream ${owner} has ended: it will not be sent anywhere again.`);
        }
      }
      const scope: repo.TargetScope = owner === null ? { creatorId, streamId: null } : { streamId: owner };
      const count = await repo.countTargets(trx, scope);
      if (count >= MAX_TARGETS) {
        throw new AppError(
          'simulcast_target_limit_reached',
          owner === null
            ? `You already have ${count} default simulcast destinations (the limit is ${MAX_TARGETS}); delete one first.`
            : `Stream ${owner} already has ${count} simulcast destinations (the limit is ${MAX_TARGETS}); delete one first.`,
        );
      }
      const now = this.clock.now();
      const id = newId('sim');
      const row: SimulcastTargetRow = {
        id,
        creator_id: creatorId,
        stream_id: owner,
        name: input.name ?? null,
        url,
        key_ciphertext: this.keys.seal(streamKey, id),
        key_hint: keyHint(streamKey),
        enabled: input.enabled === false ? 0 : 1,
        state: 'idle',
        state_reason: null,
        state_changed_at: now,
        created_at: now,
        updated_at: now,
      };
      await repo.insertTarget(trx, row);
      return row;
    });
  }

  /**
   * Changes the fields given. A stream that is live is not told: the change takes effect at its
   * next publish. Values equal to the current ones change nothing (`updated_at` included).
   */
  async update(
    creatorId: string,
    owner: TargetOwner,
    targetId: string,
    input: UpdateTargetInput,
  ): Promise<SimulcastTargetRow> {
    const newKey = input.streamKey === undefined ? undefined : checkStreamKey(input.streamKey);
    const newUrl =
      input.url === undefined ? undefined : await checkServerUrl(input.url, this.options.allowPrivateTargets);
    return this.db.transaction().execute(async (trx) => {
      const current = await this.owned(trx, creatorId, owner, targetId);
      const currentKey = this.keys.open(current.key_ciphertext, current.id);
      const changes: Parameters<typeof repo.updateTarget>[2] = {};
      if (newUrl !== undefined && newUrl !== current.url) changes.url = newUrl;
      if (newKey !== undefined && newKey !== currentKey) {
        changes.key_ciphertext = this.keys.seal(newKey, current.id);
        changes.key_hint = keyHint(newKey);
      }
      if (input.name !== undefined && input.name !== current.name) changes.name = input.name;
      if (input.enabled !== undefined && (input.enabled ? 1 : 0) !== current.enabled) {
        changes.enabled = input.enabled ? 1 : 0;
      }
      const effectiveKey = newKey ?? currentKey;
      if (effectiveKey !== undefined) checkKeyNotInUrl(newUrl ?? current.url, effectiveKey);
      if (Object.keys(changes).length === 0) return current;
      const updated = await repo.updateTarget(trx, current.id, { ...changes, updated_at: this.clock.now() });
      if (!updated) throw targetNotFound(targetId);
      return updated;
    });
  }

  async delete(creatorId: string, owner: TargetOwner, targetId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const current = await this.owned(trx, creatorId, owner, targetId);
      if (!(await repo.deleteTarget(trx, current.id))) throw targetNotFound(targetId);
    });
  }

  // The live side (SimulcastOutput).

  /** The stream's enabled destinations, for a publish of it (keys still sealed). */
  async enabledTargets(streamId: string): Promise<SimulcastTargetRow[]> {
    return repo.enabledTargetsOf(this.db, streamId);
  }

  /** A publish starts sending to the destination: `connecting`, whatever it said before. */
  async recordRunStart(targetId: string): Promise<void> {
    await this.transition(targetId, ['idle', 'live', 'failing', 'stopped'], 'connecting', null);
  }

  /**
   * A relay's state. An event is recorded only when the destination's state changes, and a
   * failure streak is one `failing` until the destination is live again: the relay's retries
   * (`connecting`, then `failing` again) only refresh the reason. A destination deleted
   * meanwhile is ignored.
   */
  async recordState(targetId: string, state: RelayState): Promise<void> {
    switch (state.state) {
      case 'connecting':
        // From failing this is a retry of the same streak: it stays failing.
        await this.transition(targetId, ['idle', 'live', 'stopped'], 'connecting', null);
        return;
      case 'live':
        await this.transition(targetId, ['idle', 'connecting', 'failing', 'stopped'], 'live', null);
        return;
      case 'failing':
        if (
          !(await this.transition(
            targetId,
            ['idle', 'connecting', 'live', 'stopped'],
            'failing',
            state.reason,
          ))
        ) {
          await repo.setReason(this.db, targetId, state.reason);
        }
        return;
      case 'stopped':
        await this.transition(targetId, ['idle', 'connecting', 'live', 'failing'], 'stopped', null);
        return;
    }
  }

  /** Moves the destination to `to` if it is in one of `from`, with its event; whether it did. */
  private async transition(
    targetId: string,
    from: readonly SimulcastState[],
    to: Exclude<SimulcastState, 'idle'>,
    reason: string | null,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const updated = await repo.transitionTarget(trx, targetId, from, {
        state: to,
        state_reason: reason,
        state_changed_at: now,
      });
      if (!updated) return false;
      await recordEvent(trx, {
        type: EVENT_OF[to],
        accountId: updated.creator_id,
        at: now,
        data: toSimulcastTarget(updated),
      });
      return true;
    });
  }

  /** The caller's stream; another creator's answers as missing. */
  private async ownedStream(db: Db, creatorId: string, streamId: string) {
    const stream = await findStream(db, streamId);
    if (!stream || stream.creator_id !== creatorId) throw notFound('stream', streamId);
    return stream;
  }

  /** The caller's destination, of this stream or among their defaults; anything else is missing. */
  private async owned(
    db: Db,
    creatorId: string,
    owner: TargetOwner,
    targetId: string,
  ): Promise<SimulcastTargetRow> {
    if (owner !== null) await this.ownedStream(db, creatorId, owner);
    const row = await repo.findTarget(db, targetId);
    if (!row || row.creator_id !== creatorId || row.stream_id !== owner) throw targetNotFound(targetId);
    return row;
  }
}

export function targetNotFound(id: string): AppError {
  return new AppError('resource_not_found', `No simulcast target with id '${id}' exists.`, 'target_id');
}
