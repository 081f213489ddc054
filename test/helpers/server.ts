// Starts the real application on a real listening socket over a real database, and talks to
// it with fetch, as an API client would.
import net from 'node:net';
import type { TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from '../../src/app.ts';
import type { HttpLimitsConfig } from '../../src/config.ts';
import { createServices, type Services } from '../../src/container.ts';
import { migrateToLatest, openDatabase, type Dialect } from '../../src/db/database.ts';
import { MemoryRateLimitStore, type RateLimitStore } from '../../src/http/rate-limit-store.ts';
import type { Clock } from '../../src/shared/clock.ts';
import { TestClock } from './clock.ts';
import { createTestDatabase, type TestDatabase } from './databases.ts';

export interface TestServerOptions {
  dialect: Dialect;
  clock?: Clock;
  rateLimitPerKey?: number;
  rateLimitPerIp?: number;
  rateLimits?: RateLimitStore;
  /** Slow-client limits; the configuration's defaults unless given. */
  http?: Partial<HttpLimitsConfig>;
  /** A logger for the app, to see what it logs; none unless given. */
  logger?: Logger;
}

export interface Account {
  userId: string;
  writeKey: string;
  readKey: string;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export class TestServer {
  readonly app: FastifyInstance;
  readonly services: Services;
  readonly baseUrl: string;
  readonly database: TestDatabase;
  readonly clock: Clock;

  constructor(
    app: FastifyInstance,
    services: Services,
    baseUrl: string,
    database: TestDatabase,
    clock: Clock,
  ) {
    this.app = app;
    this.services = services;
    this.baseUrl = baseUrl;
    this.database = database;
    this.clock = clock;
  }

  get origin(): string {
    return this.baseUrl.replace(/\/v1$/, '');
  }

  get port(): number {
    return Number(new URL(this.baseUrl).port);
  }

  async createAccount(name = 'Test creator'): Promise<Account> {
    const user = await this.services.accounts.createUser(name);
    const write = await this.services.accounts.createKey(user.id, 'write');
    const read = await this.services.accounts.createKey(user.id, 'read');
    return { userId: user.id, writeKey: write.key, readKey: read.key };
  }

  /** A request to an absolute path on the server, such as `/v1/streams`. */
  async request<T = any>(
    method: string,
    path: string,
    options: {
      key?: string | undefined;
      body?: unknown;
      rawBody?: string;
      headers?: Record<string, string>;
    } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${this.origin}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // left as text: the test will say what it expected
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  }
}

export async function startTestServer(t: TestContext, options: TestServerOptions): Promise<TestServer> {
  const database = await createTestDatabase(options.dialect);
  const handle = openDatabase(database.url);
  await migrateToLatest(handle.db);
  const clock = options.clock ?? new TestClock();
  const services = createServices(
    {
      publicUrl: 'http://media.test',
      ingest: { rtmpPort: 1935 },
    },
    handle,
    Buffer.alloc(32, 7),
    clock,
  );
  const app = await buildApp({
    services,
    rateLimits: options.rateLimits ?? new MemoryRateLimitStore(),
    rateLimitPerKey: options.rateLimitPerKey ?? 1000,
    rateLimitPerIp: options.rateLimitPerIp ?? 60,
    ...(options.http ? { http: options.http } : {}),
    logger: options.logger,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const server = new TestServer(app, services, `http://127.0.0.1:${port}/v1`, database, clock);
  t.after(async () => {
    await app.close();
    await handle.close();
    await database.drop();
  });
  return server;
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
