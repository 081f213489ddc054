// Simulated HLS viewers of one live stream, as hls.js behaves: each reloads the live playlist
// once per target duration (2 s), fetches every segment it has not fetched yet (starting at
// the newest), and sends the presence signal at start and every 5 s
// (viewer-contract: POST /watch/{id}/presence?viewer=...). Each viewer has its own loopback
// address (127.x.y.z) and keep-alive connection, so the edge and the origin see distinct
// clients; given several edges, the viewers are spread over them. Used by test/deploy/edge.test.ts and the edge bench (bench/edge.ts).
import { randomBytes } from 'node:crypto';
import { Client } from 'undici';

export interface ViewerRunOptions {
  /** The edge, `http://127.0.0.1:PORT`, or several: viewer i watches through edge i mod n. */
  url: string | readonly string[];
  streamId: string;
  viewers: number;
  durationMs: number;
  targetDurationMs?: number;
  presenceEveryMs?: number;
  /** Called once a second with the results so far (a test watches the viewer count meanwhile). */
  onTick?: (result: ViewerRunResult) => void;
}

export interface ViewerRunResult {
  playlists: number;
  segments: number;
  presences: number;
  segmentBytes: number;
  failures: number;
  /** The first few failures, as `METHOD path -> status or error`. */
  failureSamples: string[];
}

const SEGMENT_LINE = /^[^#\s].*$/gm;

/** Loopback address number `i` (127.20.0.1 up): any 127/8 address reaches a loopback listener. */
export function viewerAddress(i: number): string {
  return `127.20.${Math.floor(i / 250)}.${(i % 250) + 1}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runViewers(options: ViewerRunOptions): Promise<ViewerRunResult> {
  const targetMs = options.targetDurationMs ?? 2000;
  const presenceMs = options.presenceEveryMs ?? 5000;
  const result: ViewerRunResult = {
    playlists: 0,
    segments: 0,
    presences: 0,
    segmentBytes: 0,
    failures: 0,
    failureSamples: [],
  };
  const started = Date.now();
  const endAt = started + options.durationMs;
  const fail = (what: string) => {
    result.failures++;
    if (result.failureSamples.length < 10) result.failureSamples.push(what);
  };
  const base = `/media/streams/${options.streamId}/`;

  async function request(client: Client, method: 'GET' | 'POST', path: string): Promise<Buffer | undefined> {
    try {
      const response = await client.request({ method, path });
      const body = Buffer.from(await response.body.arrayBuffer());
      if (response.statusCode >= 200 && response.statusCode < 300) return body;
      fail(`${method} ${path} -> ${response.statusCode} ${body.toString('utf8').slice(0, 200)}`);
    } catch (error) {
      fail(`${method} ${path} -> ${(error as Error).message}`);
    }
    return undefined;
  }

  const edges = typeof options.url === 'string' ? [options.url] : options.url;

  async function viewer(i: number): Promise<void> {
    const id = `sim-${i}-${randomBytes(6).toString('hex')}`;
    const edge = edges[i % edges.length]!;
    const client = new Client(edge, { localAddress: viewerAddress(i), pipelining: 1 });
    // A second connection for the presence signal, as a browser sends it beside the media.
    const signal = new Client(edge, { localAddress: viewerAddress(i), pipelining: 1 });
    const presence = async () => {
      while (Date.now() < endAt) {
        if (await request(signal, 'POST', `/watch/${options.streamId}/presence?viewer=${id}`))
          result.presences++;
        await sleep(Math.max(0, Math.min(presenceMs, endAt - Date.now())));
      }
    };
    // Players start at random moments, as an audience arrives.
    await sleep(Math.random() * targetMs);
    const signalling = presence();
    let last: string | undefined;
    try {
      while (Date.now() < endAt) {
        const reloadAt = Date.now() + targetMs;
        const playlist = await request(client, 'GET', `${base}index.m3u8?viewer=${id}`);
        if (playlist) {
          result.playlists++;
          const names: string[] = playlist.toString('utf8').match(SEGMENT_LINE) ?? [];
          const from = last === undefined ? names.length - 1 : names.indexOf(last) + 1;
          for (const name of names.slice(Math.max(from, 0))) {
            const segment = await request(client, 'GET', `${base}${name}`);
            if (segment) {
              result.segments++;
              result.segmentBytes += segment.length;
            }
            last = name;
          }
        }
        await sleep(Math.max(0, Math.min(reloadAt, endAt) - Date.now()));
      }
      await signalling;
    } finally {
      await Promise.all([client.close(), signal.close()]);
    }
  }

  const ticker = setInterval(() => options.onTick?.({ ...result }), 1000);
  try {
    await Promise.all(Array.from({ length: options.viewers }, (_, i) => viewer(i)));
  } finally {
    clearInterval(ticker);
  }
  return result;
}
