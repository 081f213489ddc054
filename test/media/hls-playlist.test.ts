// The playlist rules players depend on: publishes joined by discontinuities, EVENT while live,
// a finished VOD list for videos, and the middle of a list found for thumbnails.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseMediaPlaylist, renderPlaylist, segmentAt, totalDuration } from '../../src/hls/hls-playlist.ts';
import { ViewerTracker } from '../../src/media/viewer-tracker.ts';
import { TestClock } from '../helpers/clock.ts';

const FFMPEG_OUTPUT = `#EXTM3U
#EXT-X-VERSION:6
#EXT-X-TARGETDURATION:2
#EXT-X-MEDIA-SEQUENCE:0
#EXT-X-PLAYLIST-TYPE:EVENT
#EXT-X-INDEPENDENT-SEGMENTS
#EXTINF:2.000000,
seg00000.ts
#EXTINF:1.980000,
seg00001.ts
#EXT-X-ENDLIST
`;

test('a packager playlist is read as its segments and whether it is finished', () => {
  assert.deepEqual(parseMediaPlaylist(FFMPEG_OUTPUT), {
    segments: [
      { duration: 2, uri: 'seg00000.ts' },
      { duration: 1.98, uri: 'seg00001.ts' },
    ],
    ended: true,
  });
  assert.deepEqual(parseMediaPlaylist('#EXTM3U\n'), { segments: [], ended: false });
});

test('publishes are joined with a discontinuity; the list ends only when finished', () => {
  const live = renderPlaylist({
    publishes: [[{ duration: 2, uri: 'p0/seg00000.ts' }], [], [{ duration: 2.5, uri: 'p2/seg00000.ts' }]],
    type: 'EVENT',
    ended: false,
  });
  assert.equal(
    live,
    [
      '#EXTM3U',
      '#EXT-X-VERSION:6',
      '#EXT-X-TARGETDURATION:3',
      '#EXT-X-MEDIA-SEQUENCE:0',
      '#EXT-X-PLAYLIST-TYPE:EVENT',
      '#EXT-X-INDEPENDENT-SEGMENTS',
      '#EXTINF:2.000000,',
      'p0/seg00000.ts',
      '#EXT-X-DISCONTINUITY',
      '#EXTINF:2.500000,',
      'p2/seg00000.ts',
      '',
    ].join('\n'),
  );
  const video = renderPlaylist({ publishes: [[{ duration: 2, uri: 'a.ts' }]], type: 'VOD', ended: true });
  assert.match(video, /#EXT-X-PLAYLIST-TYPE:VOD\n/);
  assert.match(video, /a\.ts\n#EXT-X-ENDLIST\n$/);
});

test('the middle of a list is found by time', () => {
  const segments = [
    { duration: 2, uri: 'a' },
    { duration: 2, uri: 'b' },
    { duration: 1, uri: 'c' },
  ];
  assert.equal(totalDuration(segments), 5);
  assert.deepEqual(segmentAt(segments, 2.5), { segment: segments[1], offset: 0.5 });
  assert.deepEqual(segmentAt(segments, 99), { segment: segments[2], offset: 0 });
  assert.equal(segmentAt([], 1), undefined);
});

test('viewers are distinct players seen within the window', () => {
  const clock = new TestClock(1_000_000);
  const viewers = new ViewerTracker(clock, 10_000);
  viewers.seen('str_a', '192.0.2.1', 'player:1');
  viewers.seen('str_a', '192.0.2.1', 'player:1');
  viewers.seen('str_a', '192.0.2.2', 'player:2');
  viewers.seen('str_b', '192.0.2.1', 'player:1');
  assert.equal(viewers.count('str_a'), 2);
  assert.equal(viewers.count('str_b'), 1);
  clock.advance(6000);
  viewers.seen('str_a', '192.0.2.2', 'player:2');
  clock.advance(5000);
  assert.equal(viewers.count('str_a'), 1, 'player 1 left more than 10 s ago');
  assert.equal(viewers.count('str_b'), 0);
  assert.deepEqual(viewers.streamIds(), ['str_a']);
});
