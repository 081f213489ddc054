// The edge bench's load generator, run in its own process pinned to the generator core:
// `node bench/edge-viewers.ts <edge url> <stream id> <viewers> <seconds>` runs the simulated
// HLS viewers of test/deploy/hls-viewers.ts and prints their result as one JSON line.
import { runViewers } from '../test/deploy/hls-viewers.ts';

const [url, streamId, viewers, seconds] = process.argv.slice(2);
if (url === undefined || streamId === undefined || viewers === undefined || seconds === undefined) {
  throw new Error('usage: node bench/edge-viewers.ts <edge url> <stream id> <viewers> <seconds>');
}
const startedAt = Date.now();
const cpuBefore = process.cpuUsage();
const result = await runViewers({
  url,
  streamId,
  viewers: Number(viewers),
  durationMs: Number(seconds) * 1000,
});
const cpu = process.cpuUsage(cpuBefore);
const elapsedMs = Date.now() - startedAt;
process.stdout.write(
  `${JSON.stringify({ ...result, elapsedMs, busy: (cpu.user + cpu.system) / 1000 / elapsedMs })}\n`,
);
