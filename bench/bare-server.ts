// The practical ceiling: the same lookups on the same database file with nothing around them.
// node:http, node:sqlite prepared statements and JSON.stringify; no framework, no
// authentication, validation, rate limiting, logging or response schemas. It answers the
// same paths with objects of the same shape, so the bytes on the wire are comparable.
//
// The caller is BARE_VIEWER; reading one of its own streams, it is shown the stream key as the
// service shows it to a creator: derived from SECRET_KEY, the stream id and the key's version
// (one HMAC), or for a key issued before those, opened from its sealed copy.
//
//   BARE_DATABASE=file.db BARE_PORT=8090 BARE_VIEWER=usr_... SECRET_KEY=<64 hex> node bench/bare-server.ts
import { createDecipheriv, createHmac, createSecretKey, hkdfSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import { DatabaseSync } from 'node:sqlite';

const file = process.env.BARE_DATABASE ?? '';
const port = Number(process.env.BARE_PORT ?? 8090);
const viewer = process.env.BARE_VIEWER ?? '';
const base = `http://localhost:${port}`;

const db = new DatabaseSync(file);
// The service's derivation (src/shared/secret-key.ts), so the bare server opens what it sealed;
// a KeyObject prepared once, as the service's SecretBox holds it.
const STREAM_KEY_SECRET = createSecretKey(
  Buffer.from(
    hkdfSync(
      'sha256',
      Buffer.from(process.env.SECRET_KEY ?? '', 'hex'),
      Buffer.alloc(0),
      'tributary:stream-key-secrets',
      32,
    ),
  ),
);
const STREAM_KEY_DERIVATION = createSecretKey(
  Buffer.from(
    hkdfSync(
      'sha256',
      Buffer.from(process.env.SECRET_KEY ?? '', 'hex'),
      Buffer.alloc(0),
      'tributary:stream-key-derivation',
      32,
    ),
  ),
);
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE62_OF_BYTE = Uint8Array.from({ length: 256 }, (_, byte) => BASE62.charCodeAt(byte % 62));
const RTMP_INGEST = `rtmp://localhost:1935/live`;
db.exec('PRAGMA journal_mode = WAL');
db.exec('PRAGMA synchronous = NORMAL');
db.exec('PRAGMA busy_timeout = 5000');

const STREAM_COLUMNS = `id, creator_id, title, description, status, category, privacy, viewer_count,
  peak_viewer_count, started_at, scheduled_at, ended_at, thumbnail_at, created_at, updated_at`;
// Lists read only what their items show, as the service's lists do.
const STREAM_LIST_COLUMNS = `id, creator_id, title, description, status, category, privacy, viewer_count,
  started_at, scheduled_at, thumbnail_at, created_at`;
const VIDEO_COLUMNS = `id, creator_id, title, description, category, duration_seconds, view_count, privacy,
  source_stream_id, published_at, created_at`;

const streamById = db.prepare(
  `SELECT ${STREAM_COLUMNS}, stream_key_ciphertext, stream_key_version FROM streams WHERE id = ?`,
);
const streamsByStatus = db.prepare(
  `SELECT ${STREAM_LIST_COLUMNS} FROM streams WHERE (privacy = 'public' OR creator_id = ?) AND status = ?
   ORDER BY created_at DESC, id DESC LIMIT ?`,
);
const streamsNewest = db.prepare(
  `SELECT ${STREAM_LIST_COLUMNS} FROM streams WHERE (privacy = 'public' OR creator_id = ?)
   ORDER BY created_at DESC, id DESC LIMIT ?`,
);
const videosNewest = db.prepare(
  `SELECT ${VIDEO_COLUMNS} FROM videos WHERE published_at IS NOT NULL AND (privacy = 'public' OR creator_id = ?)
   ORDER BY published_at DESC, id DESC LIMIT ?`,
);
const insertStream = db.prepare(
  `INSERT INTO streams (${STREAM_COLUMNS}, stream_key_hash, stream_key_version, record)
   VALUES (?, ?, ?, NULL, 'scheduled', ?, 'public', NULL, NULL, NULL, NULL, NULL, NULL, ?, ?, ?, 1, 1)`,
);

type Row = Record<string, any>;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function streamItem(row: Row) {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    status: row.status,
    category: row.category,
    privacy: row.privacy,
    creator_id: row.creator_id,
    viewer_count: row.status === 'live' ? (row.viewer_count ?? 0) : null,
    started_at: iso(row.started_at),
    scheduled_at: iso(row.scheduled_at),
    thumbnail_url:
      row.thumbnail_at === null
        ? null
        : `${base}/media/streams/${row.id}/thumbnail.jpg?v=${row.thumbnail_at}`,
    stream_url: `${base}/watch/${row.id}`,
    created_at: iso(row.created_at),
  };
}

