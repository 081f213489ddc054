// Live chat's rules in one place, whichever way a message arrives (the socket, the API): who may
// post, what they may say and how often, who may moderate, and what each action records (the
// moderation log, a webhook event) and tells every API process (the bus).
import type { Db } from '../db/database.ts';
import type { KeysetPosition } from '../db/keyset.ts';
import { recordEvent } from '../events/outbox.ts';
import { toIso, type Clock } from '../shared/clock.ts';
import { AppError, invalidParameter, notFound, stateConflict } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { ChatBus, ChatEvent } from './chat-bus.ts';
import { TtlCache } from './chat-cache.ts';
import type { ChatFlood } from './chat-flood.ts';
import {
  checkMessageText,
  MAX_MESSAGE_LENGTH,
  MIN_MESSAGE_LENGTH_LIMIT,
  normalizeBlockedWords,
} from './chat-text.ts';
import * as repo from './chat.repository.ts';
import { toChatMessage, toChatSettings, type ChatMessage, type ChatSettings } from './chat.serializer.ts';
import type { ChatMessageRow, ChatRole, ChatRoomRow, ModerationAction } from './chat.table.ts';

/** Messages a late viewer is shown; a resume sends at most RESUME_LIMIT it missed. */
export const HISTORY_SIZE = 50;
export const RESUME_LIMIT = 500;
export const MAX_TIMEOUT_SECONDS = 7 * 24 * 3600;
export const MAX_SLOW_MODE_SECONDS = 3600;

export interface ChatOptions {
  /** CHAT_PLATFORM_FILTER. */
  platformFilter: boolean;
}

export interface PostRequest {
  streamId: string;
  userId: string;
  /** The client's address, for the per-address flood limit. */
  address: string;
  text: string;
}

export interface ChatHistory {
  messages: ChatMessage[];
  /** Ids of messages after the resume point that were deleted since. */
  deleted: string[];
  /** The room's last sequence number when read. */
  lastSeq: number;
  settings: ChatSettings;
}

export interface SettingsChange {
  slow_mode_seconds?: number;
  followers_only?: boolean;
  max_length?: number;
}

export class ChatService {
  readonly bus: ChatBus;
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly flood: ChatFlood;
  private readonly options: ChatOptions;
  // What every post reads, kept a moment (chat-cache.ts has the bound): live streams only, rooms
  // once they exist, a user's standing (name, ban or timeout, moderator) by `channel:user`, and
  // the channel's blocked words.
  private readonly liveStreams = new TtlCache<repo.ChatStream | undefined>();
  private readonly rooms = new TtlCache<ChatRoomRow | undefined>();
  private readonly standings = new TtlCache<repo.ChatStanding | undefined>();
  private readonly wordsKept = new TtlCache<string[]>();
  private unwatch: (() => void) | undefined;

  constructor(db: Db, clock: Clock, bus: ChatBus, flood: ChatFlood, options: ChatOptions) {
    this.db = db;
    this.clock = clock;
    this.bus = bus;
    this.flood = flood;
    this.options = options;
  }

  async close(): Promise<void> {
    this.unwatch?.();
    await Promise.all([this.bus.close(), this.flood.close()]);
  }

  /** Hears every process's changes (once something is kept), to forget what they touched. */
  private watch(): void {
    this.unwatch ??= this.bus.subscribe((event) => {
      this.forget(event);
    });
  }

  private forget(event: ChatEvent): void {
    if (event.kind === 'settings') this.rooms.delete(event.streamId);
    else if (event.kind === 'restricted') this.standings.delete(`${event.channelId}:${event.userId}`);
    else if (event.kind === 'channel') {
      this.standings.deletePrefix(`${event.channelId}:`);
      this.wordsKept.delete(event.channelId);
    }
  }

  /** Forgets here at once (a post right after the change sees it), then tells every process. */
  private announce(event: ChatEvent): void {
    this.forget(event);
    this.bus.publish(event);
  }

