// A real HTTP proxy in front of the real service that fails requests on purpose, as a load
// balancer or a flaky network would: it answers 429 or 5xx itself, resets the connection before
// or after the service has handled the request, or never answers. It records every request it
// sees, so a test can compare what each attempt carried.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';

export type Fault =
  | { kind: 'forward' }
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: string }
  /** Resets the connection without forwarding: the service never sees the request. */
  | { kind: 'reset' }
  /** Forwards the request, waits for the service's answer, then resets the connection. */
  | { kind: 'forward-then-reset' }
  /** Never answers. */
  | { kind: 'hang' };

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export class FaultProxy {
  readonly seen: SeenRequest[] = [];
  /** The fault for the n-th request (0-based); requests past the list are forwarded. */
  faults: Fault[] = [];
  private readonly server: http.Server;
  private readonly target: string;

  private constructor(target: string) {
    this.target = target;
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const index = this.seen.length;
        this.seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        void this.handle(this.faults[index] ?? { kind: 'forward' }, req, res, body);
      });
    });
  }

  static async start(t: TestContext, target: string): Promise<FaultProxy> {
    const proxy = new FaultProxy(target);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    t.after(() => {
      proxy.server.closeAllConnections();
      return new Promise<void>((resolve) => {
        proxy.server.close(() => {
          resolve();
        });
      });
    });
    return proxy;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private async handle(fault: Fault, req: http.IncomingMessage, res: http.ServerResponse, body: string) {
    if (fault.kind === 'hang') return;
    if (fault.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    if (fault.kind === 'status') {
      res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
      res.end(
        fault.body ?? JSON.stringify({ error: { code: 'upstream_unavailable', message: 'Try again.' } }),
      );
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers[name] = value;
    }
    const init: RequestInit = { method: req.method ?? 'GET', headers };
    if (body !== '') init.body = body;
    const answer = await fetch(`${this.target}${req.url ?? '/'}`, init);
    const text = await answer.text();
    if (fault.kind === 'forward-then-reset') {
      req.socket.destroy();
      return;
    }
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'connection')
        out[name] = value;
    });
    res.writeHead(answer.status, out);
    res.end(text);
  }
}
