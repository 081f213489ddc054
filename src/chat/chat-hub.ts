// This process's chat rooms: the sockets watching each stream and the order they hear things in.
// Every message reaches a room through the bus (chat-bus.ts) with its sequence number; the room
// passes messages on strictly in that order: one that arrives ahead of a missing number waits
// while the missing ones are read from the database, and one already passed on is dropped. So
// every socket sees each message once, in the same order, whichever process it was posted on.
//
// A socket's sends are bounded: one whose unsent bytes pass the limit (a reader that stopped
// reading) is closed, never buffered without end, and the others are not held up by it.
import type { Logger } from 'pino';
import type { ChatEvent } from './chat-bus.ts';
import type { ChatMessage } from './chat.serializer.ts';
import type { ChatService } from './chat.service.ts';

/**
 * How long a message that arrived ahead of a missing number waits for it on the bus (posts on
 * several processes publish in any order) before the missing ones are read from the database.
 */
export const GAP_WAIT_MS = 250;
const MAX_AHEAD = 1000;

/** Unsent bytes a socket may hold before it is dropped as a slow reader. */
export const SEND_BUFFER_LIMIT = 256 * 1024;

/** The part of a WebSocket the hub needs (ws's WebSocket has it). */
export interface ChatSocket {
  readonly bufferedAmount: number;
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
}

export interface ChatViewer {
  socket: ChatSocket;
  userId: string | null;
  /** The last sequence number this socket was sent. */
  lastSeq: number;
  /** Called once when the hub drops the socket (a slow reader). */
  onDropped?: () => void;
}

const OPEN = 1;

class Room {
  readonly viewers = new Set<ChatViewer>();
  /** The last sequence number passed on to the viewers. */
  lastSeq = 0;
  /** Messages and deletions wait their turn here. */
  chain: Promise<void> = Promise.resolve();
  /** Messages that arrived ahead of a missing number, by number. */
  readonly ahead = new Map<number, ChatMessage>();
  gapTimer: ReturnType<typeof setTimeout> | undefined;
  ready: Promise<void>;
  constructor(ready: Promise<void>) {
    this.ready = ready;
  }
}

export interface ChatHubStats {
  rooms: number;
  sockets: number;
  droppedSlow: number;
}

export class ChatHub {
  private readonly rooms = new Map<string, Room>();
  private readonly chat: ChatService;
  private readonly logger: Pick<Logger, 'warn' | 'error'>;
  private readonly unsubscribe: () => void;
  private readonly sendLimit: number;
  private droppedSlow = 0;

  constructor(chat: ChatService, logger: Pick<Logger, 'warn' | 'error'>, sendLimit = SEND_BUFFER_LIMIT) {
    this.chat = chat;
    this.logger = logger;
    this.sendLimit = sendLimit;
    this.unsubscribe = chat.bus.subscribe((event) => {
      this.hear(event);
    });
  }

  stats(): ChatHubStats {
    let sockets = 0;
    for (const room of this.rooms.values()) sockets += room.viewers.size;
    return { rooms: this.rooms.size, sockets, droppedSlow: this.droppedSlow };
  }

  /**
   * Adds a viewer to its stream's room, after sending it what it missed (`frame` builds the
   * greeting from the history). Runs in the room's order, so nothing falls between the history
   * and the live messages.
   */
  join(streamId: string, viewer: ChatViewer, greet: () => Promise<ChatMessage[]>): Promise<void> {
    const room = this.roomOf(streamId);
    return this.enqueue(room, async () => {
      const sent = await greet();
      for (const message of sent) viewer.lastSeq = Math.max(viewer.lastSeq, message.seq);
      room.viewers.add(viewer);
    });
  }

  leave(streamId: string, viewer: ChatViewer): void {
    const room = this.rooms.get(streamId);
    if (room === undefined) return;
    room.viewers.delete(viewer);
    if (room.viewers.size === 0) {
      // Kept until its queue is done; a room without viewers is then forgotten.
      void room.chain.then(() => {
        if (room.viewers.size === 0 && this.rooms.get(streamId) === room) this.rooms.delete(streamId);
      });
    }
  }

  /** Tells every socket of a user (a ban, a timeout) in this process. */
  sendToUser(userId: string, frame: string): void {
    for (const room of this.rooms.values()) {
      for (const viewer of room.viewers) if (viewer.userId === userId) this.send(room, viewer, frame);
    }
  }

  close(): void {
    this.unsubscribe();
    for (const room of this.rooms.values()) {
      this.clearGap(room);
      for (const viewer of room.viewers) viewer.socket.close(1001, 'server shutting down');
    }
    this.rooms.clear();
  }

