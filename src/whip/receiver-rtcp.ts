// The RTCP a WHIP ingest sends back for the publisher's video, written here rather than by
// libdatachannel: receiver reports, keyframe requests (PLI) and NACKs (RFC 4585 generic NACK).
//
// Why here: libdatachannel answers NACKs on the sending side (RtcpNackResponder) but has no
// receiving-side element that asks for lost packets (libdatachannel issue 893, "the client side
// element is missing"; pull request 1502, an RtcpNackRequester, is not merged; node-datachannel
// 0.33.4 bundles libdatachannel 0.24.5). And RTCP of our own cannot be sent next to its
// RtcpReceivingSession: Track::outgoing (src/impl/track.cpp) lets a packet through a recvonly
// track only when it is marked as control, which it does for RTCP only when the track has no
// media handler; with one, node-datachannel's sendMessageBinary is refused as media sent the
// wrong way. So the video track has no handler, and everything RtcpReceivingSession did for it
// (a receiver report on each sender report, PLIs) is done here, with the NACKs.
//
// A gap in the sequence is asked for at once, then again every RETRY_MS up to MAX_TRIES times
// while the packets are still useful: ffmpeg's RTP reader (rtp-bridge.ts) waits up to
// REORDER_WAIT_MS for a missing packet before it gives up on it. A gap wider than MAX_GAP is
// not asked for packet by packet (a publisher away that long is better served by the next
// keyframe, which the publisher is asked for on a cadence anyway).

/** ffmpeg's wait for a missing packet (its -max_delay), in ms: NACKs past it are useless. */
export const REORDER_WAIT_MS = 200;
const RETRY_MS = 50;
const MAX_TRIES = 3;
/** Wider gaps are left to the next keyframe. */
const MAX_GAP = 300;
/** Sequence numbers asked for per RTCP packet (a NACK item covers 17). */
const MAX_ITEMS_PER_PACKET = 32;
/** This receiver's SSRC in its RTCP (it sends no RTP of its own). */
const RECEIVER_SSRC = 0x7472_0001;

interface Missing {
  since: number;
  tries: number;
  lastAsked: number;
}

export interface NackCounts {
  /** Packets found missing (gaps in the publisher's sequence). */
  missing: number;
  /** Of them, packets that came after all (retransmitted, or only late). */
  recovered: number;
  /** RTCP NACK packets sent. */
  nacksSent: number;
}

export class ReceiverRtcp {
  private readonly send: (rtcp: Buffer) => void;
  private readonly now: () => number;
  private ssrc: number | undefined;
  private highest = -1;
  /** For the receiver reports (RFC 3550 A.3): the first sequence number, wraps, packets received. */
  private base = 0;
  private cycles = 0;
  private receivedCount = 0;
  private expectedPrior = 0;
  private receivedPrior = 0;
  private readonly missing = new Map<number, Missing>();
  private timer: NodeJS.Timeout | undefined;
  readonly counts: NackCounts = { missing: 0, recovered: 0, nacksSent: 0 };

  constructor(options: { send: (rtcp: Buffer) => void; now?: () => number }) {
    this.send = options.send;
    this.now = options.now ?? Date.now;
  }

  /** One packet of the video track: RTP (followed for gaps) or the publisher's RTCP. */
  received(packet: Buffer): void {
    if (packet.length < 8 || (packet[0] ?? 0) >> 6 !== 2) return;
    const type = packet[1] ?? 0;
    if (type === 200) {
      this.senderReport(packet);
      return;
    }
    if (type >= 192 && type <= 223) return;
    if (packet.length < 12) return;
    const ssrc = packet.readUInt32BE(8);
    const seq = packet.readUInt16BE(2);
    if (ssrc !== this.ssrc) {
      this.ssrc = ssrc;
      this.highest = seq;
      this.base = seq;
      this.cycles = 0;
      this.receivedCount = 1;
      this.expectedPrior = 0;
      this.receivedPrior = 0;
      this.missing.clear();
      return;
    }
    this.receivedCount += 1;
    const ahead = (seq - this.highest) & 0xffff;
    if (ahead === 0) return;
    if (ahead < 0x8000) {
      const gap = ahead - 1;
      if (gap > MAX_GAP) this.missing.clear();
      else if (gap > 0) {
        const now = this.now();
        for (let i = 1; i <= gap; i += 1) {
          this.missing.set((this.highest + i) & 0xffff, { since: now, tries: 0, lastAsked: 0 });
        }
        this.counts.missing += gap;
        this.ask();
      }
      if (seq < this.highest) this.cycles += 1;
      this.highest = seq;
      return;
    }
    // Behind the highest: a packet asked for (or only reordered) has come.
    if (this.missing.delete(seq)) this.counts.recovered += 1;
  }

