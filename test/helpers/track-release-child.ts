// Run by test/realtime/track-release.test.ts with --expose-gc: opens and closes peer
// connections with a track each, lets the garbage collector run, then calls node-datachannel's
// cleanup() as the service's shutdown does. Mode "watched" goes through track-release.ts;
// "unwatched" drops the tracks as plain code would.
import { setTimeout as sleep } from 'node:timers/promises';
import nodeDataChannel from 'node-datachannel';
import { heldCount, releaseWhenClosed, watchTrack } from '../../src/realtime/track-release.ts';

const mode = process.argv[2];
const PEERS = 20;

for (let index = 0; index < PEERS; index++) {
  const pc = new nodeDataChannel.PeerConnection(`release-${index}`, { iceServers: [] });
  const video = new nodeDataChannel.Video('0', 'SendOnly');
  video.addH264Codec(96);
  const track = pc.addTrack(video);
  pc.setLocalDescription();
  if (mode === 'watched') {
    const watched = watchTrack(track);
    pc.close();
    releaseWhenClosed(pc, [watched]);
  } else {
    pc.close();
  }
}
const heldAfterClose = heldCount();
// Past track-release.ts's TRACK_RELEASE_MS, so watched tracks have been let go.
await sleep(1500);
const heldAfterRelease = heldCount();
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
gc();
await sleep(100);
gc();
nodeDataChannel.cleanup();
console.log(JSON.stringify({ cleanedUp: true, heldAfterClose, heldAfterRelease }));