  /** The stream a post goes to: a live one is kept a moment, others are read each time. */
  private async postingStream(streamId: string): Promise<repo.ChatStream> {
    this.watch();
    const stream = await this.liveStreams.get(
      streamId,
      () => repo.findStream(this.db, streamId),
      (found) => found?.status === 'live',
    );
    if (stream === undefined) throw notFound('stream', streamId);
    return stream;
  }

  private async room(streamId: string, now: number): Promise<ChatRoomRow | undefined> {
    const read = () => repo.findRoom(this.db, streamId);
    const exists = (room: ChatRoomRow | undefined) => room !== undefined;
    const room = await this.rooms.get(streamId, read, exists);
    if (room !== undefined) return room;
    await repo.ensureRoom(this.db, streamId, now);
    return this.rooms.get(streamId, read, exists);
  }

  async stream(streamId: string): Promise<repo.ChatStream> {
    const stream = await repo.findStream(this.db, streamId);
    if (stream === undefined) throw notFound('stream', streamId);
    return stream;
  }

  /** The user's name, ban or timeout and whether they moderate the channel: one read, kept a moment. */
  private standing(channelId: string, userId: string): Promise<repo.ChatStanding | undefined> {
    this.watch();
    return this.standings.get(
      `${channelId}:${userId}`,
      () => repo.findStanding(this.db, channelId, userId),
      (found) => found !== undefined,
    );
  }

  /** The user's role in the stream's chat; `fresh` reads it now (a moderation action does). */
  async roleOf(stream: repo.ChatStream, userId: string, fresh = false): Promise<ChatRole> {
    if (userId === stream.creator_id) return 'creator';
    const moderates = fresh
      ? await repo.isModerator(this.db, stream.creator_id, userId)
      : (await this.standing(stream.creator_id, userId))?.moderator === true;
    return moderates ? 'moderator' : 'viewer';
  }

  async settings(streamId: string): Promise<ChatSettings> {
    const room = await repo.findRoom(this.db, streamId);
    return toChatSettings(room ?? repo.DEFAULT_ROOM);
  }

  /** Why `userId` may not post in the stream's chat now, or undefined when they may. */
  async refusal(stream: repo.ChatStream, userId: string): Promise<AppError | undefined> {
    if (stream.status === 'ended') return stateConflict('The stream has ended; its chat is closed.');
    const restriction = (await this.standing(stream.creator_id, userId))?.restriction;
    if (restriction?.kind === 'ban') {
      return new AppError('chat_banned', "You are banned from this channel's chat.");
    }
    const now = this.clock.now();
    if (restriction?.kind === 'timeout' && restriction.until !== null && restriction.until > now) {
      return new AppError(
        'chat_timed_out',
        `You are timed out of this channel's chat until ${toIso(restriction.until)} (${Math.ceil((restriction.until - now) / 1000)} s).`,
      );
    }
    return undefined;
  }

