// The RTMP listener streaming software publishes to. It speaks RTMP through our own bounded
// protocol layer (./rtmp/) and turns each publisher's audio and video into an FLV byte
// stream, which it holds back until the ingest has decided (asynchronously, against the
// database) whether the stream key may publish.
//
// Anyone can reach this port, so nothing a client sends may end the process: every protocol
// problem is an RtmpProtocolError that closes that one connection with one warn line (remote
// address and reason, never the stream key, which is the publish "stream name"), and every
// callback that runs for a socket runs inside a guard. Before admission a connection is
// bounded in time (publish within `publishDeadlineMs`) and in number (`maxConnections`; a
// few connections over it are served just far enough to read why they are refused).
import net from 'node:net';
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../shared/clock.ts';
import { Publisher, type Refusal } from './publisher.ts';
import { RtmpProtocolError } from './protocol-error.ts';
import { ProxyHeaderReader } from './proxy-protocol.ts';
import { RtmpSession, type PublishRequest } from './session.ts';

export type { FlvSink, Refusal, RefusalCode } from './publisher.ts';

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
  /**
   * Every connection begins with a PROXY protocol header naming the client (RTMP_PROXY_PROTOCOL:
   * behind a balancer that sends one, deploy/nginx-ingest.conf); one without it is closed.
   */
  proxyProtocol?: boolean;
}

export const PUBLISH_DEADLINE_MS = 10_000;
const IDLE_TIMEOUT_MS = 30_000;
/** Replies a client does not read pile up in the socket; past this it is not a real client. */
const MAX_UNREAD_OUTPUT_BYTES = 1024 * 1024;
/** A balancer sends its PROXY header with the connection's first bytes; this is generous. */
const PROXY_HEADER_DEADLINE_MS = 5000;
/** Over-the-cap connections are logged at most this often (with how many were turned away). */
const CAP_LOG_INTERVAL_MS = 10_000;
/**
 * Connections over the cap that are still served far enough to be told why (handshake,
 * connect, publish, then a refusal the encoder shows); past these they are closed at once.
 */
export const OVER_CAP_REFUSAL_SLOTS = 16;
/** An over-the-cap connection must ask to publish this soon (it is only there to be refused). */
const OVER_CAP_DEADLINE_MS = 3000;
/**
 * After a refusal the connection stays open (reading and discarding) this long at most, so an
 * encoder that is still writing media reads the status instead of hitting a reset.
 */
const REFUSAL_LINGER_MS = 2000;

/** One connection that asked to publish. */
export class PublishConnection extends Publisher {
  private readonly socket: net.Socket;
  private readonly session: RtmpSession;

  constructor(
    socket: net.Socket,
    session: RtmpSession,
    request: PublishRequest,
    clock: Clock,
    remoteAddress: string,
  ) {
    super({ app: request.app, streamKey: request.streamName, remoteAddress }, clock);
    this.socket = socket;
    this.session = session;
  }

  /** NetStream.Publish.Start goes to the encoder (only now). */
  protected admitted(): void {
    this.session.acceptPublish();
  }

  /**
   * Refuses the publish with an RTMP error status streaming software shows (ffmpeg prints
   * "Server error: <description>"), then hangs up.
   */
  protected refused(refusal: Refusal): void {
    this.session.sendStatus('error', refusal.code, refusal.description);
    this.session.stop();
    // Half-close: the status is delivered, later media is read and dropped, and the encoder
    // hangs up itself once it has read the status (or the linger runs out).
    this.socket.end();
    setTimeout(() => {
      this.socket.destroy();
    }, REFUSAL_LINGER_MS).unref();
  }

  /** Ends the connection (the stream ended, the server is stopping). */
  disconnect(): void {
    this.session.stop();
    this.socket.end();
    this.socket.destroySoon();
  }

  /** @internal the server calls this when the session hears the encoder unpublish. */
  unpublished(): void {
    if (!this.closed) this.stoppedCleanly = true;
  }

  /** @internal the server calls this when the socket closes. */
  closedBySocket(): void {
    this.transportClosed();
  }
}