  /** A PLI to the publisher (callers limit how often). False before any video came. */
  requestKeyframe(): boolean {
    if (this.ssrc === undefined) return false;
    const pli = Buffer.alloc(12);
    pli[0] = 0x80 | 1; // FMT 1: picture loss indication
    pli[1] = 206; // PSFB
    pli.writeUInt16BE(2, 2);
    pli.writeUInt32BE(RECEIVER_SSRC, 4);
    pli.writeUInt32BE(this.ssrc, 8);
    this.send(pli);
    return true;
  }

  /** The publisher's sender report (alone or first of a compound): a receiver report back. */
  private senderReport(packet: Buffer): void {
    if (packet.length < 28 || this.ssrc === undefined) return;
    const lastSr = ((packet.readUInt32BE(8) & 0xffff) << 16) | (packet.readUInt32BE(12) >>> 16);
    const expected = this.cycles * 65_536 + this.highest - this.base + 1;
    const lost = Math.max(0, Math.min(0x7f_ffff, expected - this.receivedCount));
    const expectedInterval = expected - this.expectedPrior;
    const lostInterval = expectedInterval - (this.receivedCount - this.receivedPrior);
    this.expectedPrior = expected;
    this.receivedPrior = this.receivedCount;
    const fraction =
      expectedInterval <= 0 || lostInterval <= 0
        ? 0
        : Math.min(255, Math.floor((lostInterval * 256) / expectedInterval));
    const rr = Buffer.alloc(32);
    rr[0] = 0x80 | 1; // one report block
    rr[1] = 201; // RR
    rr.writeUInt16BE(7, 2);
    rr.writeUInt32BE(RECEIVER_SSRC, 4);
    rr.writeUInt32BE(this.ssrc, 8);
    rr.writeUInt32BE(((fraction << 24) | lost) >>> 0, 12);
    rr.writeUInt32BE((this.cycles * 65_536 + this.highest) >>> 0, 16);
    rr.writeUInt32BE(0, 20); // jitter: not computed
    rr.writeUInt32BE(lastSr >>> 0, 24);
    rr.writeUInt32BE(0, 28); // delay since that report: sent at once
    this.send(rr);
  }

  /** Stops asking (the publish ended). */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.missing.clear();
  }

  /** NACKs for every missing packet due to be asked for; a retry scheduled while any is left. */
  private ask(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const now = this.now();
    const due: number[] = [];
    for (const [seq, entry] of this.missing) {
      if (entry.tries >= MAX_TRIES || now - entry.since > REORDER_WAIT_MS) {
        this.missing.delete(seq);
        continue;
      }
      if (entry.tries > 0 && now - entry.lastAsked < RETRY_MS) continue;
      entry.tries += 1;
      entry.lastAsked = now;
      due.push(seq);
    }
    if (due.length > 0 && this.ssrc !== undefined) {
      for (const packet of nackPackets(RECEIVER_SSRC, this.ssrc, due)) {
        this.counts.nacksSent += 1;
        this.send(packet);
      }
    }
    if (this.missing.size > 0) {
      this.timer = setTimeout(() => {
        this.ask();
      }, RETRY_MS);
      this.timer.unref();
    }
  }
}

/**
 * Generic NACK packets (RFC 4585 6.2.1: RTPFB, FMT 1) asking `mediaSsrc` for `seqs` (in the
 * order they went missing): each item a packet id and a bitmask of the 16 after it.
 */
export function nackPackets(senderSsrc: number, mediaSsrc: number, seqs: readonly number[]): Buffer[] {
  const items: { pid: number; blp: number }[] = [];
  for (const seq of seqs) {
    const item = items.find((candidate) => {
      const offset = (seq - candidate.pid) & 0xffff;
      return offset >= 1 && offset <= 16;
    });
    if (item) item.blp |= 1 << (((seq - item.pid) & 0xffff) - 1);
    else items.push({ pid: seq, blp: 0 });
  }
  const packets: Buffer[] = [];
  for (let start = 0; start < items.length; start += MAX_ITEMS_PER_PACKET) {
    const chunk = items.slice(start, start + MAX_ITEMS_PER_PACKET);
    const packet = Buffer.alloc(12 + 4 * chunk.length);
    packet[0] = 0x80 | 1; // version 2, FMT 1 (generic NACK)
    packet[1] = 205; // RTPFB
    packet.writeUInt16BE(2 + chunk.length, 2); // length in 32-bit words, minus one
    packet.writeUInt32BE(senderSsrc >>> 0, 4);
    packet.writeUInt32BE(mediaSsrc >>> 0, 8);
    chunk.forEach((item, index) => {
      packet.writeUInt16BE(item.pid, 12 + 4 * index);
      packet.writeUInt16BE(item.blp, 14 + 4 * index);
    });
    packets.push(packet);
  }
  return packets;
}
