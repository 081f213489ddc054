// The WHIP publisher's RTP, decrypted by the WebRTC stack, handed to ffmpeg over loopback UDP
// (an SDP file names the ports and payload types): H.264 copied, Opus made AAC, out as FLV on
// its stdout, split into tags and given to the publisher as if an RTMP encoder had sent them.
// Packets ffmpeg cannot use are dropped first: RTCP (the WebRTC stack answers it) and Chrome's
// padding-only probes. ffmpeg ends cleanly on SIGINT (it writes what it holds); a bridge that
// does not end within a few seconds is killed.
//
// The video comes out of an FLV output of its own. In one FLV output with the audio, ffmpeg's
// muxer holds each video frame until an audio packet later than it has come (it interleaves by
// timestamp), and the AAC made from the publisher's Opus comes late and in bursts: a fifth of
// the frames left ffmpeg two at once (measured: frames reach the bridge 33 ms apart, 21% of the
// gaps at its output were under 8 ms, then 60 ms), and Chromium, given frames in pairs, showed
// only 88% of them. A video-only output has nothing to wait for. The audio is taken from a second
// output that carries both (interleaved, so its timeline is ffmpeg's usual one); each FLV output
// starts its timestamps at its own first packet, so that output's timestamps are moved onto the
// video output's by the difference between the two outputs' first video frame.
import { spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { REORDER_WAIT_MS } from './receiver-rtcp.ts';

/** How long ffmpeg may take to finish after SIGINT before it is killed. */
const STOP_GRACE_MS = 5000;
/** While ffmpeg is stopping, it is woken this often. */
const NUDGE_INTERVAL_MS = 50;
/** ffmpeg's UDP receive buffer for the relayed RTP. */
const RECEIVE_BUFFER_BYTES = 4 * 1024 * 1024;
/** Audio tags held while the two outputs' offset is not known yet (a few seconds of AAC). */
const MAX_HELD_AUDIO = 200;
/** ffmpeg's input reading: short enough that the first segment is not held back for long. */
const ANALYZE_MICROSECONDS = 2_000_000;

export interface BridgeCodecs {
  video: { payloadType: number };
  audio: { payloadType: number; channels: number } | undefined;
}

export interface BridgeOptions {
  ffmpegPath: string;
  codecs: BridgeCodecs;
  logger: Logger;
  /** One FLV message (8 audio, 9 video) of ffmpeg's output. */
  onMessage: (type: number, timestamp: number, payload: Buffer) => void;
  /** ffmpeg exited (on its own or after stop()). */
  onExit: (code: number | null) => void;
}

export class RtpBridge {
  private readonly options: BridgeOptions;
  private readonly socket = dgram.createSocket('udp4');
  private readonly dir: string;
  private child: ChildProcess | undefined;
  private ports: { video: number; audio: number | undefined } | undefined;
  /** The video-only output (stdout) and the output the audio is taken from (fd 3). */
  private readonly videoOut = new FlvTagReader();
  private readonly mixedOut = new FlvTagReader();
  /** The two outputs' timestamps of their first video frame (their timelines' offset). */
  private firstVideo: { alone: number | undefined; mixed: number | undefined } = {
    alone: undefined,
    mixed: undefined,
  };
  /** Audio of the mixed output, waiting for the offset to be known. */
  private heldAudio: { timestamp: number; payload: Buffer }[] = [];
  private stopping = false;
  private stderrTail = '';
  private socketClosed = false;
  /** The last packet sent to each port: repeated to wake ffmpeg when it is told to stop. */
  private readonly last = new Map<number, Buffer>();
  /** Settles when ffmpeg has exited. */
  readonly exited: Promise<void>;
  private markExited!: () => void;
  /** Packets dropped for being padding only (Chrome's bandwidth probes). */
  paddingDropped = 0;

  constructor(options: BridgeOptions) {
    this.options = options;
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-whip-'));
    this.exited = new Promise((resolve) => {
      this.markExited = resolve;
    });
    this.socket.on('error', (error) => {
      options.logger.warn({ err: error }, 'whip rtp relay socket error');
    });
  }

  /** Starts ffmpeg on free loopback ports. */
  async start(): Promise<void> {
    const { codecs } = this.options;
    const video = await freePortPair();
    const audio = codecs.audio ? await freePortPair([video]) : undefined;
    this.ports = { video, audio };
    const sdp = [
      'v=0',
      'o=- 0 0 IN IP4 127.0.0.1',
      's=whip',
      'c=IN IP4 127.0.0.1',
      't=0 0',
      `m=video ${video} RTP/AVP ${codecs.video.payloadType}`,
      `a=rtpmap:${codecs.video.payloadType} H264/90000`,
      `a=fmtp:${codecs.video.payloadType} packetization-mode=1`,
      ...(codecs.audio && audio !== undefined
        ? [
            `m=audio ${audio} RTP/AVP ${codecs.audio.payloadType}`,
            `a=rtpmap:${codecs.audio.payloadType} opus/48000/${codecs.audio.channels}`,
          ]
        : []),
      '',
    ].join('\n');
    const sdpFile = path.join(this.dir, 'in.sdp');
    fs.writeFileSync(sdpFile, sdp);
    const args = [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      '-protocol_whitelist',
      'file,udp,rtp',
      '-analyzeduration',
      String(ANALYZE_MICROSECONDS),
      '-fflags',
      '+genpts',
      // A keyframe arrives as a burst of a hundred packets or more: with the kernel's default
      // receive buffer (208 KiB) a busy ffmpeg loses some, and then every frame until the next
      // keyframe with them. Capped by net.core.rmem_max (README).
      '-buffer_size',
      String(RECEIVE_BUFFER_BYTES),
      // A packet missing is waited for this long (the NACKs of nack-requester.ts ask for it
      // again meanwhile), then given up on; ffmpeg's default for an SDP input is 100 ms.
      '-max_delay',
      String(REORDER_WAIT_MS * 1000),
      '-i',
      sdpFile,
      // The video alone, copied, to stdout.
      ...['-map', '0:v:0', '-c:v', 'copy'],
      ...['-f', 'flv', '-flvflags', 'no_duration_filesize', 'pipe:1'],
      // The audio (AAC) with the video again, to fd 3: only its audio is used.
      ...(codecs.audio
        ? [
            ...['-map', '0:v:0', '-c:v', 'copy', '-map', '0:a:0'],
            ...['-c:a', 'aac', '-b:a', '128k', '-ac', '2'],
            ...['-f', 'flv', '-flvflags', 'no_duration_filesize', 'pipe:3'],
          ]
        : []),
    ];
    const child = spawn(this.options.ffmpegPath, args, {
      stdio: ['ignore', 'pipe', 'pipe', codecs.audio ? 'pipe' : 'ignore'],
    });
    this.child = child;
    child.stdout?.on('data', (chunk: Buffer) => {
      this.videoOut.push(chunk, (type, timestamp, payload) => {
        this.fromVideoOutput(type, timestamp, payload);
      });
    });
    (child.stdio[3] as Readable | null)?.on('data', (chunk: Buffer) => {
      this.mixedOut.push(chunk, (type, timestamp, payload) => {
        this.fromMixedOutput(type, timestamp, payload);
      });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-2000);
    });
    child.on('error', (error) => {
      this.options.logger.warn({ err: error }, 'whip ffmpeg could not run');
    });
    child.on('close', (code) => {
      if (code !== 0 && !this.stopping) {
        this.options.logger.warn({ code, stderr: this.stderrTail.trim() }, 'whip ffmpeg exited');
      }
      this.socketClosed = true;
      this.socket.close();
      fs.rmSync(this.dir, { recursive: true, force: true });
      this.markExited();
      this.options.onExit(code);
    });
  }

  /** One packet of the publisher's track; RTCP and padding-only packets are dropped. */
  forward(kind: 'video' | 'audio', packet: Buffer): void {
    const port = kind === 'video' ? this.ports?.video : this.ports?.audio;
    if (port === undefined || this.socketClosed || !isMediaRtp(packet)) return;
    if (paddingOnly(packet)) {
      this.paddingDropped += 1;
      return;
    }
    this.last.set(port, packet);
    this.socket.send(packet, port, '127.0.0.1');
  }

  /**
   * Asks ffmpeg to finish (it writes what it holds), killing it if it does not. ffmpeg notices
   * SIGINT only when a packet wakes its read: with the publisher's media stopped (a drop, or
   * its peer connection closed) the last packets are sent again (ffmpeg drops them as
   * duplicates) until it has exited.
   */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) {
      fs.rmSync(this.dir, { recursive: true, force: true });
      return;
    }
    if (!this.stopping) {
      this.stopping = true;
      if (child.exitCode === null) child.kill('SIGINT');
      const nudge = setInterval(() => {
        if (this.socketClosed) return;
        for (const [port, packet] of this.last) this.socket.send(packet, port, '127.0.0.1');
      }, NUDGE_INTERVAL_MS);
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      void this.exited.then(() => {
        clearInterval(nudge);
        clearTimeout(timer);
      });
    }
    await this.exited;
  }

  /** Kills ffmpeg at once (the stream ended elsewhere, shutdown). */
  kill(): void {
    this.stopping = true;
    this.child?.kill('SIGKILL');
  }

  private fromVideoOutput(type: number, timestamp: number, payload: Buffer): void {
    if (type !== 9) return;
    if (this.firstVideo.alone === undefined && isVideoFrame(payload)) {
      this.firstVideo.alone = timestamp;
      this.releaseAudio();
    }
    this.options.onMessage(9, timestamp, payload);
  }

  private fromMixedOutput(type: number, timestamp: number, payload: Buffer): void {
    if (type === 9) {
      if (this.firstVideo.mixed === undefined && isVideoFrame(payload)) {
        this.firstVideo.mixed = timestamp;
        this.releaseAudio();
      }
      return;
    }
    if (type !== 8) return;
    this.heldAudio.push({ timestamp, payload });
    this.releaseAudio();
  }

  /** Audio on the video output's timeline, once the offset is known (earlier audio is dropped). */
  private releaseAudio(): void {
    const { alone, mixed } = this.firstVideo;
    if (alone === undefined || mixed === undefined) {
      // Bounded: a publish whose video never starts has nothing to play the audio with.
      if (this.heldAudio.length > MAX_HELD_AUDIO) this.heldAudio.shift();
      return;
    }
    const offset = mixed - alone;
    for (const { timestamp, payload } of this.heldAudio.splice(0)) {
      const shifted = timestamp - offset;
      // The AAC sequence header (timestamp 0 in its output) is always passed on.
      if (shifted >= 0 || payload[1] === 0) this.options.onMessage(8, Math.max(0, shifted), payload);
    }
  }
}

