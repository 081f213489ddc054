// FLV (Adobe's Video File Format Specification 10.1, annex E) for the packager's input: the
// file header, then each RTMP audio or video message as one tag, whose body is the message
// payload unchanged.

/** The 9-byte header for a file with audio and video, and PreviousTagSize0. */
export function flvHeader(): Buffer {
  return Buffer.from([0x46, 0x4c, 0x56, 0x01, 0x05, 0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x00]);
}

/** One tag (type 8 audio, 9 video) and the PreviousTagSize that follows it. */
export function flvTag(type: number, timestamp: number, payload: Buffer): Buffer {
  const tag = Buffer.alloc(11 + payload.length + 4);
  tag[0] = type;
  tag.writeUIntBE(payload.length, 1, 3);
  // 24 low bits, then the high 8 bits in TimestampExtended.
  tag.writeUIntBE(timestamp & 0xffffff, 4, 3);
  tag[7] = (timestamp >>> 24) & 0xff;
  // StreamID (3 bytes) is always 0.
  payload.copy(tag, 11);
  tag.writeUInt32BE(11 + payload.length, 11 + payload.length);
  return tag;
}
