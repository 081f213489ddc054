// WebRTC playback of a realtime stream over WHEP (draft-ietf-wish-whep): an RTCPeerConnection
// receiving video and audio, its offer (with every ICE candidate gathered) posted to the
// stream's WHEP endpoint, the answer applied, the media shown in the page's <video>. The
// watch page (watch.js) falls back to HLS when this refuses or fails: the server refused
// (capacity, not realtime), the browser has no WebRTC, or no frame arrives in time.
// Plain browser JavaScript, type-checked through public/tsconfig.json.
// @ts-check
/* global window, fetch, setTimeout, clearTimeout, RTCPeerConnection, MediaStream */

/** How long ICE gathering may take before the offer goes with what it has. */
const GATHER_MS = 2000;
/** How long the first frame may take (the server holds a new viewer for the next keyframe). */
const FIRST_FRAME_MS = 8000;

/**
 * Plays the stream at `whepUrl` in `video`. Resolves once frames are shown, with a handle whose
 * close() ends the session (DELETE on its Location) and whose `ended` resolves when the
 * connection is lost; rejects with an Error whose `code` is the server's error code (or
 * `unsupported`, `timeout`, `failed`) otherwise.
 * @param {HTMLVideoElement} video
 * @param {string} whepUrl
 * @returns {Promise<{ close(): void, ended: Promise<void>, pc: RTCPeerConnection }>}
 */
async function play(video, whepUrl) {
  if (typeof RTCPeerConnection !== 'function') throw failure('unsupported', 'This browser has no WebRTC.');
  const pc = new RTCPeerConnection();
  /** @type {string | null} */
  let location_ = null;
  const close = () => {
    pc.close();
    if (location_ !== null) {
      fetch(new URL(location_, whepUrl).toString(), { method: 'DELETE', keepalive: true }).catch(() => {});
      location_ = null;
    }
  };
  try {
    pc.addTransceiver('video', { direction: 'recvonly' });
    pc.addTransceiver('audio', { direction: 'recvonly' });
    const stream = new MediaStream();
    pc.ontrack = (event) => {
      stream.addTrack(event.track);
      if (video.srcObject !== stream) video.srcObject = stream;
    };
    await pc.setLocalDescription(await pc.createOffer());
    await gathered(pc);
    const response = await fetch(whepUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/sdp' },
      body: pc.localDescription?.sdp ?? '',
    });
    if (response.status !== 201) {
      /** @type {{ error?: { code?: string, message?: string } }} */
      let body = {};
      try {
        /** @type {unknown} */
        const parsed = await response.json();
        body = /** @type {typeof body} */ (parsed);
      } catch {
        // not JSON: the status says enough
      }
      throw failure(
        body.error?.code ?? `http_${response.status}`,
        body.error?.message ?? response.statusText,
      );
    }
    location_ = response.headers.get('Location');
    await pc.setRemoteDescription({ type: 'answer', sdp: await response.text() });
    await firstFrame(video, pc);
  } catch (error) {
    close();
    throw error;
  }
  /** @type {Promise<void>} */
  const ended = new Promise((resolve) => {
    pc.addEventListener('connectionstatechange', () => {
      if (pc.connectionState === 'failed' || pc.connectionState === 'closed') resolve();
    });
  });
  return { close, ended, pc };
}

/**
 * @param {string} code
 * @param {string} message
 */
function failure(code, message) {
  return Object.assign(new Error(message), { code });
}

/** @param {RTCPeerConnection} pc */
function gathered(pc) {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, GATHER_MS);
    pc.addEventListener('icegatheringstatechange', () => {
      if (pc.iceGatheringState === 'complete') {
        clearTimeout(timer);
        resolve(undefined);
      }
    });
  });
}

/**
 * Resolves when the video shows its first frame; rejects when the connection fails or no frame
 * comes in time.
 * @param {HTMLVideoElement} video
 * @param {RTCPeerConnection} pc
 */
function firstFrame(video, pc) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(failure('timeout', 'No picture arrived over WebRTC in time.'));
    }, FIRST_FRAME_MS);
    const done = () => {
      clearTimeout(timer);
      resolve(undefined);
    };
    if (video.readyState >= 2) done();
    else video.addEventListener('loadeddata', done, { once: true });
    pc.addEventListener('connectionstatechange', () => {
      if (pc.connectionState === 'failed') {
        clearTimeout(timer);
        reject(failure('failed', 'The WebRTC connection failed.'));
      }
    });
    video.play().catch(() => {});
  });
}

window.tributaryRealtime = { play };