/** An FLV video tag with a frame (AVC NALUs), not the sequence header (written at time 0). */
function isVideoFrame(payload: Buffer): boolean {
  return payload[1] === 1;
}

/** FLV tags out of an FLV byte stream (after its 13-byte header), as they complete. */
class FlvTagReader {
  private pending: Buffer = Buffer.alloc(0);
  private headerRead = false;

  push(chunk: Buffer, onTag: (type: number, timestamp: number, payload: Buffer) => void): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    let offset = 0;
    if (!this.headerRead) {
      if (this.pending.length < 13) return;
      this.headerRead = true;
      offset = 13;
    }
    while (this.pending.length - offset >= 11) {
      const size = this.pending.readUIntBE(offset + 1, 3);
      const end = offset + 11 + size + 4;
      if (this.pending.length < end) break;
      const type = this.pending[offset] ?? 0;
      const timestamp = this.pending.readUIntBE(offset + 4, 3) + (this.pending[offset + 7] ?? 0) * 0x1000000;
      if (type === 8 || type === 9) {
        onTag(type, timestamp, Buffer.from(this.pending.subarray(offset + 11, offset + 11 + size)));
      }
      offset = end;
    }
    this.pending = this.pending.subarray(offset);
  }
}

/** RTP version 2 and not an RTCP packet type (200-206 share the marker/payload-type byte). */
function isMediaRtp(packet: Buffer): boolean {
  if (packet.length < 12 || (packet[0] ?? 0) >> 6 !== 2) return false;
  const second = packet[1] ?? 0;
  return second < 192 || second > 223;
}

/** A packet whose payload is all padding (RFC 3550 5.1: the last byte counts the padding). */
function paddingOnly(packet: Buffer): boolean {
  const first = packet[0] ?? 0;
  if ((first & 0x20) === 0) return false;
  let header = 12 + (first & 0x0f) * 4;
  if (first & 0x10) {
    if (packet.length < header + 4) return true;
    header += 4 + packet.readUInt16BE(header + 2) * 4;
  }
  const padding = packet[packet.length - 1] ?? 0;
  return packet.length - header - padding <= 0;
}

/** An even UDP port on loopback whose next port (RTCP, which ffmpeg binds too) is also free. */
async function freePortPair(avoid: readonly number[] = []): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = 20_000 + 2 * Math.floor(Math.random() * 20_000);
    if (avoid.some((taken) => Math.abs(taken - port) < 2)) continue;
    if ((await canBind(port)) && (await canBind(port + 1))) return port;
  }
  throw new Error('no free UDP port pair on loopback for the WHIP relay');
}

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = dgram.createSocket('udp4');
    probe.once('error', () => {
      probe.close();
      resolve(false);
    });
    probe.bind(port, '127.0.0.1', () => {
      probe.close(() => {
        resolve(true);
      });
    });
  });
}
