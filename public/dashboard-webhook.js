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
    // An empty bucket on each side (nothing was attempted then), so a lone bucket is drawn as
    // a bar on a short time axis rather than stretched over years.
    const first = data.points[0]?.[0] ?? 0;
    const last = data.points[data.points.length - 1]?.[0] ?? 0;
    /** @type {[number, number, number][]} */
    const points = [[first - data.bucketMs, 0, 0], ...data.points, [last + data.bucketMs, 0, 0]];
    const chart = new window.uPlot(
      {
        width: width(),
        height: 220,
        scales: { y: { range: (_u, _min, max) => [0, Math.max(3, max + 1)] } },
        axes: [{ values: window.tributaryChartTime.axis, space: 80 }, { label: 'Attempts' }],
        series: [
          { value: window.tributaryChartTime.legend },
          {
            value: window.tributaryChartTime.count,
            label: 'Succeeded',
            stroke: '#15803d',
            fill: 'rgba(21, 128, 61, 0.35)',
            paths: bars,
          },
          {
            value: window.tributaryChartTime.count,
            label: 'Failed',
            stroke: '#b91c1c',
            fill: 'rgba(185, 28, 28, 0.35)',
            paths: bars,
          },
        ],
      },
      [points.map((p) => p[0] / 1000), points.map((p) => p[1]), points.map((p) => p[2])],
      el,
    );
    window.addEventListener('resize', () => {
      chart.setSize({ width: width(), height: 220 });
    });
  }
}
