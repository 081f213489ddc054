// A real HTTPS webhook receiver on 127.0.0.1 with the test CA's certificate. It records every
// request (headers and raw body bytes, arrival time) and answers from a script, so tests can
// make it fail, stall, throttle or vanish.
import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testCa } from './test-ca.ts';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  body: any;
  receivedAt: number;
  /** Set when the sender gave up on the request before the answer was sent. */
  aborted: boolean;
}

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long before answering (a slow receiver). */
  delayMs?: number;
  /** Never answer (a dead receiver); the connection stays open until the sender gives up. */
  hang?: boolean;
}

/** Chooses the answer to the n-th request (0-based). */
export type Script = (request: ReceivedRequest, index: number) => ScriptedAnswer;

export const ALWAYS_OK: Script = () => ({ status: 200, body: '{"ok":true}' });

export class HttpsReceiver {
  readonly requests: ReceivedRequest[] = [];
  script: Script;
  private readonly server: https.Server;
  private waiters: { count: number; resolve: () => void }[] = [];

  constructor(script: Script = ALWAYS_OK) {
    this.script = script;
    const ca = testCa();
    this.server = https.createServer(
      { key: ca.keyPem, cert: ca.certPem, keepAliveTimeout: 60_000 },
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          const rawBody = Buffer.concat(chunks);
          let body: unknown;
          try {
            body = JSON.parse(rawBody.toString('utf8'));
          } catch {
            body = undefined;
          }
          const received: ReceivedRequest = {
            method: req.method ?? '',
            path: req.url ?? '',
            headers: req.headers,
            rawBody,
            body,
            receivedAt: Date.now(),
            aborted: false,
          };
          const index = this.requests.length;
          this.requests.push(received);
          res.on('close', () => {
            if (!res.writableFinished) received.aborted = true;
          });
          this.notify();
          const answer = this.script(received, index);
          if (answer.hang === true) return;
          const send = () => {
            if (res.destroyed) return;
            res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
            res.end(answer.body ?? '');
          };
          if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
          else send();
        });
      },
    );
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `https://127.0.0.1:${this.port}${path}`;
  }

  /** Resolves once `count` requests have arrived, or rejects after `timeoutMs`. */
  async waitForRequests(count: number, timeoutMs = 10_000): Promise<ReceivedRequest[]> {
    if (this.requests.length >= count) return this.requests;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new Error(
            `expected ${count} requests at the receiver, got ${this.requests.length} in ${timeoutMs} ms`,
          ),
        );
      }, timeoutMs);
      this.waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
    return this.requests;
  }

  private notify(): void {
    const ready = this.waiters.filter((waiter) => this.requests.length >= waiter.count);
    this.waiters = this.waiters.filter((waiter) => this.requests.length < waiter.count);
    for (const waiter of ready) waiter.resolve();
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.server.close(() => {
        resolve();
      }),
    );
  }
}

export async function startReceiver(script: Script = ALWAYS_OK): Promise<HttpsReceiver> {
  return new HttpsReceiver(script).listen();
}
