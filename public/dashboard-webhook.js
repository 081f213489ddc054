// A webhook's page: its delivery attempts of the last day, succeeded and failed, as a uPlot chart.
// @ts-check
/* global document, window */

// A block of its own: the page loads several scripts into one global scope.
{
  /** @type {unknown} */
  const parsed = JSON.parse(
    /** @type {HTMLElement} */ (document.getElementById('delivery-data')).textContent,
  );
  const data = /** @type {{ bucketMs: number, points: [number, number, number][] }} */ (parsed);
  const el = /** @type {HTMLElement} */ (document.getElementById('delivery-chart'));

  if (data.points.length > 0) {
    const width = () => Math.max(280, el.clientWidth);
    const bars = window.uPlot.paths.bars?.({ size: [0.6, 40] });
    const chart = new window.uPlot(
      {
        width: width(),
        height: 220,
        scales: {
          // A bucket's width of room on each side, so one bucket is not stretched over years.
          x: {
            time: true,
            range: (_u, min, max) => [min - data.bucketMs / 1000, max + data.bucketMs / 1000],
          },
          y: { range: (_u, _min, max) => [0, Math.max(3, max + 1)] },
        },
        axes: [{}, { label: 'Attempts' }],
        series: [
          {},
          { label: 'Succeeded', stroke: '#15803d', fill: 'rgba(21, 128, 61, 0.35)', paths: bars },
          { label: 'Failed', stroke: '#b91c1c', fill: 'rgba(185, 28, 28, 0.35)', paths: bars },
        ],
      },
      [data.points.map((p) => p[0] / 1000), data.points.map((p) => p[1]), data.points.map((p) => p[2])],
      el,
    );
    window.addEventListener('resize', () => {
      chart.setSize({ width: width(), height: 220 });
    });
  }
}
