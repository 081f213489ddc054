// RTP as the realtime path handles it (RFC 3550): ffmpeg's packets read from loopback, each
// rewritten once per stream onto one continuous timeline (sequence numbers and timestamps go
// on across ffmpeg restarts, so a viewer's decoder sees one stream), then stamped per viewer
// with the payload type its browser offered and the playout-delay header extension.

/** The smallest RTP packet: the fixed header. */
export const RTP_HEADER_BYTES = 12;

/** Whether a datagram is a plausible RTP packet (version 2, not RTCP, its header and a payload within it). */
export function isRtp(packet: Buffer): boolean {
  if (packet.length < RTP_HEADER_BYTES || (packet[0] ?? 0) >> 6 !== 2) return false;
  // RTCP packet types 192-223 would read as payload types 64-95 with the marker set.
  const type = packet[1] ?? 0;
  if (type >= 192 && type <= 223) return false;
  return payloadOffset(packet) > 0;
}

/** Where the payload of an RTP packet starts (after CSRCs and a header extension), or -1. */
export function payloadOffset(packet: Buffer): number {
  let offset = RTP_HEADER_BYTES + ((packet[0] ?? 0) & 0x0f) * 4;
  if ((packet[0] ?? 0) & 0x10) {
    if (packet.length < offset + 4) return -1;
    offset += 4 + packet.readUInt16BE(offset + 2) * 4;
  }
  return offset < packet.length ? offset : -1;
}

/**
 * Whether an H.264 RTP packet (RFC 6184) begins a keyframe: an SPS (sent in-band before each
 * IDR on this path), or the first fragment of an IDR slice, alone or in an aggregate.
 */
export function startsKeyframe(packet: Buffer): boolean {
  const offset = payloadOffset(packet);
  if (offset < 0) return false;
  const type = (packet[offset] ?? 0) & 0x1f;
  if (type === 7 || type === 5) return true;
  if (type === 24 && packet.length > offset + 3) {
    const inner = (packet[offset + 3] ?? 0) & 0x1f;
    return inner === 7 || inner === 5;
  }
  if (type === 28 && packet.length > offset + 1) {
    const fu = packet[offset + 1] ?? 0;
    return (fu & 0x80) !== 0 && (fu & 0x1f) === 5;
  }
  return false;
}

/**
 * One media line's continuous timeline over ffmpeg runs: each source (a new SSRC) is shifted so
 * that its first packet follows the last one sent, a frame later.
 */
export class RtpTimeline {
  private readonly ssrc: number;
  private readonly frameTicks: number;
  private source: number | undefined;
  private seqOffset = 0;
  private tsOffset = 0;
  private lastSeq = -1;
  private lastTs = 0;

  constructor(ssrc: number, frameTicks: number) {
    this.ssrc = ssrc;
    this.frameTicks = frameTicks;
  }

  /** Rewrites the packet's sequence number, timestamp and SSRC in place. */
  rewrite(packet: Buffer): void {
    const source = packet.readUInt32BE(8);
    const seq = packet.readUInt16BE(2);
    const ts = packet.readUInt32BE(4);
    if (source !== this.source) {
      this.source = source;
      this.seqOffset = this.lastSeq < 0 ? 0 : (this.lastSeq + 1 - seq) & 0xffff;
      this.tsOffset = this.lastSeq < 0 ? 0 : (this.lastTs + this.frameTicks - ts) >>> 0;
    }
    const outSeq = (seq + this.seqOffset) & 0xffff;
    const outTs = (ts + this.tsOffset) >>> 0;
    packet.writeUInt16BE(outSeq, 2);
    packet.writeUInt32BE(outTs, 4);
    packet.writeUInt32BE(this.ssrc, 8);
    this.lastSeq = outSeq;
    this.lastTs = outTs;
  }
}

/**
 * The packet as one viewer's browser takes it: its payload type, and when the browser offered
 * the playout-delay extension (http://www.webrtc.org/experiments/rtp-hdrext/playout-delay), a
 * delay of 0-0 ms so its jitter buffer stays as short as the network allows. Only for packets
 * without a header extension of their own (ffmpeg's).
 */
export function forViewer(packet: Buffer, payloadType: number, playoutDelayId: number | undefined): Buffer {
  const marker = (packet[1] ?? 0) & 0x80;
  if (playoutDelayId === undefined || (packet[0] ?? 0) & 0x10) {
    const out = Buffer.from(packet);
    out[1] = marker | payloadType;
    return out;
  }
  const headerBytes = RTP_HEADER_BYTES + ((packet[0] ?? 0) & 0x0f) * 4;
  const out = Buffer.allocUnsafe(packet.length + 8);
  packet.copy(out, 0, 0, headerBytes);
  out[0] = (packet[0] ?? 0) | 0x10;
  out[1] = marker | payloadType;
  // One-byte header extension (RFC 8285): 0xBEDE, one 32-bit word: id, length 3 - 1, then
  // 12 bits of minimum and 12 of maximum delay, both 0.
  out.writeUInt16BE(0xbede, headerBytes);
  out.writeUInt16BE(1, headerBytes + 2);
  out[headerBytes + 4] = (playoutDelayId << 4) | 2;
  out[headerBytes + 5] = 0;
  out[headerBytes + 6] = 0;
  out[headerBytes + 7] = 0;
  packet.copy(out, headerBytes + 8, headerBytes);
  return out;
}
