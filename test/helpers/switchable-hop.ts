// A TCP hop in front of an RTMP receiver that a test can take down (connections cut and
// refused) and bring back, as a destination platform's outage.
import net from 'node:net';

export /** A TCP hop to the receiver that can be taken down (connections cut and refused) and back. */
async function switchableHop(
  targetPort: number,
): Promise<{ port: number; down(): void; up(): void; close(): void }> {
  let isDown = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (isDown) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    down: () => {
      isDown = true;
      for (const socket of sockets) socket.resetAndDestroy();
      sockets.clear();
    },
    up: () => {
      isDown = false;
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
