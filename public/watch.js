// The watch page's player: plays the stream or video with hls.js (served by the project,
// see src/media/watch.routes.ts), shows status and viewers, and starts a stream's player as
// soon as it goes live. Plain browser JavaScript, type-checked through public/tsconfig.json.
// @ts-check
/* global document, window, crypto, location, fetch, setInterval, clearInterval */

/** @typedef {{ kind: 'stream' | 'video', id: string, title: string, status: string, reconnecting: boolean, viewer_count: number | null, peak_viewer_count: number | null, duration_seconds: number | null, playback_url: string | null, thumbnail_url: string | null, latency_mode: 'normal' | 'low' | null, info_url: string }} WatchInfo */

const POLL_MS = 5000;

const video = /** @type {HTMLVideoElement} */ (document.getElementById('player'));
const statusEl = /** @type {HTMLElement} */ (document.getElementById('status'));
const viewersEl = /** @type {HTMLElement} */ (document.getElementById('viewers'));
const noticeEl = /** @type {HTMLElement} */ (document.getElementById('notice'));
const dataEl = /** @type {HTMLElement} */ (document.getElementById('watch-data'));
const playerEl = /** @type {HTMLElement} */ (video.parentElement);

/** @type {unknown} */
const initial = JSON.parse(dataEl.textContent);
let info = /** @type {WatchInfo} */ (initial);
let started = false;
/** The player, once started (a stream an operator removes is stopped). @type {{ destroy(): void } | undefined} */
let player;
/** Set when the info answers 404: taken down, or its creator suspended (src/moderation/). */
let removed = false;
/** Whether the notice shows the reconnecting message (so only that one is cleared when it ends). */
let showingReconnect = false;

const RECONNECTING_NOTICE =
  'The broadcaster lost their connection. The stream continues here as soon as they are back.';

/**
 * Identifies this player in its presence signals until the server's cookie does (the first
 * answer sets it, so a reload of the page is still the same viewer).
 */
const viewerId = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
  b.toString(16).padStart(2, '0'),
).join('');

const STATUS_LABELS = /** @type {Record<string, string>} */ ({
  scheduled: 'Starting soon',
  live: 'Live',
  ended: 'Ended',
  published: 'Video',
  reconnecting: 'Reconnecting',
});

/** @param {string} text */
function notice(text) {
  noticeEl.textContent = text;
  noticeEl.hidden = text === '';
}

/** @param {number} seconds */
function clock(seconds) {
  const m = Math.floor(seconds / 60);
  const s = String(Math.floor(seconds % 60)).padStart(2, '0');
  return `${m}:${s}`;
}

function render() {
  // A live stream waiting for its publisher is not shown as live: its last frame is frozen.
  const reconnecting = info.kind === 'stream' && info.status === 'live' && info.reconnecting;
  const status = reconnecting ? 'reconnecting' : info.status;
  statusEl.textContent = STATUS_LABELS[status] ?? status;
  statusEl.className = `status status-${status}`;
  playerEl.classList.toggle('reconnecting', reconnecting);
  if (reconnecting && !showingReconnect) {
    showingReconnect = true;
    notice(RECONNECTING_NOTICE);
  } else if (!reconnecting && showingReconnect) {
    showingReconnect = false;
    notice('');
  }
  if (info.status === 'live') {
    const n = info.viewer_count ?? 0;
    viewersEl.textContent = `${n} watching`;
  } else if (info.status === 'ended' && info.peak_viewer_count !== null) {
    viewersEl.textContent = `peak ${info.peak_viewer_count} watching`;
  } else if (info.kind === 'video' && info.duration_seconds !== null) {
    viewersEl.textContent = clock(info.duration_seconds);
  } else {
    viewersEl.textContent = '';
  }
  viewersEl.dataset.count = String(info.viewer_count ?? '');
  if (!started && info.kind === 'stream' && info.status === 'scheduled') {
    notice('This stream has not started yet. It will play here as soon as it does.');
  }
}

