// The chat socket of a stream's watch page: GET /watch/{id}/chat upgraded to a WebSocket.
// Anyone may read; a signed-in user (the session cookie) may post. The browser's Origin must be
// this site's, so another site's page cannot post with a visitor's cookie (cross-site WebSocket
// hijacking); a client that sends no Origin (not a browser) is judged by its cookie alone.
//
// Frames are JSON text. The client sends {"type":"post","text":...,"nonce":...} and
// {"type":"ping"}; the server sends hello (the history and who you are), message, deleted,
// settings, restricted, posted, error and pong (docs/chat.md). A resume is `?after=<seq>`:
// the hello then holds every message after it (and which of those were deleted since).
//
// Hostile clients: frames over MAX_FRAME_BYTES close the socket (1009, by ws), binary frames
// (1003), a flood of frames (1008) and a run of malformed ones (1007); none of it reaches the
// database, and the process and the other sockets carry on.
import { EventEmitter } from 'node:events';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { Logger } from 'pino';
import { rawErrorResponse } from '../http/error-handler.ts';
import { AppError } from '../shared/errors.ts';
import type { ChatHub, ChatViewer } from './chat-hub.ts';
import type { ChatService } from './chat.service.ts';

/** The refusal a suspended account's socket gets for anything but reading. */
const SUSPENDED = () => new AppError('account_suspended', 'Your account is suspended, so you cannot chat.');

export const MAX_FRAME_BYTES = 8 * 1024;
/** Frames a socket may send per second (a burst of twice as many is allowed). */
const FRAMES_PER_SECOND = 10;
const BAD_FRAMES_ALLOWED = 5;
const POSTS_IN_FLIGHT = 2;
const HEARTBEAT_MS = 30_000;

export interface ChatSocketOptions {
  chat: ChatService;
  /** The signed-in user a Cookie header names (looked up again for every post). */
  /** The session's user; a suspended one (signed in again to read why) may read but not post. */
  userOf: (
    cookieHeader: string | undefined,
  ) => Promise<{ id: string; name: string; suspended?: boolean } | undefined>;
  /** PUBLIC_URL's origin. */
  publicOrigin: string;
  /** Sockets one client address may hold open in this process. */
  connectionsPerAddress: number;
  logger: Pick<Logger, 'warn' | 'error'>;
  /** This process's rooms (app.chatHub). */
  hub: ChatHub;
}

interface Incoming {
  type?: unknown;
  text?: unknown;
  nonce?: unknown;
  /** delete: the message's id. */
  id?: unknown;
  /** timeout: whom, and for how long. */
  user_id?: unknown;
  seconds?: unknown;
}