  async post(request: PostRequest): Promise<ChatMessage> {
    const stream = await this.postingStream(request.streamId);
    const now = this.clock.now();
    // One read of the user's standing serves the three below (they share the kept promise).
    const [refused, room, role, blocked, standing] = await Promise.all([
      this.refusal(stream, request.userId),
      this.room(stream.id, now),
      this.roleOf(stream, request.userId),
      this.wordsKept.get(stream.creator_id, () => repo.blockedWords(this.db, stream.creator_id)),
      this.standing(stream.creator_id, request.userId),
    ]);
    if (refused) throw refused;
    const name = standing?.name;
    if (room === undefined || name === undefined) throw notFound('user', request.userId);
    const text = checkMessageText(request.text, {
      maxLength: room.max_length,
      blockedWords: blocked,
      platformFilter: this.options.platformFilter,
    });
    if (role === 'viewer') {
      if (room.followers_only === 1 && !(await repo.isFollower(this.db, request.userId, stream.creator_id))) {
        throw new AppError(
          'chat_followers_only',
          'Only subscribers of this channel may chat now (followers-only mode).',
        );
      }
      if (room.slow_mode_seconds > 0) {
        const last = await repo.lastMessageAt(this.db, stream.id, request.userId);
        const wait = last === undefined ? 0 : last + room.slow_mode_seconds * 1000 - now;
        if (wait > 0) {
          throw new AppError(
            'rate_limit_exceeded',
            `Slow mode is on: one message every ${room.slow_mode_seconds} s. Wait ${Math.ceil(wait / 1000)} s.`,
          );
        }
      }
    }
    if (role !== 'creator') {
      const verdict = await this.flood.hit([`user:${request.userId}`, `address:${request.address}`]);
      if (!verdict.allowed) {
        const seconds = Math.ceil(((verdict.mutedUntil ?? now) - now) / 1000);
        throw new AppError(
          'rate_limit_exceeded',
          `You are sending messages too fast, so you are muted for ${seconds} s.`,
        );
      }
    }
    const row = await this.db.transaction().execute(async (trx) => {
      const seq = await repo.nextSeq(trx, stream.id);
      const message: ChatMessageRow = {
        id: newId('chm'),
        stream_id: stream.id,
        seq,
        user_id: request.userId,
        author_name: name,
        author_role: role,
        text,
        created_at: now,
        offset_ms: stream.started_at === null ? null : Math.max(0, now - stream.started_at),
        deleted_at: null,
        deleted_by: null,
      };
      await repo.insertMessage(trx, message);
      await recordEvent(trx, {
        type: 'chat_message.created',
        accountId: stream.creator_id,
        at: now,
        data: { ...toChatMessage(message) },
      });
      return message;
    });
    const message = toChatMessage(row);
    this.bus.publish({ kind: 'message', streamId: stream.id, message });
    return message;
  }

  /** A late viewer's history (the newest messages), or what a resuming client missed. */
  async history(streamId: string, afterSeq: number | undefined): Promise<ChatHistory> {
    const room = await repo.findRoom(this.db, streamId);
    const rows =
      afterSeq === undefined
        ? await repo.latestMessages(this.db, streamId, HISTORY_SIZE)
        : await repo.messagesAfter(this.db, streamId, afterSeq, RESUME_LIMIT);
    const deleted =
      afterSeq === undefined
        ? []
        : await repo.deletedAfter(this.db, streamId, Math.max(0, afterSeq - HISTORY_SIZE), RESUME_LIMIT);
    return {
      messages: rows.map(toChatMessage),
      deleted,
      lastSeq: room?.last_seq ?? 0,
      settings: toChatSettings(room ?? repo.DEFAULT_ROOM),
    };
  }

  /** Messages with sequence numbers in (after, upTo] (a process filling a gap). */
  async between(streamId: string, afterSeq: number, upToSeq: number): Promise<ChatMessage[]> {
    return (await repo.messagesAfter(this.db, streamId, afterSeq, RESUME_LIMIT, upToSeq)).map(toChatMessage);
  }

  async lastSeq(streamId: string): Promise<number> {
    return (await repo.findRoom(this.db, streamId))?.last_seq ?? 0;
  }

  async list(streamId: string, after: KeysetPosition | undefined, take: number): Promise<ChatMessageRow[]> {
    await this.stream(streamId);
    return repo.listMessages(this.db, streamId, after, take);
  }

  /** The stream a video was recorded from (its chat is the video's replay). */
  async streamOfVideo(videoId: string): Promise<string | null> {
    const found = await repo.sourceStreamOf(this.db, videoId);
    if (found === undefined) throw notFound('video', videoId);
    return found.streamId;
  }

  async listForVideo(
    videoId: string,
    after: KeysetPosition | undefined,
    take: number,
  ): Promise<ChatMessageRow[]> {
    const streamId = await this.streamOfVideo(videoId);
    return streamId === null ? [] : repo.listMessages(this.db, streamId, after, take);
  }

