// Ports for listeners whose address a test must know before they start (a child process, an
// nginx or gateway config). Chosen below Linux's ephemeral range (ip_local_port_range starts at
// 32768), so an outgoing connection of another test cannot take the port between the choice and
// the listen: a port from listen(0) comes from that range, and in the full run (two test files
// at once, thousands of connections) one was once taken that way. Random within the range and
// checked free, so two tests choosing at once almost never meet either.
import net from 'node:net';

const FIRST = 20_000;
const LAST = 32_000;

/** A TCP port on 127.0.0.1 that was free a moment ago, outside the ephemeral range. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = FIRST + Math.floor(Math.random() * (LAST - FIRST));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port found between ${FIRST} and ${LAST}`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => {
      resolve(false);
    });
    server.listen(port, '127.0.0.1', () => {
      server.close(() => {
        resolve(true);
      });
    });
  });
}
