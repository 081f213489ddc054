// The tus 1.0 endpoint: `PUBLIC_URL/uploads/{upl_id}.{signature}` is one upload's resource,
// created by POST /v1/uploads. HEAD (the offset), PATCH (more bytes) and OPTIONS go to
// @tus/server over its file store; POST (creation: answered with this same URL, for clients
// that start from an endpoint) and DELETE (termination: the upload is cancelled) are answered
// here. The URL is the credential, so no API key is asked and browsers on other sites may
// send (CORS, no cookies); every answer that is not a success is the API's error envelope.
import { STATUS_CODES } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { Server as TusServer } from '@tus/server';
import { EVENTS, TUS_RESUMABLE } from '@tus/utils';
import { NodeRequest, sendNodeResponse } from 'srvx/node';
import { errorBody, STATUS_BY_CODE } from '../http/error-handler.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError, type ErrorCode } from '../shared/errors.ts';
import type { UploadRow } from './upload.table.ts';
import type { UploadService } from './upload.service.ts';
import { parseUploadToken, UPLOAD_PATH_PREFIX } from './upload-url.ts';

export interface TusRoutesOptions {
  uploads: UploadService;
  clock: Clock;
  logger?: Logger | undefined;
}

const TUS_METHODS = ['HEAD', 'PATCH', 'OPTIONS'] as const;

export function tusRoutes(options: TusRoutesOptions): (app: FastifyInstance) => Promise<void> {
  const { uploads, clock } = options;

  /** The upload a tus URL names, if its signature is right and it still takes requests. */
  const admit = async (url: string, method: string): Promise<UploadRow> => {
    const token = parseUploadToken(lastSegment(url));
    const row = token ? await uploads.find(token.id) : undefined;
    if (!token || !row || !uploads.urls.verify(row, token.signature)) {
      throw new AppError('resource_not_found', 'No upload exists at this URL.');
    }
    if (row.status === 'cancelled') throw new AppError('upload_cancelled', 'This upload was cancelled.');
    const expired =
      row.error_code === 'upload_expired' ||
      (row.status !== 'processing' && row.status !== 'ready' && row.expires_at <= clock.now());
    if (expired) {
      throw new AppError(
        'upload_expired',
        'This upload URL has expired; create a new upload to send the file.',
      );
    }
    if (method === 'PATCH' && row.status === 'errored') {
      throw new AppError('state_conflict', `This upload has ended: ${row.error_message ?? 'errored'}`);
    }
    return row;
  };

  // Made on first use: the file store makes its folder then (and throws, out of reach, if it
  // cannot), so an app that never sees an upload touches no disk.
  let made: TusServer | undefined;
  const tusServer = (): TusServer => (made ??= makeTusServer());
  const makeTusServer = (): TusServer => {
    const tus = new TusServer({
      path: UPLOAD_PATH_PREFIX.slice(0, -1),
      datastore: uploads.files.store,
      locker: uploads.files.locker,
      postReceiveInterval: 1000,
      getFileIdFromRequest: (_req, lastPath) => (lastPath ? parseUploadToken(lastPath)?.id : undefined),
      onUploadFinish: async (_req, upload) => {
        await uploads.complete(upload.id);
        return {};
      },
      onResponseError: (_req, error) => {
        if (error instanceof AppError) {
          return { status_code: STATUS_BY_CODE[error.code], body: JSON.stringify(errorBody(error)) };
        }
        const status = (error as { status_code?: number }).status_code ?? 500;
        if (status >= 500) options.logger?.error({ err: error }, 'tus upload request failed');
        return undefined;
      },
    });
    tus.on(EVENTS.POST_RECEIVE, (_req, upload) => {
      uploads.received(upload.id, upload.offset).catch((error: unknown) => {
        options.logger?.warn({ err: error, uploadId: upload.id }, 'recording upload progress failed');
      });
    });
    return tus;
  };

  return async (app) => {
    // tus bodies are read by the tus server, as a stream to disk: this scope's parser leaves
    // them alone (the API's JSON parser never sees them, nor its 64 KiB limit).
    app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => {
      done(null, undefined);
    });
    const config = { access: 'public' as const, rateLimit: false, streamedBody: true };
    app.route({
      method: [...TUS_METHODS],
      url: `${UPLOAD_PATH_PREFIX}:token`,
      config,
      schema: { hide: true },
      handler: async (request, reply) => {
        // A URL this service did not sign is refused before tus reads a header of it.
        let token: { id: string } | undefined;
        if (request.method !== 'OPTIONS') {
          void reply.headers(tusHeaders(request));
          token = await admit(request.url, request.method);
        }
        reply.hijack();
        reply.raw.setHeader('X-Request-Id', request.id);
        try {
          const response = await tusServer().handleWeb(new NodeRequest({ req: request.raw, res: reply.raw }));
          const offset = response.headers.get('upload-offset');
          // Progress is also reported while bytes arrive (POST_RECEIVE); this is the PATCH's last word.
          if (
            request.method === 'PATCH' &&
            response.status === 204 &&
            offset !== null &&
            token !== undefined
          ) {
            await uploads.received(token.id, Number(offset));
          }
          await sendNodeResponse(reply.raw, await asEnvelope(response));
        } catch (error) {
          // Fastify no longer owns this reply: whatever failed, the client must not be left waiting.
          // The bytes written so far are kept, and HEAD says where to resume.
          options.logger?.error({ err: error, reqId: request.id }, 'tus upload request failed');
          reply.raw.destroy();
        }
      },
    });
    app.route({
      method: ['POST', 'DELETE'],
      url: `${UPLOAD_PATH_PREFIX}:token`,
      config,
      schema: { hide: true },
      handler: async (request, reply) => {
        void reply.headers(tusHeaders(request));
        const row = await admit(request.url, request.method);
        if (request.method === 'POST') return creation(request, reply, row, uploads);
        await uploads.cancel(row.id, row.creator_id);
        return reply.code(204).send();
      },
    });
  };
}

