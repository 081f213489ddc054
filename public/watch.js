// The watch page's player: plays the stream or video with hls.js (served by the project,
// see src/media/watch.routes.ts), shows status and viewers, and starts a stream's player as
// soon as it goes live. Plain browser JavaScript, type-checked through public/tsconfig.json.
// @ts-check
/* global document, window, crypto, location, fetch, setInterval, clearInterval */

/** @typedef {{ kind: 'stream' | 'video', id: string, title: string, status: string, reconnecting: boolean, viewer_count: number | null, peak_viewer_count: number | null, duration_seconds: number | null, playback_url: string | null, thumbnail_url: string | null, latency_mode: 'normal' | 'low' | 'realtime' | null, info_url: string }} WatchInfo */

const POLL_MS = 5000;

const video = /** @type {HTMLVideoElement} */ (document.getElementById('player'));
// The embedded player (/embed/{id}) has no status, viewers or Subscribe: each is optional.
const statusEl = document.getElementById('status');
const viewersEl = document.getElementById('viewers');
const noticeEl = /** @type {HTMLElement} */ (document.getElementById('notice'));
const dataEl = /** @type {HTMLElement} */ (document.getElementById('watch-data'));
const playerEl = /** @type {HTMLElement} */ (video.parentElement);

/** @type {unknown} */
const initial = JSON.parse(dataEl.textContent);
let info = /** @type {WatchInfo} */ (initial);
let started = false;
/** The player, once started (a stream an operator removes is stopped). @type {{ destroy(): void } | undefined} */
let activeHls;
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
  if (statusEl) {
    statusEl.textContent = STATUS_LABELS[status] ?? status;
    statusEl.className = `status status-${status}`;
  }
  playerEl.classList.toggle('reconnecting', reconnecting);
  if (reconnecting && !showingReconnect) {
    showingReconnect = true;
    notice(RECONNECTING_NOTICE);
  } else if (!reconnecting && showingReconnect) {
    showingReconnect = false;
    notice('');
  }
  if (viewersEl) renderViewers(viewersEl);
  if (!started && info.kind === 'stream' && info.status === 'scheduled') {
    notice('This stream has not started yet. It will play here as soon as it does.');
  }
}

