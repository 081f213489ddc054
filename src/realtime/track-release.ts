// When node-datachannel's Track wrappers may be let go. Every track made (addTrack) or announced
// (onTrack) goes through watchTrack, and every closed peer connection's tracks through
// releaseWhenClosed. Two defects of node-datachannel 0.33.4 make this necessary:
//
// - TrackWrapper lists each wrapper in a static set that only the track's "closed" callback
//   empties (TrackWrapper::doCleanup), and only when onClosed was registered; its destructor does
//   not. A wrapper the garbage collector takes first stays listed, and nodeDataChannel.cleanup()
//   (the service's shutdown, TrackWrapper::CloseAll) closes it through freed memory: SIGSEGV or
//   SIGBUS (test/realtime/track-release.test.ts shows it).
// - The wrapper's libdatachannel callbacks capture the wrapper itself; closing the peer
//   connection closes its tracks later, on libdatachannel's processor thread, which resets those
//   callbacks only after announcing the close. A wrapper collected in between is called into
//   after it is freed by the next packet from the still-running transport: the SIGSEGV, or a
//   failed call into a released thread-safe function: the SIGABRT (test/whip/whip-fuzz.test.ts
//   found both).
//
// So a track is held from its birth until its close is announced in JavaScript and
// TRACK_RELEASE_MS more, then closed from here (which releases its thread-safe functions) and
// let go. A track whose close is never announced (its connection closed before onClosed could
// be registered) is closed after TRACK_CLOSE_TIMEOUT_MS but stays held for the process's life:
// a few hundred bytes each, against a crash at shutdown.
import type { PeerConnection, Track } from 'node-datachannel';

const TRACK_RELEASE_MS = 1000;
const TRACK_CLOSE_TIMEOUT_MS = 30_000;

export interface WatchedTrack {
  readonly track: Track;
  /** Settles when libdatachannel announces the track's close. */
  readonly closed: Promise<void>;
  /** Whether it has. */
  readonly announced: boolean;
}

interface Logger {
  debug(details: object, message: string): void;
}

/** Tracks not yet let go, and the peer connections closing them. */
const held = new Set<object>();

/** Holds a new track and registers its close callback (without which it is never cleaned up). */
export function watchTrack(track: Track): WatchedTrack {
  held.add(track);
  let announced = false;
  const closed = new Promise<void>((resolve) => {
    try {
      track.onClosed(() => {
        announced = true;
        resolve();
      });
    } catch {
      // Closed by the library already: nothing will announce it, the timeout applies.
    }
  });
  return {
    track,
    closed,
    get announced() {
      return announced;
    },
  };
}

/**
 * Lets go of a closed connection's tracks once libdatachannel has closed them. Call after
 * peer.close(); the peer (and `alongside`, such as the tracks' media handlers) is held too.
 */
export function releaseWhenClosed(
  peer: PeerConnection | undefined,
  tracks: readonly WatchedTrack[],
  logger?: Logger,
  alongside?: unknown,
): void {
  const closing = { peer, tracks, alongside };
  held.add(closing);
  const since = Date.now();
  let timeout: NodeJS.Timeout | undefined;
  const announced = Promise.all(tracks.map((entry) => entry.closed)).then(() => true);
  const late = new Promise<boolean>((resolve) => {
    timeout = setTimeout(resolve, TRACK_CLOSE_TIMEOUT_MS, false);
    timeout.unref();
  });
  void Promise.race([announced, late]).then((inTime) => {
    clearTimeout(timeout);
    logger?.debug({ tracks: tracks.length, inTime, afterMs: Date.now() - since }, 'webrtc tracks closed');
    setTimeout(() => {
      for (const entry of tracks) {
        try {
          entry.track.close();
        } catch {
          // Already let go by the library.
        }
        if (entry.announced) held.delete(entry.track);
      }
      held.delete(closing);
    }, TRACK_RELEASE_MS).unref();
  });
}

/** Tracks and closing connections held now (tests). */
export function heldCount(): number {
  return held.size;
}
