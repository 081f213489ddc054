// When each new segment of a live stream first appears in its playlist, read every few
// milliseconds at the origin and through the edge: the edge's added latency is the difference
// (test/deploy/edge.test.ts, bench/edge.ts).
import { Client } from 'undici';

export const SEGMENT = /^p\d+\/seg\d+\.ts$/;

/**
 * When each segment first appears in the live playlist, read every `periodMs` at the origin
 * directly and through the edge. The origin reads come from addresses of their own (127.30.x)
 * so they stay within the origin's per-address playlist limit.
 */
export function probeLatency(origin: string, edge: string, playlistPath: string, periodMs = 25) {
  const seen = { origin: new Map<string, number>(), edge: new Map<string, number>() };
  const originClients = Array.from(
    { length: 60 },
    (_, i) => new Client(origin, { localAddress: `127.30.0.${i + 1}` }),
  );
  const edgeClient = new Client(edge);
  const state = { stopped: false };
  let turn = 0;
  const read = async (client: Client, into: Map<string, number>, query: string) => {
    try {
      const response = await client.request({ method: 'GET', path: `${playlistPath}?${query}` });
      const text = await response.body.text();
      const at = Date.now();
      if (response.statusCode !== 200) return;
      for (const name of text.split('\n').filter((line) => SEGMENT.test(line)))
        if (!into.has(name)) into.set(name, at);
    } catch {
      // a read cut short by the end of the probe
    }
  };
  const loop = (async () => {
    while (!state.stopped) {
      const next = Date.now() + periodMs;
      await Promise.all([
        read(originClients[turn++ % originClients.length]!, seen.origin, 'probe=origin'),
        read(edgeClient, seen.edge, 'probe=edge'),
      ]);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now())));
    }
  })();
  return {
    seen,
    periodMs,
    stop: async () => {
      state.stopped = true;
      await loop;
      await Promise.all([...originClients, edgeClient].map((client) => client.close()));
    },
  };
}
