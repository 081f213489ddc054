// The ceiling of Node itself for the media bench (bench/media.ts): node:http answering the same
// media paths from memory, after the same stat per request the service makes, with the same
// headers, and nothing else (no framework, routing, hooks, access log, limiter or viewer count).
// What it reaches against nginx is what no Node origin can beat on this machine.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const root = process.env.DATA_DIR ?? '.';
const port = Number(process.env.BARE_MEDIA_PORT ?? 18_092);
const files = new Map<string, { body: Buffer; mtimeMs: number; etag: string; lastModified: string }>();
const TYPES: Record<string, string> = { '.m3u8': 'application/vnd.apple.mpegurl', '.ts': 'video/mp2t' };

http
  .createServer((request, response) => {
    const url = request.url ?? '/';
    if (!url.startsWith('/media/') || url.includes('..')) {
      response.writeHead(404).end();
      return;
    }
    const file = path.join(root, url);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile()) {
      response.writeHead(404).end();
      return;
    }
    let entry = files.get(file);
    if (entry?.mtimeMs !== stat.mtimeMs) {
      entry = {
        body: fs.readFileSync(file),
        mtimeMs: stat.mtimeMs,
        etag: `"${stat.ino.toString(36)}-${stat.size.toString(36)}"`,
        lastModified: stat.mtime.toUTCString(),
      };
      files.set(file, entry);
    }
    response.writeHead(200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'content-length': entry.body.length,
      'cache-control': 'no-cache',
      'last-modified': entry.lastModified,
      etag: entry.etag,
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
    });
    response.end(entry.body);
  })
  .listen(port, '127.0.0.1');
