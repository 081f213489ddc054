// The creator's stream page: the live preview (hls.js, as on the watch page), status and viewer
// count pushed by the server (server-sent events from /dashboard/streams/{id}/events), and the
// viewer-count chart (uPlot) drawn from the recorded samples and extended as counts arrive, and
// the encoder health panel while live (its markup comes with each event, rendered and escaped by
// the server, src/web/dashboard/health-pages.ts).
// @ts-check
/* global document, window, EventSource, setTimeout */

// A block of its own: the page loads several scripts into one global scope.
{
  /** @typedef {{ events_url: string, playback_url: string | null, key_url: string, status: string, samples: [number, number][] }} StreamData */
  /** @typedef {{ status: string, viewer_count: number | null, peak_viewer_count: number | null, health_html: string | null, at: number }} Snapshot */

  /** @type {unknown} */
  const parsed = JSON.parse(/** @type {HTMLElement} */ (document.getElementById('stream-data')).textContent);
  const data = /** @type {StreamData} */ (parsed);
  const video = /** @type {HTMLVideoElement} */ (document.getElementById('preview'));
  const note = /** @type {HTMLElement} */ (document.getElementById('preview-note'));
  const statusEl = /** @type {HTMLElement} */ (document.getElementById('stream-status'));
  const viewersEl = /** @type {HTMLElement} */ (document.getElementById('viewer-count'));
  const chartEl = /** @type {HTMLElement} */ (document.getElementById('viewer-chart'));
  const chartEmpty = /** @type {HTMLElement} */ (document.getElementById('chart-empty'));

  const healthPanel = document.getElementById('ingest-health');
  const healthBody = document.getElementById('ingest-health-body');
  let healthSummary = healthBody?.querySelector('#health-summary')?.textContent.trim() ?? '';

  // A stream that has not started keeps the label the page gave it (Scheduled or Standby).
  const LABELS = /** @type {Record<string, string>} */ ({
    live: 'Live',
    ended: 'Ended',
  });

  let status = data.status;
  /** @type {import('hls.js').default | null} */
  let hls = null;

  function startPreview() {
    if (hls || !data.playback_url || status === 'scheduled') return;
    note.textContent = '';
    if (!window.Hls.isSupported()) {
      video.src = data.playback_url;
      return;
    }
    const player = new window.Hls({ liveSyncDurationCount: 2 });
    hls = player;
    player.on(window.Hls.Events.ERROR, (_event, error) => {
      if (!error.fatal) return;
      player.destroy();
      hls = null;
      // The first segments may not exist yet just after going live: start again shortly. An
      // ended stream's media that is gone stays gone.
      if (status === 'live') setTimeout(startPreview, 2000);
      else note.textContent = 'The recording of this stream is not available here; see Videos.';
    });
    player.loadSource(data.playback_url);
    player.attachMedia(video);
    video.play().catch(() => {
      note.textContent = 'Press play to start the preview.';
    });
  }

  // The chart: x in seconds (uPlot's unit), one series of viewers.
  /** @type {[number[], number[]]} */
  const series = [data.samples.map((s) => s[0] / 1000), data.samples.map((s) => s[1])];
  /** @type {InstanceType<typeof window.uPlot> | null} */
  let chart = null;

  function chartWidth() {
    return Math.max(280, chartEl.clientWidth);
  }

  /**
   * The samples, and while they span less than a minute an empty point (no value) a minute
   * on, so the first few are drawn on a minute's axis rather than stretched over years.
   * @returns {[number[], (number | null)[]]}
   */
  function shown() {
    const [xs, ys] = series;
    const first = xs[0] ?? 0;
    const last = xs[xs.length - 1] ?? 0;
    if (last - first >= 60) return series;
    return [
      [first - 5, ...xs, first + 60],
      [null, ...ys, null],
    ];
  }

  function drawChart() {
    if (series[0].length === 0) return;
    chartEmpty.hidden = true;
    if (chart) {
      chart.setData(shown());
      return;
    }
    chart = new window.uPlot(
      {
        width: chartWidth(),
        height: 220,
        scales: { y: { range: (_u, _min, max) => [0, Math.max(5, max + 1)] } },
        axes: [{ values: window.tributaryChartTime.axis, space: 80 }, { label: 'Viewers' }],
        series: [
          { value: window.tributaryChartTime.legend },
          {
            value: window.tributaryChartTime.count,
            label: 'Viewers',
            stroke: '#5b2bd6',
            width: 2,
            fill: 'rgba(91, 43, 214, 0.12)',
          },
        ],
      },
      shown(),
      chartEl,
    );
    window.addEventListener('resize', () => chart?.setSize({ width: chartWidth(), height: 220 }));
  }

  /** @param {Snapshot} snapshot */
  function apply(snapshot) {
    status = snapshot.status;
    const label = LABELS[status];
    if (label) statusEl.textContent = label;
    statusEl.className = `badge badge-${status}`;
    if (healthPanel && healthBody) {
      healthPanel.hidden = status !== 'live';
      if (snapshot.health_html !== null) {
        // Markup the server escaped (health-pages.ts); no value from the page goes into it.
        healthBody.innerHTML = snapshot.health_html;
        window.tributaryLocalTimes?.(healthBody);
        // Screen readers hear the summary when it changes, not every new figure.
        const summary = healthBody.querySelector('#health-summary')?.textContent.trim() ?? '';
        const announce = document.getElementById('health-announce');
        if (announce && summary !== healthSummary) announce.textContent = `Encoder: ${summary}`;
        healthSummary = summary;
      }
    }
    // The standby or schedule line describes a stream that has not started.
    const standby = document.getElementById('standby-note');
    if (standby && status !== 'scheduled') standby.hidden = true;
    // Ending is offered while the stream is live, whenever it went live.
    const end = document.getElementById('end-stream');
    if (end) end.hidden = status !== 'live';
    if (status === 'live') {
      viewersEl.textContent = `${snapshot.viewer_count ?? 0} watching`;
      viewersEl.dataset.count = String(snapshot.viewer_count ?? 0);
      series[0].push(snapshot.at / 1000);
      series[1].push(snapshot.viewer_count ?? 0);
      drawChart();
      startPreview();
    } else if (status === 'ended') {
      viewersEl.textContent = snapshot.peak_viewer_count === null ? '' : `peak ${snapshot.peak_viewer_count}`;
      viewersEl.dataset.count = '';
    }
  }

  drawChart();
  startPreview();
  if (status !== 'ended') {
    const source = new EventSource(data.events_url);
    source.addEventListener('stream', (event) => {
      /** @type {unknown} */
      const message = JSON.parse(/** @type {MessageEvent<string>} */ (event).data);
      const snapshot = /** @type {Snapshot} */ (message);
      apply(snapshot);
      if (snapshot.status === 'ended') source.close();
    });
  }
}