export class RtmpIngestServer {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  /** Connections over the cap, kept only until they have been told so. */
  private readonly overCapSockets = new Set<net.Socket>();
  /** Connections whose PROXY protocol header has not come yet. */
  private readonly awaitingHeader = new Set<net.Socket>();
  private readonly proxyProtocol: boolean;
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
    this.proxyProtocol = options.proxyProtocol ?? false;
    this.server = net.createServer((socket) => {
      this.guard(socket, () => {
        if (this.proxyProtocol) this.readProxyHeader(socket);
        else this.handle(socket, socket.remoteAddress ?? 'unknown', undefined);
      });
    });
  }

  async listen(port: number, host?: string): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        // Errors of the listening socket itself once it listens (accept failures such as
        // EMFILE); a failure to listen is the caller's to report (ingest.ts: ingest off).
        this.server.on('error', (error) => {
          this.logger.error({ err: error }, 'rtmp listener error');
        });
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
    for (const socket of [...this.sockets, ...this.overCapSockets, ...this.awaitingHeader]) socket.destroy();
    await closed;
  }

  /**
   * Reads the PROXY protocol header the balancer sends first, then serves the connection as
   * the client it names. Until then the connection is bounded like any other: in time (the
   * header comes with the balancer's first write), in size (ProxyHeaderReader) and in number.
   */
  private readProxyHeader(socket: net.Socket): void {
    const balancer = socket.remoteAddress ?? 'unknown';
    socket.on('error', () => undefined);
    if (this.awaitingHeader.size >= this.maxConnections + OVER_CAP_REFUSAL_SLOTS) {
      socket.destroy();
      return;
    }
    this.awaitingHeader.add(socket);
    const reader = new ProxyHeaderReader();
    const done = () => {
      clearTimeout(deadline);
      socket.off('data', onData);
      this.awaitingHeader.delete(socket);
    };
    const refuse = (reason: string) => {
      done();
      this.logger.warn({ remote: balancer, reason }, 'rtmp connection closed');
      socket.destroy();
    };
    const deadline = setTimeout(() => {
      refuse(`no PROXY protocol header within ${PROXY_HEADER_DEADLINE_MS} ms`);
    }, PROXY_HEADER_DEADLINE_MS);
    const onData = (data: Buffer) => {
      this.guard(socket, () => {
        let header;
        try {
          header = reader.feed(data);
        } catch (error) {
          if (!(error instanceof RtmpProtocolError)) throw error;
          refuse(error.reason);
          return;
        }
        if (header === undefined) return;
        done();
        // LOCAL (the balancer's own check) names no client: the connection is the balancer's.
        this.handle(socket, header.address ?? balancer, header.rest.length > 0 ? header.rest : undefined);
      });
    };
    socket.on('data', onData);
    socket.on('close', () => {
      if (this.awaitingHeader.has(socket)) done();
    });
  }

  /** Serves one connection from `remote`; `initial` is what arrived before (after a PROXY header). */
  private handle(socket: net.Socket, remote: string, initial: Buffer | undefined): void {
    socket.on('error', () => {
      // A dropped publisher is routine; 'close' follows and does the bookkeeping.
    });
    // Over the cap, a connection is still served far enough to be told why (the encoder shows
    // it), in a few slots of its own with a short deadline; beyond those it is closed at once.
    const overCap = this.sockets.size >= this.maxConnections;
    if (overCap) {
      this.refuseOverCap(remote);
      if (this.overCapSockets.size >= OVER_CAP_REFUSAL_SLOTS) {
        socket.destroy();
        return;
      }
    }
    const bucket = overCap ? this.overCapSockets : this.sockets;
    bucket.add(socket);
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
        connection = new PublishConnection(socket, session, request, this.clock, remote);
        if (overCap) {
          this.logger.info({ remote, reason: 'too_many_connections' }, 'publish refused');
          connection.reject(
            `The server is at its limit of ${this.maxConnections} encoder connections. Try again in a minute.`,
            'NetStream.Publish.Rejected',
            'too_many_connections',
          );
          return;
        }
        this.onPublish(connection);
      },
      media: (type, timestamp, payload) => {
        connection?.receive(type, timestamp, payload);
      },
      unpublish: () => {
        connection?.unpublished();
      },
      end: (reason) => {
        close(reason, 'info');
      },
    });

    const deadlineMs = overCap
      ? Math.min(OVER_CAP_DEADLINE_MS, this.publishDeadlineMs)
      : this.publishDeadlineMs;
    const deadline = setTimeout(() => {
      this.guard(socket, () => {
        close(`no publish within ${deadlineMs} ms`, overCap ? 'info' : 'warn');
      });
    }, deadlineMs);

    const onData = (data: Buffer) => {
      this.guard(socket, () => {
        try {
          session.feed(data);
        } catch (error) {
          if (!(error instanceof RtmpProtocolError)) throw error;
          close(error.reason, 'warn');
        }
      });
    };
    socket.on('data', onData);
    if (initial !== undefined) onData(initial);
    socket.on('close', () => {
      clearTimeout(deadline);
      bucket.delete(socket);
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
