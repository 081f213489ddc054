// The codec of an RTMP media message, from its first bytes, and what is refused: everything
// but classic-framed H.264 video and AAC audio, each named in the message the encoder shows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codecOf, codecRefusal } from '../../src/rtmp/codecs.ts';

const video = (...bytes: number[]) => Buffer.from(bytes);
const enhanced = (first: number, fourCc: string) =>
  Buffer.concat([Buffer.from([first]), Buffer.from(fourCc, 'latin1')]);

test('H.264 video and AAC audio pass, keyframes and sequence headers alike', () => {
  assert.equal(codecRefusal(9, video(0x17, 0x00)), undefined, 'AVC sequence header');
  assert.equal(codecRefusal(9, video(0x27, 0x01)), undefined, 'AVC inter frame');
  assert.equal(codecRefusal(8, video(0xaf, 0x00)), undefined, 'AAC sequence header');
  assert.equal(codecRefusal(8, video(0xae, 0x01)), undefined, 'AAC mono raw frame');
  assert.equal(codecRefusal(9, Buffer.alloc(0)), undefined, 'an empty message names no codec');
});

test('other classic codecs are refused by name, with the setting to change', () => {
  assert.deepEqual(codecRefusal(9, video(0x12)), {
    kind: 'video',
    codec: 'Sorenson H.263',
    description:
      "Video codec Sorenson H.263 is not supported. Set the encoder's video codec to H.264 (x264, NVENC, QuickSync or AMF) and start again.",
  });
  assert.equal(codecRefusal(9, video(0x1c))?.codec, 'HEVC');
  assert.equal(codecRefusal(9, video(0x14))?.codec, 'On2 VP6');
  assert.deepEqual(codecRefusal(8, video(0x2f)), {
    kind: 'audio',
    codec: 'MP3',
    description: "Audio codec MP3 is not supported. Set the encoder's audio codec to AAC and start again.",
  });
  assert.equal(codecRefusal(8, video(0xb6))?.codec, 'Speex');
  assert.equal(codecRefusal(8, video(0x76))?.codec, 'G.711 A-law');
  assert.equal(codecRefusal(9, video(0x1d))?.codec, 'video codec id 13');
});

test('Enhanced RTMP codecs are named from their FourCC and refused, H.264 included', () => {
  assert.equal(codecOf(9, enhanced(0x90, 'hvc1')), 'HEVC (Enhanced RTMP)');
  assert.equal(codecOf(9, enhanced(0x90, 'av01')), 'AV1 (Enhanced RTMP)');
  assert.equal(codecOf(8, enhanced(0x90, 'Opus')), 'Opus (Enhanced RTMP)');
  assert.ok(codecRefusal(9, enhanced(0x90, 'avc1')), 'the packager reads only classic framing');
  assert.equal(codecOf(9, enhanced(0x90, 'zzzz')), "'zzzz' (Enhanced RTMP)");
  assert.equal(
    codecOf(9, enhanced(0x90, '\u0000\u0001\n\u0002')),
    'an unnamed video codec',
    'no odd bytes echoed',
  );
  assert.equal(codecOf(9, video(0x90, 0x61)), 'an unnamed video codec', 'a FourCC cut short');
});