/**
 * hls.js settings for a stream's latency mode (a video plays with the normal ones). Distances
 * are in seconds of media behind the newest segment; the packager adds about half a segment
 * (the newest one is still being written) and the playlist reload another half.
 * - liveSyncDuration: where playback starts and what catch-up aims for. `low` streams have 1 s
 *   segments, so 1.5 s keeps one and a half segments of buffer; `normal` (2 s) keeps 3 s.
 * - liveMaxLatencyDuration: further behind than this (a long stall, a publisher's reconnect),
 *   the player jumps to the live edge instead of staying late.
 * - maxLiveSyncPlaybackRate: between the two it plays slightly faster until it is back on
 *   target; 1.1 to 1.15 is not heard as a pitch change.
 * - liveSyncOnStallIncrease: hls.js moves its target back after every stall (1 s by default,
 *   up to a segment), and never forward again. A reconnect and a busy start stall by design,
 *   so the step is a quarter second: with 0.5 the bench's normal streams settled 1 s later
 *   (6.1 s instead of 5.0 s p50).
 * - lowLatencyMode: needed for the rate catch-up at all (there are no partial segments).
 * - initialLiveManifestSize: a page open when the stream goes live would start on its first
 *   segment with nothing to sync back to and stall at once (each stall moving the target back);
 *   waiting for two segments gives the sync distance to stand on.
 * @param {'normal' | 'low' | null} latencyMode
 */
function playerConfigFor(latencyMode) {
  if (latencyMode === 'low') {
    return {
      lowLatencyMode: true,
      initialLiveManifestSize: 2,
      liveSyncDuration: 1.5,
      liveMaxLatencyDuration: 4,
      maxLiveSyncPlaybackRate: 1.15,
      liveSyncOnStallIncrease: 0.25,
    };
  }
  return {
    lowLatencyMode: true,
    initialLiveManifestSize: 2,
    liveSyncDuration: 3,
    liveMaxLatencyDuration: 8,
    maxLiveSyncPlaybackRate: 1.1,
    liveSyncOnStallIncrease: 0.25,
  };
}

/** @param {string} url */
function startPlayer(url) {
  if (started) return;
  started = true;
  // The scheduled stream's notice goes; the reconnecting one stays until the publisher is back.
  if (!showingReconnect) notice('');
  const source = new URL(url, location.href);
  if (window.Hls.isSupported()) {
    const hls = new window.Hls(playerConfigFor(info.latency_mode));
    hls.on(window.Hls.Events.ERROR, (_event, data) => {
      if (!data.fatal) return;
      if (data.type === window.Hls.ErrorTypes.MEDIA_ERROR) hls.recoverMediaError();
      else notice('Playback stopped; reload the page to try again.');
    });
    hls.loadSource(source.toString());
    hls.attachMedia(video);
    player = hls;
  } else if (video.canPlayType('application/vnd.apple.mpegurl') !== '') {
    video.src = source.toString();
  } else {
    notice('This browser cannot play HLS video.');
    return;
  }
  video.play().catch(() => {
    notice('Press play to start.');
  });
}

function maybeStart() {
  if (info.playback_url === null) return;
  if (info.kind === 'video' || info.status === 'live' || info.status === 'ended') {
    startPlayer(info.playback_url);
  }
}

/** The stream or video is gone (an operator removed it): the player stops and says so. */
function showRemoved() {
  removed = true;
  player?.destroy();
  player = undefined;
  video.pause();
  // Nothing of it stays on screen: neither its last frame nor its thumbnail.
  video.removeAttribute('src');
  video.removeAttribute('poster');
  video.load();
  const unmute = document.getElementById('unmute');
  if (unmute) unmute.hidden = true;
  const report = document.getElementById('report');
  if (report) report.hidden = true;
  statusEl.textContent = 'Unavailable';
  statusEl.className = 'status status-ended';
  viewersEl.textContent = '';
  notice(`This ${info.kind} is no longer available.`);
}

async function poll() {
  if (removed) return;
  try {
    const response = await fetch(info.info_url, { cache: 'no-store' });
    if (response.status === 404) {
      showRemoved();
      return;
    }
    if (response.ok) {
      /** @type {unknown} */
      const fresh = await response.json();
      info = { .../** @type {WatchInfo} */ (fresh), info_url: info.info_url };
      render();
      maybeStart();
    }
  } catch {
    // Offline for a moment: the next poll tries again.
  }
}

