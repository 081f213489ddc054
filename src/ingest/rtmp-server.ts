// The RTMP listener streaming software publishes to. It speaks RTMP through our own bounded
// protocol layer (./rtmp/) and turns each publisher's audio and video into an FLV byte
// stream, which it holds back until the ingest has decided (asynchronously, against the
// database) whether the stream key may publish.
//
// Anyone can reach this port, so nothing a client sends may end the process: every protocol
// problem is an RtmpProtocolError that closes that one connection with one warn line (remote
// address and reason, never the stream key, which is the publish "stream name"), and every
// callback that runs for a socket runs inside a guard. Before admission a connection is
// bounded in time (publish within `publishDeadlineMs`) and in number (`maxConnections`).
import net from 'node:net';
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../shared/clock.ts';
import { flvHeader, flvTag } from './rtmp/flv.ts';
import { RtmpProtocolError } from './rtmp/protocol-error.ts';
import { RtmpSession, type PublishRequest } from './rtmp/session.ts';

/** Where an accepted publisher's FLV bytes go (the packager's stdin). */
export interface FlvSink {
  write(chunk: Buffer): void;
  end(): void;
}

export type PublishHandler = (connection: PublishConnection) => void;

export interface RtmpServerOptions {
  logger: Logger;
  /** Times first media and spaces the over-the-cap log lines (the system clock unless given). */
  clock?: Clock;
  /** RTMP connections open at once; more are closed as they arrive. */
  maxConnections: number;
  /** A connection that has not asked to publish this long after it opened is closed. */
  publishDeadlineMs?: number;
  /** A connection silent this long is closed (an encoder sends media continuously). */
  idleTimeoutMs?: number;
}

export const PUBLISH_DEADLINE_MS = 10_000;
const IDLE_TIMEOUT_MS = 30_000;
/** What a publisher may send before it is admitted; admission takes milliseconds. */
const MAX_PENDING_BYTES = 4 * 1024 * 1024;
/** Replies a client does not read pile up in the socket; past this it is not a real client. */
const MAX_UNREAD_OUTPUT_BYTES = 1024 * 1024;
/** Over-the-cap connections are logged at most this often (with how many were turned away). */
const CAP_LOG_INTERVAL_MS = 10_000;

/** One connection that asked to publish. */
export class PublishConnection {
  readonly app: string;
  readonly streamKey: string;
  readonly remoteAddress: string;
  private readonly socket: net.Socket;
  private readonly session: RtmpSession;
  private state: 'pending' | 'accepted' | 'closed' = 'pending';
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private sink: FlvSink | undefined;
  private readonly closeListeners: (() => void)[] = [];
  private readonly clock: Clock;
  /** When the first audio or video frame arrived (epoch ms), for time-to-live figures. */
  firstMediaAt: number | undefined;

  constructor(socket: net.Socket, session: RtmpSession, request: PublishRequest, clock: Clock) {
    this.socket = socket;
    this.session = session;
    this.clock = clock;
    this.app = request.app;
    this.streamKey = request.streamName;
    this.remoteAddress = socket.remoteAddress ?? 'unknown';
  }

  get closed(): boolean {
    return this.state === 'closed';
  }

  /**
   * Admits the publisher: NetStream.Publish.Start goes to the encoder (only now), and FLV
   * bytes flow into `sink`, beginning with anything that arrived while pending.
   */
  accept(sink: FlvSink): void {
    if (this.state !== 'pending') return;
    this.state = 'accepted';
    this.sink = sink;
    sink.write(flvHeader());
    for (const chunk of this.pending) sink.write(chunk);
    this.pending = [];
    this.pendingBytes = 0;
    this.session.acceptPublish();
  }

  /** Refuses the publish with an RTMP error status streaming software shows, then hangs up. */
  reject(description: string): void {
    if (this.state === 'closed') return;
    this.session.sendStatus('error', 'NetStream.Publish.BadName', description);
    this.disconnect();
  }

  /** Ends the connection (the stream ended, the server is stopping). */
  disconnect(): void {
    this.session.stop();
    this.socket.end();
    this.socket.destroySoon();
  }

  onClose(listener: () => void): void {
    if (this.state === 'closed') listener();
    else this.closeListeners.push(listener);
  }

