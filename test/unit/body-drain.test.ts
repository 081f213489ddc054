// drainRefusedBody on a real node:http server and raw sockets: a refused body that arrives in
// full within the bounds is read out and the connection carries the next request; one that
// goes past the byte bound (counted over the connection), or trickles past the time bound, has
// its connection destroyed.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import { drainRefusedBody, isDrainingBody } from '../../src/http/body-drain.ts';
import { rawExchange } from '../helpers/server.ts';

const LIMITS = { maxBytes: 64 * 1024, maxMs: 300 };

/** Refuses every POST at once (413) and drains its body; answers a GET 200 with its socket's close listeners. */
async function startServer(t: TestContext): Promise<number> {
  const server = http.createServer((request, response) => {
    if (request.method === 'POST') {
      drainRefusedBody(request, LIMITS);
      assert.equal(isDrainingBody(request), true);
      response.writeHead(413, { 'content-type': 'text/plain' }).end('too large');
      return;
    }
    // Counted a moment later: the last drained body's end is emitted after the parser moves on.
    setTimeout(() => {
      response
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(String(request.socket.listenerCount('close')));
    }, 50);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  return (server.address() as AddressInfo).port;
}

function post(length: number, sent: string | Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${length}\r\n\r\n`),
    Buffer.from(sent),
  ]);
}

const GET = 'GET /after HTTP/1.1\r\nHost: localhost\r\n\r\n';

/** Three refused POSTs of `bodyBytes` each, then a GET, to send on one connection. */
function threeRefusedThenGet(bodyBytes: number): Buffer {
  const body = Buffer.alloc(bodyBytes, 7);
  return Buffer.concat([
    post(body.length, body),
    post(body.length, body),
    post(body.length, body),
    Buffer.from(GET),
  ]);
}

test('a refused body within the bounds is read out; the connection carries the next requests', async (t) => {
  const port = await startServer(t);
  // Three refusals and a GET on one connection: the socket's listeners do not pile up.
  const request = threeRefusedThenGet(16 * 1024);
  const exchange = await rawExchange(port, request, { waitMs: 3000, untilResponses: 4 });
  assert.deepEqual(
    exchange.responses.map((response) => response.status),
    [413, 413, 413, 200],
  );
  const fresh = await rawExchange(port, GET, { waitMs: 3000, untilResponses: 1 });
  assert.equal(
    exchange.responses[3]?.body,
    fresh.responses[0]?.body,
    "the socket's close listeners after three drained bodies, against a fresh connection's",
  );
});

test('past the byte bound the connection goes', async (t) => {
  const port = await startServer(t);
  const body = Buffer.alloc(LIMITS.maxBytes * 3, 7);
  const exchange = await rawExchange(port, Buffer.concat([post(body.length, body), Buffer.from(GET)]), {
    waitMs: 3000,
  });
  assert.equal(exchange.closed, true);
  assert.ok(exchange.responses.every((response) => response.status === 413));
  assert.ok(exchange.elapsedMs < 2000, `closed after ${exchange.elapsedMs} ms`);
});

test('the byte bound counts every body read out on a connection: bodies that pass it together end it', async (t) => {
  const port = await startServer(t);
  const exchange = await rawExchange(port, threeRefusedThenGet(24 * 1024), { waitMs: 3000 });
  assert.equal(exchange.closed, true);
  // Two bodies (48 KiB) are within the 64 KiB; the third passes it, and no GET is answered.
  assert.deepEqual(
    exchange.responses.map((response) => response.status),
    [413, 413, 413],
  );
});

test('a body that trickles past the time bound has its connection closed', async (t) => {
  const port = await startServer(t);
  const exchange = await rawExchange(port, post(1000, 'x'), {
    waitMs: 5000,
    trickle: { pieces: Array.from({ length: 40 }, () => 'x'), intervalMs: 50 },
  });
  assert.equal(exchange.closed, true);
  assert.deepEqual(
    exchange.responses.map((response) => response.status),
    [413],
  );
  // Closed by the 300 ms bound, long before the 40 pieces (2 s) or the exchange's wait.
  assert.ok(exchange.elapsedMs >= 250 && exchange.elapsedMs < 1500, `closed after ${exchange.elapsedMs} ms`);
});
