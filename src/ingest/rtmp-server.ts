// The RTMP listener streaming software publishes to. It speaks RTMP through node-media-server's
// protocol layer and turns each publisher's audio and video into an FLV byte stream, which it
// holds back until the ingest has decided (asynchronously, against the database) whether the
// stream key may publish. It never logs the stream key: the key is the publish "stream name".
import net from 'node:net';
import Flv from 'node-media-server/src/protocol/flv.js';
import Rtmp from 'node-media-server/src/protocol/rtmp.js';
import type AVPacket from 'node-media-server/src/core/avpacket.js';

/** Where an accepted publisher's FLV bytes go (the packager's stdin). */
export interface FlvSink {
  write(chunk: Buffer): void;
  end(): void;
}

export type PublishHandler = (connection: PublishConnection) => void;

const AUDIO = 8;
const VIDEO = 9;
/** What a publisher may send before it is admitted; admission takes milliseconds. */
const MAX_PENDING_BYTES = 16 * 1024 * 1024;

/** One connection that asked to publish. */
export class PublishConnection {
  readonly app: string;
  readonly streamKey: string;
  readonly remoteAddress: string;
  private readonly socket: net.Socket;
  private readonly rtmp: Rtmp;
  private state: 'pending' | 'accepted' | 'closed' = 'pending';
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private sink: FlvSink | undefined;
  private readonly closeListeners: (() => void)[] = [];
  /** When the first audio or video frame arrived (epoch ms), for time-to-live figures. */
  firstMediaAt: number | undefined;

  constructor(socket: net.Socket, rtmp: Rtmp, app: string, streamKey: string) {
    this.socket = socket;
    this.rtmp = rtmp;
    this.app = app;
    this.streamKey = streamKey;
    this.remoteAddress = socket.remoteAddress ?? 'unknown';
  }

  get closed(): boolean {
    return this.state === 'closed';
  }

  /** Starts the flow of FLV bytes into `sink`, beginning with what arrived while pending. */
  accept(sink: FlvSink): void {
    if (this.state !== 'pending') return;
    this.state = 'accepted';
    this.sink = sink;
    sink.write(Flv.createHeader(true, true));
    for (const chunk of this.pending) sink.write(chunk);
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** Refuses the publish with an RTMP error status streaming software shows, then hangs up. */
  reject(description: string): void {
    if (this.state === 'closed') return;
    this.rtmp.sendStatusMessage(this.rtmp.streamId, 'error', 'NetStream.Publish.BadName', description);
    this.disconnect();
  }

  /** Ends the connection (the stream ended, the server is stopping). */
  disconnect(): void {
    this.socket.end();
    this.socket.destroySoon();
  }

  onClose(listener: () => void): void {
    if (this.state === 'closed') listener();
    else this.closeListeners.push(listener);
  }

  /** @internal the server feeds packets here. */
  receive(packet: AVPacket): void {
    if (this.state === 'closed') return;
    // Script data (the encoder's metadata) is left out: ffmpeg finds the streams from the media.
    if (packet.codec_type !== AUDIO && packet.codec_type !== VIDEO) return;
    this.firstMediaAt ??= Date.now();
    const tag = Flv.createMessage(packet);
    if (this.state === 'accepted') {
      this.sink?.write(tag);
      return;
    }
    this.pending.push(tag);
    this.pendingBytes += tag.length;
    if (this.pendingBytes > MAX_PENDING_BYTES) this.reject('The server could not admit the stream in time.');
  }

  /** @internal the server calls this when the socket closes. */
  closedBySocket(): void {
    if (this.state === 'closed') return;
    const wasAccepted = this.state === 'accepted';
    this.state = 'closed';
    this.pending = [];
    if (wasAccepted) this.sink?.end();
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}

export class RtmpIngestServer {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();

  constructor(onPublish: PublishHandler) {
    this.server = net.createServer((socket) => {
      this.handle(socket, onPublish);
    });
  }

  async listen(port: number, host?: string): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : port;
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) =>
      this.server.close(() => {
        resolve();
      }),
    );
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  private handle(socket: net.Socket, onPublish: PublishHandler): void {
    this.sockets.add(socket);
    socket.setNoDelay(true);
    const rtmp = new Rtmp();
    let request: { app: string; name: string } | undefined;
    let connection: PublishConnection | undefined;

    rtmp.onOutputCallback = (buffer) => {
      if (!socket.destroyed) socket.write(buffer);
    };
    rtmp.onConnectCallback = (req) => {
      request = { app: req.app, name: req.name };
    };
    rtmp.onPlayCallback = () => {
      // Playback is HLS over HTTP; the RTMP port only takes publishers.
      rtmp.sendStatusMessage(rtmp.streamId, 'error', 'NetStream.Play.Failed', 'This server only ingests.');
      socket.end();
    };
    rtmp.onPushCallback = () => {
      if (!request || connection) {
        socket.end();
        return;
      }
      connection = new PublishConnection(socket, rtmp, request.app, request.name);
      onPublish(connection);
    };
    rtmp.onPacketCallback = (packet) => {
      connection?.receive(packet);
    };
    socket.on('data', (data: Buffer) => {
      const error = rtmp.parserData(data);
      if (error !== null) socket.destroy();
    });
    socket.on('error', () => {
      // A dropped publisher is routine; 'close' follows and does the bookkeeping.
    });
    socket.on('close', () => {
      this.sockets.delete(socket);
      connection?.closedBySocket();
    });
    // A client that connects and never publishes is not kept forever.
    socket.setTimeout(30_000, () => socket.destroy());
  }
}