/**
 * tus creation against an upload that already exists: the client's Upload-Length must be
 * the declared size, and the answer names this same URL.
 */
function creation(
  request: FastifyRequest,
  reply: FastifyReply,
  row: UploadRow,
  uploads: UploadService,
): FastifyReply {
  const length = request.headers['upload-length'];
  if (typeof length !== 'string' || !/^\d+$/.test(length)) {
    throw new AppError(
      'upload_size_mismatch',
      `Send Upload-Length: ${row.size}; this upload takes exactly that many bytes.`,
    );
  }
  if (Number(length) !== row.size) {
    throw new AppError(
      'upload_size_mismatch',
      `This upload URL is for a file of ${row.size} bytes; the request declares ${length}. Create a new upload for another file.`,
    );
  }
  return reply
    .code(201)
    .header('Location', uploads.urls.urlFor(row))
    .header('Upload-Offset', row.received_bytes)
    .send();
}

function tusHeaders(request: FastifyRequest): Record<string, string> {
  return {
    'Tus-Resumable': TUS_RESUMABLE,
    'Access-Control-Allow-Origin': request.headers.origin === undefined ? '*' : request.headers.origin,
    'Access-Control-Expose-Headers': 'Location, Upload-Offset, Upload-Length, Tus-Resumable, Upload-Expires',
    'Cache-Control': 'no-store',
  };
}

/** tus's own refusals are plain text; ours is the envelope, with tus's status kept. */
async function asEnvelope(response: Response): Promise<Response> {
  const headers = new Headers(response.headers);
  if (response.status < 400) {
    return new Response(response.body, {
      status: response.status,
      statusText: STATUS_CODES[response.status] ?? '',
      headers,
    });
  }
  const text = await response.text();
  let body = text;
  let status = response.status;
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (parsed.error === undefined) throw new Error('not an envelope');
  } catch {
    // The status follows the code, so a refusal means the same here as anywhere in the API
    // (tus's 403 for a missing header is a 400 here).
    const code =
      TUS_STATUS_CODES[response.status] ?? (response.status >= 500 ? 'internal_error' : 'malformed_request');
    status = STATUS_BY_CODE[code];
    const message = TUS_MESSAGES[response.status] ?? (text.trim() || 'The tus request was refused.');
    body = JSON.stringify(errorBody(new AppError(code, message)));
  }
  headers.set('Content-Type', 'application/json; charset=utf-8');
  headers.set('Content-Length', String(Buffer.byteLength(body)));
  return new Response(body, { status, statusText: STATUS_CODES[status] ?? '', headers });
}

/** What a client should do, in place of tus's terse texts. */
const TUS_MESSAGES: Partial<Record<number, string>> = {
  409: 'Upload-Offset does not match the bytes received; HEAD the upload URL for the offset and resume from there.',
  412: 'Send Tus-Resumable: 1.0.0 (this endpoint speaks tus 1.0).',
  413: "The request carries more bytes than the upload's declared size.",
  500: 'The bytes could not be written; HEAD the upload URL for the offset and resume from there.',
};

const TUS_STATUS_CODES: Partial<Record<number, ErrorCode>> = {
  400: 'malformed_request',
  403: 'parameter_missing',
  404: 'resource_not_found',
  409: 'upload_offset_mismatch',
  410: 'upload_expired',
  412: 'tus_version_unsupported',
  413: 'upload_size_mismatch',
  415: 'unsupported_media_type',
};

function lastSegment(url: string): string {
  const path = url.split('?')[0] ?? '';
  return path.slice(path.lastIndexOf('/') + 1);
}
