// A TCP proxy in front of the service that can cut every connection through it at once, as a
// dropped Wi-Fi or a closed laptop lid would, and counts the bytes clients sent through it
// (to tell how much an upload sent twice).
import net from 'node:net';
import type { TestContext } from 'node:test';

export class CuttingProxy {
  /** Bytes received from clients and passed on (request lines, headers and bodies). */
  bytesUp = 0;
  /** Connections cut on purpose so far. */
  cuts = 0;
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();

  private constructor(targetPort: number) {
    this.server = net.createServer((client) => {
      const upstream = net.connect(targetPort, '127.0.0.1');
      this.sockets.add(client).add(upstream);
      client.on('data', (chunk: Buffer) => {
        this.bytesUp += chunk.length;
      });
      client.pipe(upstream).pipe(client);
      const close = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
    });
  }

  static async start(t: TestContext, targetPort: number): Promise<CuttingProxy> {
    const proxy = new CuttingProxy(targetPort);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    t.after(() => {
      proxy.cutAll();
      return new Promise<void>((resolve) =>
        proxy.server.close(() => {
          resolve();
        }),
      );
    });
    return proxy;
  }

  get port(): number {
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : 0;
  }

  /** Resets every open connection both ways. */
  cutAll(): void {
    for (const socket of this.sockets) socket.resetAndDestroy();
    this.sockets.clear();
    this.cuts++;
  }
}
