// EXT-X-PROGRAM-DATE-TIME travels from the packager's playlist to the one players fetch, and
// the target duration follows RFC 8216's rounding so 1-second segments keep a target of 1.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { datedFrom, parseMediaPlaylist, renderPlaylist } from '../../src/hls/hls-playlist.ts';

// What ffmpeg 5.1 writes with -hls_flags +program_date_time and -hls_time 1.
const FFMPEG_LOW_LATENCY = `#EXTM3U
#EXT-X-VERSION:6
#EXT-X-TARGETDURATION:1
#EXT-X-MEDIA-SEQUENCE:0
#EXT-X-PLAYLIST-TYPE:EVENT
#EXT-X-INDEPENDENT-SEGMENTS
#EXT-X-PROGRAM-DATE-TIME:2026-11-23T20:41:07.123+0000
#EXTINF:1.000000,
seg00000.ts
#EXT-X-PROGRAM-DATE-TIME:2026-11-23T20:41:08.123+0000
#EXTINF:1.033333,
seg00001.ts
#EXTINF:1.000000,
seg00002.ts
`;

test('each segment keeps the program date time written before it, and only its own', () => {
  const { segments } = parseMediaPlaylist(FFMPEG_LOW_LATENCY);
  assert.deepEqual(segments, [
    { duration: 1, uri: 'seg00000.ts', programDateTime: '2026-11-23T20:41:07.123+0000' },
    { duration: 1.033333, uri: 'seg00001.ts', programDateTime: '2026-11-23T20:41:08.123+0000' },
    { duration: 1, uri: 'seg00002.ts' },
  ]);
});

test('an unreadable date is dropped instead of being handed to players', () => {
  const { segments } = parseMediaPlaylist('#EXT-X-PROGRAM-DATE-TIME:yesterday\n#EXTINF:2,\na.ts\n');
  assert.deepEqual(segments, [{ duration: 2, uri: 'a.ts' }]);
});

test('the stream playlist writes each date just before its segment, across publishes', () => {
  const text = renderPlaylist({
    publishes: [
      [
        { duration: 1, uri: 'p0/seg00000.ts', programDateTime: '2026-11-23T20:41:07.123+0000' },
        { duration: 1.033333, uri: 'p0/seg00001.ts', programDateTime: '2026-11-23T20:41:08.123+0000' },
      ],
      [{ duration: 0.966667, uri: 'p1/seg00000.ts', programDateTime: '2026-11-23T20:41:15.500+0000' }],
    ],
    type: 'EVENT',
    ended: false,
  });
  assert.equal(
    text,
    [
      '#EXTM3U',
      '#EXT-X-VERSION:6',
      // 1.033 rounds to 1: a ceiling of 2 would double the player's distance from live.
      '#EXT-X-TARGETDURATION:1',
      '#EXT-X-MEDIA-SEQUENCE:0',
      '#EXT-X-PLAYLIST-TYPE:EVENT',
      '#EXT-X-INDEPENDENT-SEGMENTS',
      '#EXT-X-PROGRAM-DATE-TIME:2026-11-23T20:41:07.123+0000',
      '#EXTINF:1.000000,',
      'p0/seg00000.ts',
      '#EXT-X-PROGRAM-DATE-TIME:2026-11-23T20:41:08.123+0000',
      '#EXTINF:1.033333,',
      'p0/seg00001.ts',
      '#EXT-X-DISCONTINUITY',
      '#EXT-X-PROGRAM-DATE-TIME:2026-11-23T20:41:15.500+0000',
      '#EXTINF:0.966667,',
      'p1/seg00000.ts',
      '',
    ].join('\n'),
  );
});

test('the target duration is the longest segment rounded, so a 2.6 s segment makes it 3', () => {
  const text = renderPlaylist({
    publishes: [
      [
        { duration: 2.6, uri: 'a.ts' },
        { duration: 1.2, uri: 'b.ts' },
      ],
    ],
    type: 'EVENT',
    ended: false,
  });
  assert.match(text, /#EXT-X-TARGETDURATION:3\n/);
});

test('a publish is dated from its first frame at the ingest plus media time, not from ffmpeg', () => {
  const first = Date.parse('2026-11-23T20:41:05.000Z');
  const dated = datedFrom(first, [
    { duration: 1, uri: 'seg00000.ts', programDateTime: '2026-11-23T20:41:07.123+0000' },
    { duration: 1.033333, uri: 'seg00001.ts' },
    { duration: 0.966667, uri: 'seg00002.ts' },
  ]);
  assert.deepEqual(
    dated.map((segment) => segment.programDateTime),
    ['2026-11-23T20:41:05.000Z', '2026-11-23T20:41:06.000Z', '2026-11-23T20:41:07.033Z'],
  );
  assert.deepEqual(
    dated.map((segment) => [segment.duration, segment.uri]),
    [
      [1, 'seg00000.ts'],
      [1.033333, 'seg00001.ts'],
      [0.966667, 'seg00002.ts'],
    ],
  );
});
