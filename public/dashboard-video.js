// A video's page in the dashboard: plays it with hls.js, as the watch page does.
// @ts-check
/* global document, window */

// A block of its own: the page loads several scripts into one global scope.
{
  /** @type {unknown} */
  const parsed = JSON.parse(/** @type {HTMLElement} */ (document.getElementById('video-data')).textContent);
  const data = /** @type {{ playback_url: string | null }} */ (parsed);
  const video = /** @type {HTMLVideoElement} */ (document.getElementById('video-player'));

  if (data.playback_url) {
    if (window.Hls.isSupported()) {
      const hls = new window.Hls();
      hls.loadSource(data.playback_url);
      hls.attachMedia(video);
    } else {
      video.src = data.playback_url;
    }
  }
}
