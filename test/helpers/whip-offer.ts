// WHIP offers made by a real WebRTC stack in the test process (node-datachannel, the one the
// server uses): H.264 video and Opus audio, sendonly, with ICE credentials and a fingerprint,
// as a WHIP encoder would send. The peer is closed when the test ends.
import type { TestContext } from 'node:test';
import nodeDataChannel from 'node-datachannel';
import { iceGathered } from '../../src/realtime/ice-gathering.ts';
import { watchTrack } from '../../src/realtime/track-release.ts';

export interface TestOffer {
  sdp: string;
  peer: nodeDataChannel.PeerConnection;
}

export async function makeOffer(
  t: Pick<TestContext, 'after'>,
  options: { audio?: boolean } = {},
): Promise<TestOffer> {
  const peer = new nodeDataChannel.PeerConnection('test-publisher', {
    iceServers: [],
    bindAddress: '127.0.0.1',
  });
  // Tracks are held by watchTrack until this process's cleanup (src/realtime/track-release.ts).
  t.after(() => {
    peer.close();
    // node-datachannel's threads keep the process alive until its cleanup.
    nodeDataChannel.cleanup();
  });
  const video = new nodeDataChannel.Video('video', 'SendOnly');
  video.addH264Codec(96);
  video.addSSRC(1111, 'video');
  const tracks = [watchTrack(peer.addTrack(video))];
  if (options.audio !== false) {
    const audio = new nodeDataChannel.Audio('audio', 'SendOnly');
    audio.addOpusCodec(111);
    audio.addSSRC(2222, 'audio');
    tracks.push(watchTrack(peer.addTrack(audio)));
  }
  peer.setLocalDescription();
  await iceGathered(peer, 3000);
  const local = peer.localDescription();
  if (!local) throw new Error('node-datachannel made no offer');
  return { sdp: local.sdp, peer };
}