  /** Deletes a message: its author, the creator or a moderator may. */
  async deleteMessage(streamId: string, messageId: string, actorId: string): Promise<void> {
    const stream = await this.stream(streamId);
    const message = await repo.findMessage(this.db, streamId, messageId);
    if (message === undefined || message.deleted_at !== null) {
      throw new AppError(
        'resource_not_found',
        `No chat message with id '${messageId}' exists.`,
        'message_id',
      );
    }
    if (message.user_id !== actorId) await this.mustModerate(stream, actorId);
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      if (!(await repo.markDeleted(trx, messageId, actorId, now))) return;
      await this.record(trx, stream, actorId, 'message.deleted', {
        targetUserId: message.user_id,
        messageId,
      });
      await recordEvent(trx, {
        type: 'chat_message.deleted',
        accountId: stream.creator_id,
        at: now,
        data: {
          id: messageId,
          stream_id: streamId,
          author_id: message.user_id,
          deleted_by: actorId,
          deleted_at: toIso(now),
        },
      });
    });
    this.bus.publish({ kind: 'deleted', streamId, id: messageId, seq: message.seq });
  }

  /** Times a user out of the channel's chat for `seconds` (creator or moderator). */
  async timeout(
    streamId: string,
    actorId: string,
    userId: string,
    seconds: number,
    reason: string | null,
  ): Promise<{ until: number }> {
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_TIMEOUT_SECONDS) {
      throw invalidParameter('duration_seconds', `A timeout lasts 1 to ${MAX_TIMEOUT_SECONDS} seconds.`);
    }
    const stream = await this.stream(streamId);
    await this.mustModerate(stream, actorId);
    await this.mustBeRestrictable(stream, actorId, userId);
    const now = this.clock.now();
    const until = now + seconds * 1000;
    await this.db.transaction().execute(async (trx) => {
      await repo.putRestriction(trx, {
        channel_id: stream.creator_id,
        user_id: userId,
        kind: 'timeout',
        until,
        reason,
        created_by: actorId,
        created_at: now,
      });
      await this.record(trx, stream, actorId, 'user.timed_out', {
        targetUserId: userId,
        detail: `${seconds} s${reason ? `: ${reason}` : ''}`,
      });
      await recordEvent(trx, {
        type: 'chat_user.timed_out',
        accountId: stream.creator_id,
        at: now,
        data: {
          channel_id: stream.creator_id,
          stream_id: streamId,
          user_id: userId,
          until: toIso(until),
          reason,
          by: actorId,
        },
      });
    });
    this.announce({
      kind: 'restricted',
      channelId: stream.creator_id,
      userId,
      restriction: 'timeout',
      until,
    });
    return { until };
  }

  async ban(streamId: string, actorId: string, userId: string, reason: string | null): Promise<void> {
    const stream = await this.stream(streamId);
    await this.mustModerate(stream, actorId);
    await this.mustBeRestrictable(stream, actorId, userId);
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      await repo.putRestriction(trx, {
        channel_id: stream.creator_id,
        user_id: userId,
        kind: 'ban',
        until: null,
        reason,
        created_by: actorId,
        created_at: now,
      });
      await this.record(trx, stream, actorId, 'user.banned', { targetUserId: userId, detail: reason });
      await recordEvent(trx, {
        type: 'chat_user.banned',
        accountId: stream.creator_id,
        at: now,
        data: { channel_id: stream.creator_id, stream_id: streamId, user_id: userId, reason, by: actorId },
      });
    });
    this.announce({
      kind: 'restricted',
      channelId: stream.creator_id,
      userId,
      restriction: 'ban',
      until: null,
    });
  }

  /** Lifts a ban or a timeout; false when there was none. */
  async lift(streamId: string, actorId: string, userId: string): Promise<boolean> {
    const stream = await this.stream(streamId);
    await this.mustModerate(stream, actorId);
    return this.liftIn(stream.creator_id, stream.id, actorId, userId);
  }

  /** The creator lifts a ban or timeout in their channel (the dashboard's moderation page). */
  async liftInChannel(channelId: string, userId: string): Promise<boolean> {
    return this.liftIn(channelId, null, channelId, userId);
  }

  private async liftIn(
    channelId: string,
    streamId: string | null,
    actorId: string,
    userId: string,
  ): Promise<boolean> {
    const now = this.clock.now();
    const lifted = await this.db.transaction().execute(async (trx) => {
      const restriction = await repo.findRestriction(trx, channelId, userId);
      if (restriction === undefined || !(await repo.removeRestriction(trx, channelId, userId))) return false;
      await this.recordIn(trx, channelId, streamId, actorId, 'user.unbanned', {
        targetUserId: userId,
        detail: restriction.kind === 'ban' ? 'ban lifted' : 'timeout lifted',
      });
      await recordEvent(trx, {
        type: 'chat_user.restriction_lifted',
        accountId: channelId,
        at: now,
        data: {
          channel_id: channelId,
          stream_id: streamId,
          user_id: userId,
          kind: restriction.kind,
          by: actorId,
        },
      });
      return true;
    });
    if (lifted) this.announce({ kind: 'restricted', channelId, userId, restriction: 'lifted', until: null });
    return lifted;
  }

  /** The creator's switches while live (slow mode, followers-only, the length limit). */
  async updateSettings(streamId: string, actorId: string, change: SettingsChange): Promise<ChatSettings> {
    const stream = await this.stream(streamId);
    await this.mustModerate(stream, actorId);
    const changes: Parameters<typeof repo.updateRoom>[2] = {};
    if (change.slow_mode_seconds !== undefined) {
      if (
        !Number.isInteger(change.slow_mode_seconds) ||
        change.slow_mode_seconds < 0 ||
        change.slow_mode_seconds > MAX_SLOW_MODE_SECONDS
      ) {
        throw invalidParameter(
          'slow_mode_seconds',
          `Slow mode is 0 (off) to ${MAX_SLOW_MODE_SECONDS} seconds.`,
        );
      }
      changes.slow_mode_seconds = change.slow_mode_seconds;
    }
    if (change.max_length !== undefined) {
      if (
        !Number.isInteger(change.max_length) ||
        change.max_length < MIN_MESSAGE_LENGTH_LIMIT ||
        change.max_length > MAX_MESSAGE_LENGTH
      ) {
        throw invalidParameter(
          'max_length',
          `The length limit is ${MIN_MESSAGE_LENGTH_LIMIT} to ${MAX_MESSAGE_LENGTH} characters.`,
        );
      }
      changes.max_length = change.max_length;
    }
    if (change.followers_only !== undefined) changes.followers_only = change.followers_only ? 1 : 0;
    const now = this.clock.now();
    await repo.ensureRoom(this.db, streamId, now);
    const room = await this.db.transaction().execute(async (trx) => {
      const updated = await repo.updateRoom(trx, streamId, changes, now);
      const settings = toChatSettings(updated);
      await this.record(trx, stream, actorId, 'settings.updated', {
        detail: `slow mode ${settings.slow_mode_seconds} s, followers-only ${settings.followers_only ? 'on' : 'off'}, at most ${settings.max_length} characters`,
      });
      await recordEvent(trx, {
        type: 'chat_settings.updated',
        accountId: stream.creator_id,
        at: now,
        data: { channel_id: stream.creator_id, stream_id: streamId, ...settings, by: actorId },
      });
      return updated;
    });
    const settings = toChatSettings(room);
    this.announce({ kind: 'settings', streamId, settings });
    return settings;
  }

  // The channel's own settings: its moderators and blocked words (the creator only).

  async moderators(channelId: string): Promise<{ id: string; name: string }[]> {
    return repo.listModerators(this.db, channelId);
  }

  async addModerator(channelId: string, userId: string): Promise<void> {
    if (userId === channelId)
      throw invalidParameter('user_id', 'The creator already moderates their own chat.');
    if ((await repo.findUserName(this.db, userId)) === undefined) throw notFound('user', userId);
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      if (await repo.addModerator(trx, channelId, userId, now)) {
        await this.recordIn(trx, channelId, null, channelId, 'moderator.added', { targetUserId: userId });
        await recordEvent(trx, {
          type: 'chat_moderator.added',
          accountId: channelId,
          at: now,
          data: { channel_id: channelId, user_id: userId, by: channelId },
        });
      }
    });
    this.announce({ kind: 'channel', channelId });
  }

  async removeModerator(channelId: string, userId: string): Promise<void> {
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      if (await repo.removeModerator(trx, channelId, userId)) {
        await this.recordIn(trx, channelId, null, channelId, 'moderator.removed', { targetUserId: userId });
        await recordEvent(trx, {
          type: 'chat_moderator.removed',
          accountId: channelId,
          at: now,
          data: { channel_id: channelId, user_id: userId, by: channelId },
        });
      }
    });
    this.announce({ kind: 'channel', channelId });
  }

  async blockedWords(channelId: string): Promise<string[]> {
    return repo.blockedWords(this.db, channelId);
  }

  async setBlockedWords(channelId: string, words: readonly string[]): Promise<string[]> {
    const cleaned = normalizeBlockedWords(words);
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      await repo.setBlockedWords(trx, channelId, cleaned, now);
      await this.recordIn(trx, channelId, null, channelId, 'blocked_words.updated', {
        detail: `${cleaned.length} words`,
      });
      await recordEvent(trx, {
        type: 'chat_blocked_words.updated',
        accountId: channelId,
        at: now,
        data: { channel_id: channelId, words: cleaned, by: channelId },
      });
    });
    this.announce({ kind: 'channel', channelId });
    return cleaned;
  }

  async restrictions(channelId: string) {
    return repo.activeRestrictions(this.db, channelId, this.clock.now());
  }

  /** The channel's moderation log, newest first (the dashboard shows it). */
  async moderationLog(channelId: string, take = 50) {
    return repo.recentActions(this.db, channelId, take);
  }

  private async mustModerate(stream: repo.ChatStream, actorId: string): Promise<void> {
    if ((await this.roleOf(stream, actorId, true)) === 'viewer') {
      throw new AppError('chat_not_allowed', "Only the creator and the channel's moderators may do this.");
    }
  }

  private async mustBeRestrictable(stream: repo.ChatStream, actorId: string, userId: string): Promise<void> {
    if ((await repo.findUserName(this.db, userId)) === undefined) throw notFound('user', userId);
    const role = await this.roleOf(stream, userId, true);
    if (role === 'creator')
      throw invalidParameter('user_id', 'The creator cannot be timed out or banned from their own chat.');
    if (role === 'moderator' && actorId !== stream.creator_id) {
      throw new AppError('chat_not_allowed', 'Only the creator may time out or ban a moderator.');
    }
  }

  private record(
    trx: Db,
    stream: repo.ChatStream,
    actorId: string,
    action: ModerationAction,
    what: { targetUserId?: string; messageId?: string; detail?: string | null },
  ): Promise<void> {
    return this.recordIn(trx, stream.creator_id, stream.id, actorId, action, what);
  }

  private async recordIn(
    trx: Db,
    channelId: string,
    streamId: string | null,
    actorId: string,
    action: ModerationAction,
    what: { targetUserId?: string; messageId?: string; detail?: string | null },
  ): Promise<void> {
    await repo.recordAction(trx, {
      id: newId('mod'),
      channel_id: channelId,
      stream_id: streamId,
      actor_id: actorId,
      action,
      target_user_id: what.targetUserId ?? null,
      message_id: what.messageId ?? null,
      detail: what.detail ?? null,
      created_at: this.clock.now(),
    });
  }
}
