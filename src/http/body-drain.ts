// A body refused before or while it arrives (a 401, a 413, an image form past its limit) is
// read to its end and dropped, within a bound, instead of the connection being closed under it.
// Closing a socket with bytes still unread makes the kernel answer with a reset, and a reset can
// overtake the refusal already sent: a browser shows "connection reset" instead of the page
// saying why, and node:http (axios, got) or Python's requests fail with EPIPE instead of the 413.
// Read out, the body ends where its framing says, and the connection carries the next request
// (as nginx's lingering close does, and RFC 9110 10.1.1 allows: "continue reading and
// discarding the request content").
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How many refused bytes one connection may have read out before it is cut (a client that
 * keeps sending refused bodies on one connection would otherwise keep the server reading).
 */
export const DRAIN_MAX_BYTES = 32 * 1024 * 1024;
/** How long a refused body may take to arrive in full. */
export const DRAIN_MAX_MS = 10_000;

const draining = new WeakSet<IncomingMessage>();
const drainingSockets = new WeakSet<Socket>();
/** Refused bytes read out so far on each connection, against DRAIN_MAX_BYTES. */
const drainedBytes = new WeakMap<Socket, number>();
const closing = new WeakSet<IncomingMessage>();
const continued = new WeakSet<IncomingMessage>();

/** Marks a request whose refusal must close its connection whatever its body (a shutdown). */
export function closeAfterRefusal(request: IncomingMessage): void {
  closing.add(request);
}

/** Marks a request that was told `100 Continue`: its client is sending the body. */
export function markContinued(request: IncomingMessage): void {
  continued.add(request);
}

/**
 * Whether a refused request's unread body is to be read out rather than its connection closed:
 * not when the client still waits for `100 Continue` (refused instead, it sends no body: RFC
 * 9110 10.1.1), nor when its declared length is past the bound (it would be cut off all the same).
 */
export function canDrainRefusedBody(request: IncomingMessage): boolean {
  const waiting = request.headers.expect !== undefined && !continued.has(request);
  if (closing.has(request) || waiting || !keepsConnection(request)) return false;
  const length = Number(request.headers['content-length'] ?? 0);
  return (drainedBytes.get(request.socket) ?? 0) + length <= DRAIN_MAX_BYTES;
}

/**
 * Whether the client keeps its connection after this request (HTTP/1.1 unless it says close;
 * HTTP/1.0 only if it says keep-alive). If not, Node closes it after the answer whatever is
 * left unread, so reading out would not save the refusal.
 */
export function keepsConnection(request: IncomingMessage): boolean {
  const connection = request.headers.connection?.toLowerCase() ?? '';
  return request.httpVersion === '1.1' ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection);
}

/**
 * Reads the rest of `request`'s body and drops it; past `maxBytes` read out on its connection
 * (this body and earlier ones) or `maxMs` for this body (by default DRAIN_MAX_BYTES and
 * DRAIN_MAX_MS) the connection is destroyed (the client then sees a reset, as it would from any
 * server).
 */
export function drainRefusedBody(
  request: IncomingMessage,
  limits: { maxBytes: number; maxMs: number } = { maxBytes: DRAIN_MAX_BYTES, maxMs: DRAIN_MAX_MS },
): void {
  if (draining.has(request) || request.complete) return;
  draining.add(request);
  const socket = request.socket;
  let bytes = drainedBytes.get(socket) ?? 0;
  drainingSockets.add(socket);
  // The socket's listener goes when the body ends: a kept connection may drain many bodies.
  const settle = () => {
    clearTimeout(timer);
    drainingSockets.delete(socket);
    socket.off('close', settle);
  };
  const giveUp = () => {
    settle();
    socket.destroy();
  };
  const timer = setTimeout(giveUp, limits.maxMs);
  timer.unref();
  request.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    drainedBytes.set(socket, bytes);
    if (bytes > limits.maxBytes) giveUp();
  });
  request.once('end', settle);
  socket.once('close', settle);
  request.resume();
}

/**
 * Whether the connection is reading out a refused body. Its request has had its answer, so a
 * fault in the rest of the body (bad chunk framing) ends the connection without another.
 */
export function isDrainingSocket(socket: Socket): boolean {
  return drainingSockets.has(socket);
}

/** Whether the request's body is being read out: its refusal keeps the connection. */
export function isDrainingBody(request: IncomingMessage): boolean {
  return draining.has(request);
}
