// ICE for the WebRTC servers and clients on node-datachannel. First the wait for a peer
// connection to gather its ICE candidates, before its SDP goes out whole (WHIP and WHEP servers
// do not trickle, and neither do the test clients).
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

/**
 * A client's offer as the servers (WHIP ingest, WHEP playback) give it to libdatachannel: without
 * its ICE candidates, so that the server's ICE agent never checks towards the client and only
 * answers the client's checks (the address it learns from them, a peer-reflexive candidate, as
 * an ICE-lite media server does).
 *
 * Why: with the client's candidates, the server's ICE (controlled) validates a pair on its own
 * before the client has even read the answer, and its DTLS (the answer is `setup:active`) sends
 * its ClientHello at once. A libdatachannel client (OBS's WHIP output, node-datachannel
 * players) that gets it while applying the answer verifies the certificate before it has
 * stored the answer's fingerprint (its setRemoteDescription starts ICE, which is already
 * connected, before it records the description): "DTLS alert: unknown CA", the connection
 * fails, and setRemoteDescription throws "Got a remote candidate without ICE transport". Seen
 * in about one publish in four on a loaded machine. With the client's checks first, the
 * server's DTLS starts only after the client has applied the answer.
 */
export function withoutRemoteCandidates(offer: string): string {
  return offer
    .split(/\r?\n/)
    .filter((line) => !line.startsWith('a=candidate:') && line !== 'a=end-of-candidates')
    .join('\r\n');
}