  /** @internal the server feeds audio (8) and video (9) messages here. */
  receive(type: number, timestamp: number, payload: Buffer): void {
    if (this.state === 'closed') return;
    this.firstMediaAt ??= this.clock.now();
    const tag = flvTag(type, timestamp, payload);
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
  private readonly onPublish: PublishHandler;
  private readonly logger: Logger;
  private readonly clock: Clock;
  private readonly maxConnections: number;
  private readonly publishDeadlineMs: number;
  private readonly idleTimeoutMs: number;
  private refusedOverCap = 0;
  private lastCapLog = 0;

  constructor(onPublish: PublishHandler, options: RtmpServerOptions) {
    this.onPublish = onPublish;
    this.logger = options.logger;
    this.clock = options.clock ?? systemClock;
    this.maxConnections = options.maxConnections;
    this.publishDeadlineMs = options.publishDeadlineMs ?? PUBLISH_DEADLINE_MS;
    this.idleTimeoutMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
    this.server = net.createServer((socket) => {
      this.guard(socket, () => {
        this.handle(socket);
      });
    });
    // Errors of the listening socket itself after listen (accept failures such as EMFILE).
    this.server.on('error', (error) => {
      this.logger.error({ err: error }, 'rtmp listener error');
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

  private handle(socket: net.Socket): void {
    const remote = socket.remoteAddress ?? 'unknown';
    socket.on('error', () => {
      // A dropped publisher is routine; 'close' follows and does the bookkeeping.
    });
    if (this.sockets.size >= this.maxConnections) {
      this.refuseOverCap(remote);
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    socket.setNoDelay(true);
    let connection: PublishConnection | undefined;
    let closing = false;

    /** Ends this connection once, with one warn line unless it ended normally. */
    const close = (reason: string, level: 'warn' | 'info') => {
      if (closing) return;
      closing = true;
      session.stop();
      if (level === 'warn') this.logger.warn({ remote, reason }, 'rtmp connection closed');
      else this.logger.info({ remote, reason }, 'rtmp connection ended');
      socket.end();
      socket.destroySoon();
    };

    const session: RtmpSession = new RtmpSession({
      send: (bytes) => {
        if (!socket.writable) return;
        socket.write(bytes);
        if (socket.writableLength > MAX_UNREAD_OUTPUT_BYTES)
          close('the client does not read its replies', 'warn');
      },
      publish: (request) => {
        clearTimeout(deadline);
        connection = new PublishConnection(socket, session, request, this.clock);
        this.onPublish(connection);
      },
      media: (type, timestamp, payload) => {
        connection?.receive(type, timestamp, payload);
      },
      end: (reason) => {
        close(reason, 'info');
      },
    });

    const deadline = setTimeout(() => {
      this.guard(socket, () => {
        close(`no publish within ${this.publishDeadlineMs} ms`, 'warn');
      });
    }, this.publishDeadlineMs);

    socket.on('data', (data: Buffer) => {
      this.guard(socket, () => {
        try {
          session.feed(data);
        } catch (error) {
          if (!(error instanceof RtmpProtocolError)) throw error;
          close(error.reason, 'warn');
        }
      });
    });
    socket.on('close', () => {
      clearTimeout(deadline);
      this.sockets.delete(socket);
      this.guard(socket, () => {
        connection?.closedBySocket();
      });
    });
    socket.setTimeout(this.idleTimeoutMs, () => {
      this.guard(socket, () => {
        close('idle', 'info');
      });
    });
  }

  /**
   * Runs `step` for one socket; anything it throws (a bug here, in the session, or in the
   * admission handler) closes that socket and is logged, never reaching the process.
   */
  private guard(socket: net.Socket, step: () => void): void {
    try {
      step();
    } catch (error) {
      this.logger.error({ err: error, remote: socket.remoteAddress }, 'rtmp connection failed');
      socket.destroy();
    }
  }

  private refuseOverCap(remote: string): void {
    this.refusedOverCap += 1;
    const now = this.clock.now();
    if (now - this.lastCapLog < CAP_LOG_INTERVAL_MS) return;
    this.lastCapLog = now;
    this.logger.warn(
      { remote, maxConnections: this.maxConnections, refused: this.refusedOverCap },
      'rtmp connection refused: too many connections',
    );
    this.refusedOverCap = 0;
  }
}
