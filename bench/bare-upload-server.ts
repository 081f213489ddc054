// The ceiling of `npm run bench -- --uploads`: bare node:http speaking just enough tus for
// tus-js-client (HEAD gives the offset, PATCH appends the body to a file), with no database,
// no framework and no checks. What receiving bytes and writing them to disk costs in Node.
//   node bench/bare-upload-server.ts PORT DIR
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

const [port, dir] = process.argv.slice(2);
if (!port || !dir) throw new Error('usage: node bench/bare-upload-server.ts PORT DIR');
const offsets = new Map<string, number>();

http
  .createServer((request, response) => {
    // /NAME?size=BYTES: the one thing tus-js-client needs back that this server cannot know.
    const url = new URL(request.url ?? '/', 'http://bare');
    const name = path.basename(url.pathname);
    const file = path.join(dir, name);
    const headers = { 'Tus-Resumable': '1.0.0' };
    if (request.method === 'HEAD') {
      response.writeHead(200, {
        ...headers,
        'Upload-Offset': String(offsets.get(name) ?? 0),
        'Upload-Length': url.searchParams.get('size') ?? '0',
        'Cache-Control': 'no-store',
      });
      response.end();
      return;
    }
    if (request.method !== 'PATCH') {
      response.writeHead(url.pathname === '/healthz' ? 200 : 404).end();
      return;
    }
    const offset = Number(request.headers['upload-offset']);
    const out = fs.createWriteStream(file, { flags: offset === 0 ? 'w' : 'r+', start: offset });
    let received = 0;
    request.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    pipeline(request, out).then(
      () => {
        offsets.set(name, offset + received);
        response.writeHead(204, { ...headers, 'Upload-Offset': String(offset + received) }).end();
      },
      () => {
        response.destroy();
      },
    );
  })
  .listen(Number(port), '127.0.0.1');