/** `streamKey` only for the stream's creator, as the service shows it. */
function streamDetail(row: Row, streamKey?: string) {
  return {
    ...streamItem(row),
    peak_viewer_count: row.peak_viewer_count,
    ended_at: iso(row.ended_at),
    updated_at: iso(row.updated_at),
    ...(streamKey === undefined ? {} : { ingest: { rtmp_url: RTMP_INGEST, stream_key: streamKey } }),
  };
}

function streamKeyOf(row: Row): string | undefined {
  const streamId = String(row.id);
  if (typeof row.stream_key_version === 'number') {
    // The service's derivation (StreamKeyVault.derive).
    const digest = createHmac('sha256', STREAM_KEY_DERIVATION)
      .update(`${streamId}:${row.stream_key_version}`)
      .digest();
    for (let i = 0; i < digest.length; i++) digest[i] = BASE62_OF_BYTE[digest[i] ?? 0] ?? 0;
    return `sk_${digest.toString('latin1')}`;
  }
  const sealed: unknown = row.stream_key_ciphertext;
  if (typeof sealed !== 'string') return undefined;
  const [, iv = '', tag = '', ciphertext = ''] = sealed.split('.');
  const decipher = createDecipheriv('aes-256-gcm', STREAM_KEY_SECRET, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(streamId));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
    'utf8',
  );
}

function videoItem(row: Row) {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category,
    creator_id: row.creator_id,
    duration_seconds: row.duration_seconds,
    view_count: row.view_count,
    privacy: row.privacy,
    thumbnail_url: `${base}/media/videos/${row.id}/thumbnail.jpg`,
    video_url: `${base}/watch/${row.id}`,
    source_stream_id: row.source_stream_id,
    published_at: iso(row.published_at),
    created_at: iso(row.created_at),
  };
}

function page(rows: Row[], limit: number, item: (row: Row) => object) {
  const hasMore = rows.length > limit;
  const last = rows[limit - 1];
  return {
    data: rows.slice(0, limit).map(item),
    pagination: { next_cursor: hasMore && last ? `cur_${String(last.id)}` : null, has_more: hasMore },
  };
}

function send(response: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

interface Reply {
  status: number;
  body: unknown;
}

function route(method: string, url: URL, body: string): Reply {
  const limit = Number(url.searchParams.get('limit') ?? 20);
  if (method === 'GET' && url.pathname === '/healthz') return { status: 200, body: { status: 'ok' } };
  if (method === 'GET' && url.pathname.startsWith('/v1/streams/')) {
    const row = streamById.get(url.pathname.slice('/v1/streams/'.length));
    if (!row) return { status: 404, body: { error: { code: 'resource_not_found' } } };
    const streamKey = row.creator_id === viewer ? streamKeyOf(row) : undefined;
    return { status: 200, body: streamDetail(row, streamKey) };
  }
  if (method === 'GET' && url.pathname === '/v1/streams') {
    const status = url.searchParams.get('status');
    const rows =
      status === null ? streamsNewest.all(viewer, limit + 1) : streamsByStatus.all(viewer, status, limit + 1);
    return { status: 200, body: page(rows, limit, streamItem) };
  }
  if (method === 'GET' && url.pathname === '/v1/videos') {
    return { status: 200, body: page(videosNewest.all(viewer, limit + 1), limit, videoItem) };
  }
  if (method === 'POST' && url.pathname === '/v1/streams') {
    const created = createStream(JSON.parse(body) as CreateBody);
    return { status: 201, body: streamDetail(created.row, created.streamKey) };
  }
  return { status: 404, body: { error: { code: 'route_not_found' } } };
}

interface CreateBody {
  title: string;
  category?: string;
}

function createStream(body: CreateBody): { row: Row; streamKey: string } {
  const now = Date.now();
  const row = {
    id: `str_${randomBytes(16).toString('base64url')}`,
    creator_id: viewer,
    title: body.title.trim(),
    description: null,
    status: 'scheduled',
    category: body.category ?? 'talk',
    privacy: 'public',
    viewer_count: null,
    peak_viewer_count: null,
    started_at: null,
    scheduled_at: null,
    ended_at: null,
    thumbnail_at: null,
    created_at: now,
    updated_at: now,
  };
  // The service stores a new key as a keyed hash and a version to derive it from again; the
  // ceiling does the same work.
  const streamKey = streamKeyOf({ id: row.id, stream_key_version: 1 }) ?? '';
  const hash = createHmac('sha256', STREAM_KEY_SECRET).update(streamKey).digest('base64url');
  insertStream.run(row.id, row.creator_id, row.title, row.category, now, now, hash);
  return { row, streamKey };
}

const server = http.createServer((request, response) => {
  const url = new URL(request.url ?? '/', base);
  const method = request.method ?? 'GET';
  if (method !== 'POST') {
    const reply = route(method, url, '');
    send(response, reply.status, reply.body);
    return;
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const reply = route(method, url, Buffer.concat(chunks).toString());
    send(response, reply.status, reply.body);
  });
});

server.listen(port, '127.0.0.1');
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  db.close();
});