/** How often a playing player tells the server it is still watching (viewer-contract.md). */
const PRESENCE_MS = 5000;
/** @type {ReturnType<typeof setInterval> | undefined} */
let presenceTimer;

/** One presence signal: counts this viewer live, or one view of a video per day. */
function sendPresence() {
  const url = `${info.info_url.replace(/\/info$/, '')}/presence?viewer=${viewerId}`;
  fetch(url, { method: 'POST', cache: 'no-store', credentials: 'same-origin' }).catch(() => {
    // Offline for a moment: the next signal tries again.
  });
}

/** Signals once when playback starts and every 5 s while it plays; a paused player stops. */
function trackPresence() {
  video.addEventListener('playing', () => {
    if (presenceTimer !== undefined) return;
    sendPresence();
    presenceTimer = setInterval(sendPresence, PRESENCE_MS);
  });
  const stop = () => {
    if (presenceTimer === undefined) return;
    clearInterval(presenceTimer);
    presenceTimer = undefined;
  };
  video.addEventListener('pause', stop);
  video.addEventListener('ended', stop);
}

trackPresence();
render();
maybeStart();
setInterval(() => {
  void poll();
}, POLL_MS);

// --- Unmute hint: browsers allow autoplay only muted, so say so and offer the sound. ---

const unmuteButton = /** @type {HTMLButtonElement} */ (document.getElementById('unmute'));

function showUnmuteHint() {
  unmuteButton.hidden = !(video.muted && !video.paused);
}

function setUpUnmuteHint() {
  unmuteButton.addEventListener('click', () => {
    video.muted = false;
    // Some browsers pause a video that gains sound without a gesture they trust; keep playing.
    void video.play().catch(() => undefined);
    unmuteButton.hidden = true;
    video.focus();
  });
  video.addEventListener('playing', showUnmuteHint);
  video.addEventListener('volumechange', showUnmuteHint);
}

// --- Subscribe button: the page is the same for everyone, so who is signed in is asked. ---

const subscribeEl = /** @type {HTMLElement} */ (document.getElementById('subscribe'));

/**
 * @param {string} name
 * @param {string} value
 */
function hiddenField(name, value) {
  const input = document.createElement('input');
  input.type = 'hidden';
  input.name = name;
  input.value = value;
  return input;
}

async function setUpSubscribe() {
  // Without public/subscribe.js (an old cached page) there is no button; the channel link stays.
  if (!('tributarySubscribe' in window)) return;
  const stateUrl = subscribeEl.dataset.stateUrl;
  if (stateUrl === undefined) return;
  /** @type {{ signed_in: boolean, own: boolean, subscribed: boolean | null, subscribers: number, csrf_token: string }} */
  let state;
  try {
    const response = await fetch(stateUrl, { cache: 'no-store', headers: { accept: 'application/json' } });
    if (!response.ok) return;
    /** @type {unknown} */
    const body = await response.json();
    state = /** @type {typeof state} */ (body);
  } catch {
    return;
  }
  const counter = document.createElement('p');
  counter.dataset.subscriberCount = '';
  counter.textContent = window.tributarySubscribe.countText(state.subscribers);
  subscribeEl.append(counter);
  const channel = stateUrl.replace(/\/subscription$/, '');
  if (state.own) return;
  if (!state.signed_in) {
    const link = document.createElement('a');
    link.className = 'button primary';
    link.href = `${channel.replace(/\/channels\/[^/]+$/, '')}/sign-in?next=${encodeURIComponent(location.pathname)}`;
    link.textContent = 'Sign in to subscribe';
    subscribeEl.append(link);
    return;
  }
  const form = document.createElement('form');
  form.className = 'subscribe-form';
  form.method = 'post';
  form.action = `${channel}/${state.subscribed ? 'unsubscribe' : 'subscribe'}`;
  form.append(hiddenField('_csrf', state.csrf_token), hiddenField('next', location.pathname));
  const button = document.createElement('button');
  button.type = 'submit';
  button.className = 'button';
  form.append(button);
  subscribeEl.append(form);
  window.tributarySubscribe.show(form, state.subscribed === true);
  window.tributarySubscribe.enhance(form);
}

setUpUnmuteHint();
void setUpSubscribe();