/** The one path that takes a WebSocket upgrade: a watch page's chat. */
const CHAT_SOCKET_PATH = /^\/watch\/[^/?#]+\/chat(?:\?|$)/;

/** Answers an upgrade 400 `malformed_request` in the envelope, on a socket no server manages, and closes it. */
function refuseHandshake(socket: Duplex, message: string): void {
  socket.on('error', () => {
    socket.destroy();
  });
  socket.end(rawErrorResponse(new AppError('malformed_request', message)), () => {
    socket.destroy();
  });
}

export function chatSocketRoutes(options: ChatSocketOptions): (app: FastifyInstance) => Promise<void> {
  const { chat } = options;
  return async (app) => {
    const hub = options.hub;
    const perAddress = new Map<string, number>();
    // Node hands every request that asks to upgrade to the server's 'upgrade' listeners, never to
    // the HTTP routes. Only the chat socket's path goes on to the plugin; any other is answered
    // here with the envelope and closed (left to the plugin, it was routed as HTTP on a socket
    // nothing closed, and the connection hung).
    const gate = new EventEmitter();
    app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (CHAT_SOCKET_PATH.test(request.url ?? '')) {
        gate.emit('upgrade', request, socket, head);
        return;
      }
      refuseHandshake(socket, 'Only a watch page chat accepts a WebSocket upgrade.');
    });
    await app.register(websocket, {
      options: {
        maxPayload: MAX_FRAME_BYTES,
        perMessageDeflate: false,
        server: gate as unknown as Server,
      },
      // A client that vanishes mid-frame is ordinary, not an error worth a stack.
      errorHandler: (_error, socket) => {
        socket.terminate();
      },
    });
    // A handshake ws itself refuses (no or a malformed Sec-WebSocket-Key, another version, a bad
    // Sec-WebSocket-Protocol) comes after the route took the request over: answered here in the
    // envelope, where ws would write a text/html line.
    app.websocketServer.on('wsClientError', (error: Error, socket: Duplex) => {
      refuseHandshake(socket, error.message);
    });
    app.addHook('onClose', () => {
      hub.close();
    });

    app.get<{ Params: { id: string }; Querystring: { after?: string } }>(
      '/watch/:id/chat',
      {
        websocket: true,
        config: { access: 'public' },
        schema: { hide: true },
        preValidation: async (request) => {
          if (!sameSite(request, options.publicOrigin)) {
            throw new AppError('csrf_failed', 'The chat only accepts connections from this site.');
          }
          if (request.headers.upgrade?.toLowerCase() !== 'websocket') {
            throw new AppError(
              'malformed_request',
              'This address is a WebSocket: connect with Upgrade: websocket.',
            );
          }
          const after = request.query.after;
          if (after !== undefined && !/^\d{1,15}$/.test(after)) {
            throw new AppError(
              'parameter_invalid',
              '`after` is the sequence number of the last message seen.',
              'after',
            );
          }
          await chat.stream(request.params.id);
          if ((perAddress.get(request.ip) ?? 0) >= options.connectionsPerAddress) {
            throw new AppError('rate_limit_exceeded', 'Too many chat connections from this address.');
          }
        },
      },
      (socket, request) => {
        const streamId = request.params.id;
        const address = request.ip;
        perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
        const after = request.query.after === undefined ? undefined : Number(request.query.after);
        const viewer: ChatViewer = { socket, userId: null, lastSeq: after ?? 0 };
        const cookie = request.headers.cookie;
        const state = { closed: false };
        let tokens = FRAMES_PER_SECOND * 2;
        let refilledAt = Date.now();
        let badFrames = 0;
        let inFlight = 0;
        let alive = true;
        const send = (frame: unknown) => {
          if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
        };
        const heartbeat = setInterval(() => {
          if (!alive) {
            socket.terminate();
            return;
          }
          alive = false;
          socket.ping();
        }, HEARTBEAT_MS);
        heartbeat.unref();
        socket.on('pong', () => {
          alive = true;
        });
        socket.on('close', () => {
          state.closed = true;
          clearInterval(heartbeat);
          hub.leave(streamId, viewer);
          const count = (perAddress.get(address) ?? 1) - 1;
          if (count <= 0) perAddress.delete(address);
          else perAddress.set(address, count);
        });
        socket.on('error', () => {
          socket.terminate();
        });

        const joined = (async () => {
          const user = await options.userOf(cookie);
          viewer.userId = user?.id ?? null;
          const stream = await chat.stream(streamId);
          const [role, refusal] = user
            ? await Promise.all([
                chat.roleOf(stream, user.id),
                user.suspended === true ? SUSPENDED() : chat.refusal(stream, user.id),
              ])
            : [null, new AppError('authentication_required', 'Sign in to chat.')];
          if (state.closed) return;
          await hub.join(streamId, viewer, async () => {
            const history = await chat.history(streamId, after);
            send({
              type: 'hello',
              user: user ? { id: user.id, name: user.name, role } : null,
              can_post: refusal === undefined,
              reason: refusal === undefined ? null : { code: refusal.code, message: refusal.message },
              settings: history.settings,
              messages: history.messages,
              deleted: history.deleted,
              last_seq: history.lastSeq,
            });
            return history.messages;
          });
        })();
        joined.catch((error: unknown) => {
          options.logger.error({ err: error, streamId }, 'chat socket could not join its room');
          socket.close(1011, 'could not join the room');
        });

        // What a signed-in user asks of the chat (post, delete, timeout), each checked against
        // their session again and answered by its nonce.
        const act = (nonce: string | null, work: (userId: string) => Promise<object>) => {
          if (inFlight >= POSTS_IN_FLIGHT) {
            send({
              type: 'error',
              code: 'rate_limit_exceeded',
              message: 'Wait for your last message to be sent.',
              nonce,
            });
            return;
          }
          inFlight++;
          void joined
            .then(async () => {
              const user = await options.userOf(cookie);
              if (user === undefined) {
                throw new AppError('authentication_required', 'Sign in to chat (your session has ended).');
              }
              if (user.suspended === true) throw SUSPENDED();
              send({ ...(await work(user.id)), nonce });
            })
            .catch((error: unknown) => {
              if (error instanceof AppError) {
                send({ type: 'error', code: error.code, message: error.message, nonce });
              } else {
                options.logger.error({ err: error, streamId }, 'chat action failed');
                send({
                  type: 'error',
                  code: 'internal_error',
                  message: 'That did not work; try again.',
                  nonce,
                });
              }
            })
            .finally(() => {
              inFlight--;
            });
        };
        const moderate = (incoming: Incoming) => {
          const nonce =
            typeof incoming.nonce === 'string' && incoming.nonce.length <= 64 ? incoming.nonce : null;
          if (incoming.type === 'delete') {
            const id = incoming.id;
            if (typeof id !== 'string' || id.length > 64) {
              send({
                type: 'error',
                code: 'parameter_invalid',
                message: 'A delete names a message `id`.',
                nonce,
              });
              return;
            }
            act(nonce, async (userId) => {
              await chat.deleteMessage(streamId, id, userId);
              return { type: 'done' };
            });
            return;
          }
          const target = incoming.user_id;
          const seconds = incoming.seconds;
          if (typeof target !== 'string' || target.length > 64 || typeof seconds !== 'number') {
            send({
              type: 'error',
              code: 'parameter_invalid',
              message: 'A timeout names a `user_id` and `seconds`.',
              nonce,
            });
            return;
          }
          act(nonce, async (userId) => {
            await chat.timeout(streamId, userId, target, seconds, null);
            return { type: 'done' };
          });
        };

        socket.on('message', (data, isBinary) => {
          const now = Date.now();
          tokens = Math.min(FRAMES_PER_SECOND * 2, tokens + ((now - refilledAt) / 1000) * FRAMES_PER_SECOND);
          refilledAt = now;
          if (tokens < 1) {
            socket.close(1008, 'too many frames');
            return;
          }
          tokens -= 1;
          if (isBinary) {
            socket.close(1003, 'text frames only');
            return;
          }
          const bad = (code: string, message: string, nonce?: unknown) => {
            send({ type: 'error', code, message, nonce: typeof nonce === 'string' ? nonce : null });
            if (++badFrames > BAD_FRAMES_ALLOWED) socket.close(1007, 'too many malformed frames');
          };
          let frame: unknown;
          try {
            frame = JSON.parse(bufferText(data));
          } catch {
            bad('invalid_json', 'A frame must be a JSON object.');
            return;
          }
          if (frame === null || typeof frame !== 'object' || Array.isArray(frame)) {
            bad('invalid_json', 'A frame must be a JSON object.');
            return;
          }
          const incoming = frame as Incoming;
          if (incoming.type === 'ping') {
            send({ type: 'pong' });
            return;
          }
          if (incoming.type === 'delete' || incoming.type === 'timeout') {
            moderate(incoming);
            return;
          }
          if (incoming.type !== 'post') {
            bad('parameter_invalid', 'A frame\'s type is "post", "delete", "timeout" or "ping".');
            return;
          }
          const nonce =
            typeof incoming.nonce === 'string' && incoming.nonce.length <= 64 ? incoming.nonce : null;
          if (typeof incoming.text !== 'string') {
            bad('parameter_invalid', 'A post has a `text` string.', nonce);
            return;
          }
          const text = incoming.text;
          act(nonce, async (userId) => {
            const message = await chat.post({ streamId, userId, address, text });
            return { type: 'posted', id: message.id, seq: message.seq };
          });
        });
      },
    );
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's chat rooms and their sockets (src/chat/chat-hub.ts). */
    chatHub: ChatHub;
  }
}

function bufferText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

function sameSite(request: FastifyRequest, publicOrigin: string): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  if (origin === publicOrigin) return true;
  try {
    return new URL(origin).host === request.host;
  } catch {
    return false;
  }
}
