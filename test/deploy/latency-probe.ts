// When each new segment of a live stream first appears in its playlist, read every few
// milliseconds at the origin and through the edge: the edge's added latency is the difference
// (test/deploy/edge.test.ts, bench/edge.ts).
import { Client } from 'undici';

export const SEGMENT = /^p\d+\/seg\d+\.ts$/;

/** An edge read slower than this waited on nginx's cache lock, which it polls every 500 ms. */
export const LOCK_WAIT_MS = 400;

/**
 * When each segment first appears in the live playlist, read every `periodMs` at the origin
 * directly and through the edge. The origin reads come from addresses of their own (127.30.x)
 * so they stay within the origin's per-address playlist limit.
 *
 * Each read starts on the clock, whether or not the one before has ended, over a pool of
 * connections: a read that waits on the edge's cache lock (a player asking while the edge
 * fetches that slot's playlist: nginx looks at the lock again only every 500 ms) does not hold
 * back the next, so `seen` says when the edge first served a segment to a new request, and
 * `edgeReads` how many reads were that slow.
 */
export function probeLatency(origin: string, edge: string, playlistPath: string, periodMs = 25) {
  const seen = { origin: new Map<string, number>(), edge: new Map<string, number>() };
  const edgeReads = { count: 0, lockWaits: 0, slowestMs: 0 };
  const originClients = Array.from(
    { length: 60 },
    (_, i) => new Client(origin, { localAddress: `127.30.0.${i + 1}` }),
  );
  // Enough that a client is free again before its turn comes back, lock waits included.
  const edgeClients = Array.from({ length: 40 }, () => new Client(edge));
  const inFlight = new Set<Promise<void>>();
  const state = { stopped: false };
  let turn = 0;
  const read = async (client: Client, into: Map<string, number>, query: string, timed?: typeof edgeReads) => {
    const startedAt = Date.now();
    try {
      const response = await client.request({ method: 'GET', path: `${playlistPath}?${query}` });
      const text = await response.body.text();
      const at = Date.now();
      if (timed) {
        timed.count += 1;
        timed.slowestMs = Math.max(timed.slowestMs, at - startedAt);
        if (at - startedAt >= LOCK_WAIT_MS) timed.lockWaits += 1;
      }
      if (response.statusCode !== 200) return;
      for (const name of text.split('\n').filter((line) => SEGMENT.test(line)))
        if (!into.has(name)) into.set(name, at);
    } catch {
      // a read cut short by the end of the probe
    }
  };
  const start = (reading: Promise<void>) => {
    inFlight.add(reading);
    void reading.finally(() => inFlight.delete(reading));
  };
  const loop = (async () => {
    while (!state.stopped) {
      const next = Date.now() + periodMs;
      start(read(originClients[turn % originClients.length]!, seen.origin, 'probe=origin'));
      start(read(edgeClients[turn % edgeClients.length]!, seen.edge, 'probe=edge', edgeReads));
      turn += 1;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now())));
    }
  })();
  return {
    seen,
    edgeReads,
    periodMs,
    stop: async () => {
      state.stopped = true;
      await loop;
      await Promise.all(inFlight);
      await Promise.all([...originClients, ...edgeClients].map((client) => client.close()));
    },
  };
}