  private roomOf(streamId: string): Room {
    let room = this.rooms.get(streamId);
    if (room === undefined) {
      const created = new Room(Promise.resolve());
      created.ready = this.chat.lastSeq(streamId).then(
        (seq) => {
          created.lastSeq = Math.max(created.lastSeq, seq);
        },
        (error: unknown) => {
          this.logger.error({ err: error, streamId }, 'cannot read the chat room');
        },
      );
      created.chain = created.ready;
      this.rooms.set(streamId, created);
      room = created;
    }
    return room;
  }

  private enqueue(room: Room, work: () => Promise<void>): Promise<void> {
    const next = room.chain.then(work);
    room.chain = next.catch((error: unknown) => {
      this.logger.error({ err: error }, 'chat room delivery failed');
    });
    return next;
  }

  private hear(event: ChatEvent): void {
    if (event.kind === 'channel') return;
    if (event.kind === 'restricted') {
      this.sendToUser(
        event.userId,
        JSON.stringify({ type: 'restricted', restriction: event.restriction, until: event.until }),
      );
      return;
    }
    const room = this.rooms.get(event.streamId);
    if (room === undefined) return;
    if (event.kind === 'message') {
      void this.enqueue(room, () => this.deliverMessage(event.streamId, room, event.message));
    } else if (event.kind === 'deleted') {
      const frame = JSON.stringify({ type: 'deleted', id: event.id, seq: event.seq });
      void this.enqueue(room, () => {
        this.broadcast(room, frame);
        return Promise.resolve();
      });
    } else {
      const frame = JSON.stringify({ type: 'settings', settings: event.settings });
      void this.enqueue(room, () => {
        this.broadcast(room, frame);
        return Promise.resolve();
      });
    }
  }

  private deliverMessage(streamId: string, room: Room, message: ChatMessage): Promise<void> {
    if (message.seq <= room.lastSeq) return Promise.resolve();
    if (message.seq > room.lastSeq + 1) {
      // Some message between is still on its way (or was lost): wait a little for it, then read
      // what is still missing from the database, since a message commits only after every one
      // before it.
      room.ahead.set(message.seq, message);
      if (room.ahead.size >= MAX_AHEAD) return this.fillGap(streamId, room);
      room.gapTimer ??= setTimeout(() => {
        void this.enqueue(room, () => this.fillGap(streamId, room));
      }, GAP_WAIT_MS);
      return Promise.resolve();
    }
    this.pass(room, message);
    for (let next = room.ahead.get(room.lastSeq + 1); next; next = room.ahead.get(room.lastSeq + 1)) {
      room.ahead.delete(next.seq);
      this.pass(room, next);
    }
    if (room.ahead.size === 0) this.clearGap(room);
    return Promise.resolve();
  }

  private async fillGap(streamId: string, room: Room): Promise<void> {
    this.clearGap(room);
    if (room.ahead.size === 0) return;
    const upTo = Math.max(...room.ahead.keys());
    const missing = await this.chat.between(streamId, room.lastSeq, upTo);
    const all = new Map<number, ChatMessage>(room.ahead);
    for (const found of missing) if (!all.has(found.seq)) all.set(found.seq, found);
    room.ahead.clear();
    for (const seq of [...all.keys()].sort((a, b) => a - b)) {
      const found = all.get(seq);
      if (found) this.pass(room, found);
    }
  }

  private clearGap(room: Room): void {
    if (room.gapTimer !== undefined) clearTimeout(room.gapTimer);
    room.gapTimer = undefined;
  }

  private pass(room: Room, message: ChatMessage): void {
    if (message.seq <= room.lastSeq) return;
    room.lastSeq = message.seq;
    const frame = JSON.stringify({ type: 'message', message });
    for (const viewer of room.viewers) {
      if (message.seq <= viewer.lastSeq) continue;
      viewer.lastSeq = message.seq;
      this.send(room, viewer, frame);
    }
  }

  private broadcast(room: Room, frame: string): void {
    for (const viewer of room.viewers) this.send(room, viewer, frame);
  }

  private send(room: Room, viewer: ChatViewer, frame: string): void {
    const { socket } = viewer;
    if (socket.readyState !== OPEN) return;
    if (socket.bufferedAmount + frame.length > this.sendLimit) {
      room.viewers.delete(viewer);
      this.droppedSlow++;
      viewer.onDropped?.();
      // A reader that stopped reading would never take a closing handshake either.
      socket.terminate();
      return;
    }
    socket.send(frame);
  }
}
