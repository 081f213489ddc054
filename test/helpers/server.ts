// Starts the real application on a real listening socket over a real database, and talks to
// it with fetch, as an API client would.
import type { TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
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
