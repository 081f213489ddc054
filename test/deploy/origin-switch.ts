// A fault on purpose: a TCP relay between the edge and the origin that the test can cut, as
// an origin restarting or a network blip would (connections reset, new ones refused at once).
import net from 'node:net';

export interface OriginSwitch {
  port: number;
  /** Cuts every open connection and refuses new ones until `restore`. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startOriginSwitch(originPort: number): Promise<OriginSwitch> {
  let open = true;
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };
  const server = net.createServer((client) => {
    track(client);
    if (!open) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(originPort, '127.0.0.1');
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    cut: () => {
      open = false;
      for (const socket of sockets) socket.resetAndDestroy();
    },
    restore: () => {
      open = true;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}
