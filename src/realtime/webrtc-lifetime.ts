// node-datachannel's native threads, and its wrappers' thread-safe functions, keep the process
// alive until its cleanup(), which closes every peer connection of the process. Whoever makes a
// peer connection (a WHEP viewer, a WHIP publisher) says so here; the realtime hub's close, the
// last of the shutdown (after the ingest's, which ends the WHIP publishes), calls the cleanup,
// once, and only when a connection was made.
import nodeDataChannel from 'node-datachannel';

let inUse = false;

/** A peer connection is about to be made in this process. */
export function usingWebRtc(): void {
  inUse = true;
}

/** Ends node-datachannel's threads if a peer connection was made; every connection is closed. */
export function endWebRtc(logger?: { warn(details: object, message: string): void }): void {
  if (!inUse) return;
  inUse = false;
  try {
    nodeDataChannel.cleanup();
  } catch (error) {
    // Its wait for libdatachannel's threads is bounded (10 s) and throws when they have not
    // ended: the rest of the shutdown must still run, or its handles keep the process alive.
    logger?.warn({ err: error }, 'WebRTC cleanup did not finish');
  }
}
