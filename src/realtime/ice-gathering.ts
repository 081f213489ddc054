// The wait for a node-datachannel peer connection to gather its ICE candidates, before its SDP
// goes out whole (WHIP and WHEP servers do not trickle, and neither do the test clients).
//
// libdatachannel's gathering-state callback is not stored: a change that happens before a
// callback is registered is lost. Gathering starts with the description (setLocalDescription,
// or setRemoteDescription of an offer) and on loopback it can be over before the next line of
// JavaScript: so the callback is registered first, and the state read after, which sees a
// completion that came before the registration.
import type { PeerConnection } from 'node-datachannel';

/**
 * Resolves once `peer` has gathered its candidates (true), or after `timeoutMs` with what it
 * has so far (false): a description without every candidate may still connect.
 */
export function iceGathered(peer: PeerConnection, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs, false);
    const complete = () => {
      clearTimeout(timer);
      resolve(true);
    };
    peer.onGatheringStateChange((state) => {
      if (state === 'complete') complete();
    });
    if (peer.gatheringState() === 'complete') complete();
  });
}
