// The real application on a real listening socket over a real database (see app.ts), and
// raw HTTP/1.1 over a bare socket for what no HTTP client would send.
import net from 'node:net';
import type { TestContext } from 'node:test';
import { startTestApp, type TestApp, type TestAppOptions } from './app.ts';

export type { Account, ApiResponse } from './app.ts';
export type TestServer = TestApp;
export type TestServerOptions = Omit<TestAppOptions, 'media' | 'worker'>;

/** The API alone: a TestClock unless given, 60 requests a minute per address unless given. */
export function startTestServer(t: TestContext, options: TestServerOptions): Promise<TestServer> {
  return startTestApp(t, options);
}

export interface RawResponse {
  status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
}

export interface RawExchange {
  responses: RawResponse[];
  /** The server closed (or reset) the connection before `waitMs` ran out. */
  closed: boolean;
  /** Milliseconds from connecting until the server closed the connection, or until `waitMs`. */
  elapsedMs: number;
  /** Bytes that did not parse as HTTP/1.1 responses. */
  leftover: string;
  /** Everything the server sent. */
  raw: Buffer;
}

export interface RawOptions {
  /** Give up waiting for the server to close after this long. */
  waitMs?: number;
  /** Half-close the sending side once everything is written. */
  end?: boolean;
  /** Bytes written after `request`, one piece every `intervalMs` (a slow client). */
  trickle?: { pieces: (string | Buffer)[]; intervalMs: number };
  /** The request was a HEAD: its responses carry no body. */
  head?: boolean;
  /** Stop once this many whole responses have arrived (`closed` then says whether it was). */
  untilResponses?: number;
}

/**
 * Talks HTTP over a bare TCP connection, so a test can send what no HTTP client would:
 * malformed request lines, lying lengths, bodies on GET, bytes trickled one at a time.
 */
export function rawExchange(
  port: number,
  request: string | Buffer,
  options: RawOptions = {},
): Promise<RawExchange> {
  const waitMs = options.waitMs ?? 2000;
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let trickleTimer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(trickleTimer);
      const elapsedMs = performance.now() - started;
      socket.destroy();
      const raw = Buffer.concat(chunks);
      const { responses, leftover } = parseResponses(raw, options.head === true);
      resolve({ responses, closed, elapsedMs, leftover, raw });
    };
    const timer = setTimeout(() => {
      finish(false);
    }, waitMs);
    socket.on('data', (data) => {
      chunks.push(data);
      const until = options.untilResponses;
      if (
        until !== undefined &&
        parseResponses(Buffer.concat(chunks), options.head === true).responses.length >= until
      ) {
        finish(false);
      }
    });
    // A reset after the response is still a close; what was received is kept.
    socket.on('error', () => {
      finish(true);
    });
    socket.on('close', () => {
      finish(true);
    });
    socket.on('connect', () => {
      socket.write(request);
      const pieces = [...(options.trickle?.pieces ?? [])];
      if (pieces.length > 0) {
        trickleTimer = setInterval(() => {
          const piece = pieces.shift();
          if (piece === undefined || socket.destroyed) {
            clearInterval(trickleTimer);
            if (options.end) socket.end();
            return;
          }
          socket.write(piece);
        }, options.trickle?.intervalMs ?? 100);
      } else if (options.end) socket.end();
    });
  });
}

/** Splits bytes received on one connection into HTTP/1.1 responses. */
export function parseResponses(data: Buffer, head = false): { responses: RawResponse[]; leftover: string } {
  const responses: RawResponse[] = [];
  let offset = 0;
  for (;;) {
    const headerEnd = data.indexOf('\r\n\r\n', offset);
    if (headerEnd < 0) break;
    const lines = data.subarray(offset, headerEnd).toString('latin1').split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
    if (!match) break;
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    const status = Number(match[1]);
    let cursor = headerEnd + 4;
    let body: Buffer = Buffer.alloc(0);
    if (head || status === 204 || status === 304 || (status >= 100 && status < 200)) {
      // no body
    } else if (headers['transfer-encoding']?.toLowerCase().includes('chunked')) {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = data.indexOf('\r\n', cursor);
        if (lineEnd < 0) return { responses, leftover: data.subarray(offset).toString('latin1') };
        const size = Number.parseInt(data.subarray(cursor, lineEnd).toString('latin1'), 16);
        cursor = lineEnd + 2;
        if (!Number.isFinite(size)) return { responses, leftover: data.subarray(offset).toString('latin1') };
        if (size === 0) {
          const trailerEnd = data.indexOf('\r\n', cursor);
          cursor = trailerEnd < 0 ? data.length : trailerEnd + 2;
          break;
        }
        parts.push(data.subarray(cursor, cursor + size));
        cursor += size + 2;
      }
      body = Buffer.concat(parts);
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      body = data.subarray(cursor, cursor + length);
      if (body.length < length) return { responses, leftover: data.subarray(offset).toString('latin1') };
      cursor += length;
    } else {
      // Delimited by the connection closing.
      body = data.subarray(cursor);
      cursor = data.length;
    }
    responses.push({ status, headers, body: body.toString('utf8') });
    offset = cursor;
  }
  return { responses, leftover: data.subarray(offset).toString('latin1') };
}
