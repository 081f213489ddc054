// A TCP proxy in front of the real service that cuts one connection mid-transfer: once a
// connection has carried `cutAfterBytes` from the client, both sides are destroyed, as a
// dropped Wi-Fi or a closed laptop lid would. It notes each PATCH's Upload-Offset (from the
// request's first packet), so a test can see where a resumed upload started again.
import net from 'node:net';
import type { TestContext } from 'node:test';

export class CutProxy {
  /** Bytes from the client after which one connection is cut (once); undefined: never. */
  cutAfterBytes: number | undefined;
  /** How many connections were cut. */
  cuts = 0;
  /** The Upload-Offset of every PATCH seen, in order. */
  readonly patchOffsets: number[] = [];
  private readonly server: net.Server;

  private constructor(targetPort: number) {
    this.server = net.createServer((client) => {
      const upstream = net.connect(targetPort, '127.0.0.1');
      let forwarded = 0;
      client.on('data', (chunk: Buffer) => {
        const head = chunk.subarray(0, 2048).toString('latin1');
        if (head.startsWith('PATCH ')) {
          const offset = /\r\nupload-offset: *(\d+)/i.exec(head)?.[1];
          if (offset !== undefined) this.patchOffsets.push(Number(offset));
        }
        forwarded += chunk.length;
        if (this.cutAfterBytes !== undefined && forwarded > this.cutAfterBytes) {
          this.cutAfterBytes = undefined;
          this.cuts++;
          client.destroy();
          upstream.destroy();
          return;
        }
        upstream.write(chunk);
      });
      upstream.pipe(client);
      client.on('end', () => upstream.end());
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
    });
  }

  /** Listens on `port` (chosen before the service, whose PUBLIC_URL names it) and forwards to `targetPort`. */
  static async start(t: TestContext, port: number, targetPort: number): Promise<CutProxy> {
    const proxy = new CutProxy(targetPort);
    await new Promise<void>((resolve) => proxy.server.listen(port, '127.0.0.1', resolve));
    t.after(
      () =>
        new Promise<void>((resolve) => {
          proxy.server.close(() => {
            resolve();
          });
        }),
    );
    return proxy;
  }
}
