// "Go live from the browser": the camera and microphone published over WHIP (RFC 9725) from
// the creator's own dashboard. The offer goes to this page's own endpoint, signed in by the
// session cookie and the CSRF token: the stream key never reaches the browser (the server
// presents it to the ingest). Stop ends the session (its Location's /stop); closing the tab drops the publish,
// which then ends as a dropped encoder does (the stream's reconnect window).
// @ts-check
/* global document, window, fetch, navigator, RTCPeerConnection */

const root = /** @type {HTMLElement} */ (document.getElementById('go-live'));
const startButton = /** @type {HTMLButtonElement} */ (document.getElementById('go-live-start'));
const stopButton = /** @type {HTMLButtonElement} */ (document.getElementById('go-live-stop'));
const statusLine = /** @type {HTMLElement} */ (document.getElementById('go-live-status'));
const preview = /** @type {HTMLVideoElement} */ (document.getElementById('go-live-preview'));
const csrfInput = /** @type {HTMLInputElement | null} */ (document.querySelector('input[name="_csrf"]'));

/** @type {{ peer: RTCPeerConnection, media: MediaStream, location: string | null } | undefined} */
let session;

/** @param {string} text @param {'idle' | 'live' | 'error'} state */
function say(text, state) {
  statusLine.textContent = text;
  root.dataset.state = state;
}

/** @param {RTCPeerConnection} peer */
function gathered(peer) {
  return new Promise((resolve) => {
    if (peer.iceGatheringState === 'complete') resolve(undefined);
    peer.addEventListener('icegatheringstatechange', () => {
      if (peer.iceGatheringState === 'complete') resolve(undefined);
    });
    window.setTimeout(resolve, 3000);
  });
}

/** @param {Response} response */
async function problemOf(response) {
  try {
    /** @type {unknown} */
    const parsed = await response.json();
    const body = /** @type {{ error?: { message?: string } }} */ (parsed);
    return body.error?.message ?? `The server answered ${response.status}.`;
  } catch {
    return `The server answered ${response.status}.`;
  }
}

/** The session of `peer`, unless it has been let go of. @param {RTCPeerConnection} peer */
function sessionOf(peer) {
  return session?.peer === peer ? session : undefined;
}

function release() {
  if (!session) return;
  session.peer.close();
  for (const track of session.media.getTracks()) track.stop();
  preview.srcObject = null;
  session = undefined;
  startButton.disabled = false;
  stopButton.disabled = true;
}

async function start() {
  startButton.disabled = true;
  say('Asking for your camera and microphone…', 'idle');
  let media;
  try {
    media = await navigator.mediaDevices.getUserMedia({
      video: { width: { ideal: 1280 }, height: { ideal: 720 }, frameRate: { ideal: 30 } },
      audio: true,
    });
  } catch (error) {
    startButton.disabled = false;
    say(
      `The camera or microphone is not available: ${error instanceof Error ? error.message : String(error)}`,
      'error',
    );
    return;
  }
  preview.srcObject = media;
  const peer = new RTCPeerConnection();
  session = { peer, media, location: null };
  for (const track of media.getTracks()) {
    const { sender } = peer.addTransceiver(track, { direction: 'sendonly' });
    // A busy computer lowers the frame rate rather than the picture size: every rendition of
    // the stream's ladder stays the size it started at.
    if (track.kind === 'video') {
      const parameters = sender.getParameters();
      parameters.degradationPreference = 'maintain-resolution';
      sender.setParameters(parameters).catch(() => undefined);
    }
  }
  peer.addEventListener('connectionstatechange', () => {
    if (peer.connectionState === 'failed' && session?.peer === peer) {
      release();
      say('The connection to the server was lost. Press Go live to start again.', 'error');
    }
  });
  say('Connecting…', 'idle');
  try {
    await peer.setLocalDescription(await peer.createOffer());
    await gathered(peer);
    const response = await fetch(root.dataset.offerUrl ?? '', {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/sdp',
        'x-csrf-token': csrfInput?.value ?? '',
      },
      body: peer.localDescription?.sdp ?? '',
      credentials: 'same-origin',
    });
    if (response.status !== 201) throw new Error(await problemOf(response));
    const location = response.headers.get('location');
    await peer.setRemoteDescription({ type: 'answer', sdp: await response.text() });
    // Stopped meanwhile (Stop, or the connection failed): nothing more to do.
    const current = sessionOf(peer);
    if (!current) return;
    current.location = location;
    stopButton.disabled = false;
    say('Live: publishing from this browser. Keep this tab open; press Stop to end.', 'live');
  } catch (error) {
    release();
    say(error instanceof Error ? error.message : String(error), 'error');
  }
}

async function stop() {
  const current = session;
  if (!current) return;
  stopButton.disabled = true;
  say('Stopping…', 'idle');
  if (current.location) {
    await fetch(`${current.location}/stop`, {
      method: 'POST',
      headers: { accept: 'application/json', 'x-csrf-token': csrfInput?.value ?? '' },
      credentials: 'same-origin',
    }).catch(() => undefined);
  }
  release();
  say('Stopped. The stream ends in a few seconds unless you go live again.', 'idle');
}

startButton.addEventListener('click', () => {
  void start();
});
stopButton.addEventListener('click', () => {
  void stop();
});
startButton.disabled = false;