/** @param {HTMLElement} viewersEl */
function renderViewers(viewersEl) {
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
 * A realtime stream's HLS (when WebRTC is refused or unavailable) is a `low` one.
 * @param {'normal' | 'low' | 'realtime' | null} latencyMode
 */
function playerConfigFor(latencyMode) {
  if (latencyMode === 'low' || latencyMode === 'realtime') {
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
  playerEl.dataset.transport = 'hls';
  if (window.Hls.isSupported()) {
    const hls = new window.Hls(playerConfigFor(info.latency_mode));
    setUpQuality(hls);
    hls.on(window.Hls.Events.ERROR, (_event, data) => {
      if (!data.fatal) return;
      if (data.type === window.Hls.ErrorTypes.MEDIA_ERROR) hls.recoverMediaError();
      else notice('Playback stopped; reload the page to try again.');
    });
    hls.loadSource(source.toString());
    hls.attachMedia(video);
    activeHls = hls;
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

/**
 * A live realtime stream plays over WebRTC (public/realtime.js) first; when the server refuses
 * (its WebRTC capacity is reached, the stream is not sent over WebRTC here) or WebRTC fails,
 * the page plays the stream's low-latency HLS instead, once, and says which it plays in the
 * player element's data-transport (`webrtc` or `hls`) and, after a refusal, data-realtime-refused.
 */
let realtimeTried = false;
/** The WebRTC session, while it plays. @type {{ close(): void } | undefined} */
let realtimeSession;

function startRealtime() {
  realtimeTried = true;
  started = true;
  if (!showingReconnect) notice('');
  playerEl.dataset.transport = 'connecting';
  const realtime = window.tributaryRealtime;
  const attempt = realtime
    ? realtime.play(video, `/v1/streams/${encodeURIComponent(info.id)}/whep`)
    : Promise.reject(Object.assign(new Error('no realtime script'), { code: 'unsupported' }));
  attempt.then(
    (session) => {
      realtimeSession = session;
      playerEl.dataset.transport = 'webrtc';
      if (latencyEl) {
        latencyEl.hidden = false;
        latencyEl.textContent = 'Realtime';
      }
      void session.ended.then(() => {
        if (realtimeSession !== session || removed) return;
        realtimeSession = undefined;
        fallBackToHls('ended');
      });
    },
    (/** @type {unknown} */ error) => {
      const code = error instanceof Error && 'code' in error ? String(error.code) : 'failed';
      fallBackToHls(code);
    },
  );
}

/** @param {string} reason */
function fallBackToHls(reason) {
  playerEl.dataset.realtimeRefused = reason;
  playerEl.dataset.transport = 'hls';
  video.srcObject = null;
  started = false;
  maybeStart();
}

function maybeStart() {
  if (
    !started &&
    !realtimeTried &&
    info.kind === 'stream' &&
    info.latency_mode === 'realtime' &&
    info.status === 'live'
  ) {
    startRealtime();
    return;
  }
  if (info.playback_url === null) return;
  if (info.kind === 'video' || info.status === 'live' || info.status === 'ended') {
    startPlayer(info.playback_url);
  }
}

/** The stream or video is gone (an operator removed it): the player stops and says so. */
function showRemoved() {
  removed = true;
  realtimeSession?.close();
  realtimeSession = undefined;
  activeHls?.destroy();
  activeHls = undefined;
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

// --- The player's settings: quality, latency, theatre, picture in picture, full screen,
// Share, and the keyboard shortcuts the page lists (src/media/watch-page.ts SHORTCUTS). ---

const watchEl = /** @type {HTMLElement} */ (document.getElementById('watch'));
const qualityEl = /** @type {HTMLSelectElement | null} */ (document.getElementById('quality'));
const qualityNowEl = document.getElementById('quality-current');
const latencyEl = document.getElementById('latency');
const theatreButton = /** @type {HTMLButtonElement | null} */ (document.getElementById('theatre'));
const pipButton = /** @type {HTMLButtonElement | null} */ (document.getElementById('pip'));
const fullscreenButton = /** @type {HTMLButtonElement | null} */ (document.getElementById('fullscreen'));
const shareButton = /** @type {HTMLButtonElement | null} */ (document.getElementById('share-button'));
const sharePanel = document.getElementById('share');
const playerStatusEl = document.getElementById('player-status');
/** Theatre mode is offered from this width up (watch.css hides its button below). */
const WIDE = window.matchMedia('(min-width: 64rem)');
const THEATRE_KEY = 'tributary.theatre';
const SEEK_SECONDS = 5;

/** @type {import('hls.js').default | null} */
let player = null;

/** Says what a shortcut did, for screen readers (and tests). @param {string} text */
function announce(text) {
  if (playerStatusEl) playerStatusEl.textContent = text;
}

/** @param {import('hls.js').Level} level */
function levelLabel(level) {
  if (level.height > 0) return `${level.height}p`;
  // A stream passed through as the encoder sent it names neither size nor bitrate in its playlist.
  return level.bitrate > 0 ? `${Math.round(level.bitrate / 1000)} kb/s` : 'Source';
}

/** The menu names what plays now: "Auto (480p)" while automatic, and beside it the rendition. */
function showLevel() {
  if (!qualityEl || !player) return;
  /** @type {import('hls.js').Level | undefined} */
  const playing = player.levels.at(player.currentLevel < 0 ? player.levels.length : player.currentLevel);
  const auto = qualityEl.options.item(0);
  if (auto) auto.textContent = player.autoLevelEnabled && playing ? `Auto (${levelLabel(playing)})` : 'Auto';
  qualityEl.value = player.autoLevelEnabled ? '-1' : String(player.currentLevel);
  if (qualityNowEl) qualityNowEl.textContent = playing ? `Playing ${levelLabel(playing)}` : '';
  qualityEl.dataset.level = String(player.currentLevel);
}

/** @param {import('hls.js').default} hls */
function setUpQuality(hls) {
  player = hls;
  if (!qualityEl) return;
  hls.on(window.Hls.Events.MANIFEST_PARSED, () => {
    const options = [new window.Option('Auto', '-1')];
    // Highest first, as menus of players list them.
    const order = hls.levels.map((level, index) => ({ level, index }));
    order.sort((a, b) => b.level.height - a.level.height || b.level.bitrate - a.level.bitrate);
    for (const { level, index } of order) options.push(new window.Option(levelLabel(level), String(index)));
    qualityEl.replaceChildren(...options);
    qualityEl.disabled = hls.levels.length < 2;
    showLevel();
  });
  hls.on(window.Hls.Events.LEVEL_SWITCHED, showLevel);
  qualityEl.addEventListener('change', () => {
    // A chosen rendition plays from the next fragment on; -1 gives the choice back to hls.js.
    hls.currentLevel = Number(qualityEl.value);
    showLevel();
  });
}

/** A live stream's distance behind its newest media, as hls.js measures it. */
function showLatency() {
  if (!latencyEl) return;
  if (realtimeSession) {
    // WebRTC plays as close to live as the network allows: well under a second.
    latencyEl.hidden = false;
    latencyEl.textContent = 'Realtime';
    return;
  }
  const live = info.kind === 'stream' && info.status === 'live' && player !== null;
  const seconds = live && player ? player.latency : 0;
  latencyEl.hidden = !(live && seconds > 0);
  if (!latencyEl.hidden) latencyEl.textContent = `Latency ${seconds.toFixed(1)} s`;
}

/** Whether the viewer asked for theatre mode (it shows only while the window is wide). */
let theatreWanted = false;

/** @param {boolean} on */
function setTheatre(on) {
  if (!theatreButton) return;
  theatreWanted = on;
  const active = on && WIDE.matches;
  watchEl.classList.toggle('theatre', active);
  theatreButton.setAttribute('aria-pressed', String(active));
  try {
    window.localStorage.setItem(THEATRE_KEY, on ? '1' : '0');
  } catch {
    // Storage refused (a private window): the choice lasts for this page only.
  }
}

function toggleTheatre() {
  if (!theatreButton || !WIDE.matches) return;
  setTheatre(!theatreWanted);
  announce(watchEl.classList.contains('theatre') ? 'Theatre mode' : 'Default view');
}

function togglePictureInPicture() {
  if (!document.pictureInPictureEnabled) return;
  if (document.pictureInPictureElement) {
    void document.exitPictureInPicture().catch(() => undefined);
  } else {
    video.requestPictureInPicture().catch(() => {
      announce('Picture in picture is not available for this video yet.');
    });
  }
}

function toggleFullscreen() {
  if (document.fullscreenElement) {
    void document.exitFullscreen().catch(() => undefined);
  } else {
    // The player's box, not the bare video: the notice and Unmute stay over it.
    playerEl.requestFullscreen().catch(() => {
      announce('Full screen is not available here.');
    });
  }
}

function togglePlay() {
  if (video.paused) void video.play().catch(() => undefined);
  else video.pause();
}

/** @param {number} delta */
function seekBy(delta) {
  const seekable = video.seekable;
  if (seekable.length === 0) return;
  const start = seekable.start(0);
  const end = seekable.end(seekable.length - 1);
  video.currentTime = Math.min(end, Math.max(start, video.currentTime + delta));
  announce(`${delta < 0 ? 'Back' : 'Forward'} ${Math.abs(delta)} seconds`);
}

/** @param {number} delta */
function changeVolume(delta) {
  video.volume = Math.round(Math.min(1, Math.max(0, video.volume + delta)) * 100) / 100;
  if (delta > 0) video.muted = false;
  announce(`Volume ${Math.round(video.volume * 100)}%`);
}

/** Elements where keys type or act on their own: the shortcuts leave them alone. */
const TYPING = 'input, textarea, select, [contenteditable]';
const ACTIVATED_BY_SPACE = 'button, a, summary';

/** @param {KeyboardEvent} event */
function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
  const target = event.target instanceof Element ? event.target : null;
  if (target?.closest(TYPING)) return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if ((key === ' ' || key === 'Enter') && target?.closest(ACTIVATED_BY_SPACE)) return;
  /** @type {Partial<Record<string, () => void>>} */
  const actions = {
    ' ': togglePlay,
    k: togglePlay,
    f: toggleFullscreen,
    m: () => {
      video.muted = !video.muted;
      announce(video.muted ? 'Muted' : 'Sound on');
    },
    ArrowLeft: () => {
      seekBy(-SEEK_SECONDS);
    },
    ArrowRight: () => {
      seekBy(SEEK_SECONDS);
    },
    ArrowUp: () => {
      changeVolume(0.1);
    },
    ArrowDown: () => {
      changeVolume(-0.1);
    },
    t: toggleTheatre,
    i: togglePictureInPicture,
  };
  const action = actions[key];
  if (!action) return;
  event.preventDefault();
  action();
}

function setUpControls() {
  document.addEventListener('keydown', onKey);
  video.addEventListener('play', () => {
    announce('Playing');
  });
  video.addEventListener('pause', () => {
    announce('Paused');
  });
  fullscreenButton?.addEventListener('click', toggleFullscreen);
  if (pipButton && document.pictureInPictureEnabled) {
    pipButton.hidden = false;
    pipButton.addEventListener('click', togglePictureInPicture);
    video.addEventListener('enterpictureinpicture', () => {
      pipButton.setAttribute('aria-pressed', 'true');
    });
    video.addEventListener('leavepictureinpicture', () => {
      pipButton.setAttribute('aria-pressed', 'false');
    });
  }
  document.addEventListener('fullscreenchange', () => {
    fullscreenButton?.setAttribute('aria-pressed', String(document.fullscreenElement !== null));
  });
  if (theatreButton) {
    theatreButton.addEventListener('click', toggleTheatre);
    /** @type {string | null} */
    let stored;
    try {
      stored = window.localStorage.getItem(THEATRE_KEY);
    } catch {
      stored = null;
    }
    setTheatre(stored === '1');
    WIDE.addEventListener('change', () => {
      setTheatre(theatreWanted);
    });
  }
  if (shareButton && sharePanel) {
    shareButton.addEventListener('click', () => {
      sharePanel.hidden = !sharePanel.hidden;
      shareButton.setAttribute('aria-expanded', String(!sharePanel.hidden));
      if (!sharePanel.hidden) document.getElementById('share-link')?.focus();
    });
  }
  setInterval(showLatency, 1000);
}

setUpControls();

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

const subscribeEl = document.getElementById('subscribe');

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
  if (!('tributarySubscribe' in window) || !subscribeEl) return;
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

// Leaving the page ends the WebRTC session at once (DELETE), rather than when ICE times out.
window.addEventListener('pagehide', () => {
  realtimeSession?.close();
});
setUpUnmuteHint();
void setUpSubscribe();
