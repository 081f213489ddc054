// A body refused while it arrives (an image form past its limit) is read to its end and
// dropped, within a bound, instead of the connection being closed under it. Closing a socket
// with bytes still unread makes the kernel answer with a reset, and a reset can overtake the
// refusal already sent: the browser shows "connection reset" instead of the page saying why.
// Read out, the body ends where its framing says, and the connection carries the next request.
import type { IncomingMessage } from 'node:http';

/** How much more than the limit is read before giving up on the client seeing the answer. */
export const DRAIN_MAX_BYTES = 32 * 1024 * 1024;
/** How long a refused body may take to arrive in full. */
export const DRAIN_MAX_MS = 10_000;

const draining = new WeakSet<IncomingMessage>();

/**
 * Reads the rest of `request`'s body and drops it; past `maxBytes` more or `maxMs` (by default
 * DRAIN_MAX_BYTES and DRAIN_MAX_MS) the connection is destroyed (the client then sees a reset,
 * as it would from any server).
 */
export function drainRefusedBody(
  request: IncomingMessage,
  limits: { maxBytes: number; maxMs: number } = { maxBytes: DRAIN_MAX_BYTES, maxMs: DRAIN_MAX_MS },
): void {
  if (draining.has(request) || request.complete) return;
  draining.add(request);
  let bytes = 0;
  const socket = request.socket;
  // The socket's listener goes when the body ends: a kept connection may drain many bodies.
  const settle = () => {
    clearTimeout(timer);
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
    if (bytes > limits.maxBytes) giveUp();
  });
  request.once('end', settle);
  socket.once('close', settle);
  request.resume();
}

/** Whether the request's body is being read out: its refusal keeps the connection. */
export function isDrainingBody(request: IncomingMessage): boolean {
  return draining.has(request);
}
