// The creator's uploads (Videos -> Upload). The page's script (public/upload.js) does the
// transfer; these routes only call UploadService, as POST/GET/DELETE /v1/uploads do:
//
// - GET  /dashboard/uploads: the page (form, unfinished uploads, recent uploads).
// - POST /dashboard/uploads: creates the upload from the form's fields plus `size` (the
//   script adds it from the picked file) and answers 201 with the API's upload object as JSON,
//   whose `upload_url` the browser then sends the bytes to with tus, directly; a refusal is the
//   API's error envelope (the script asks for JSON) with the same codes and messages as the API.
//   CSRF-checked like every page POST (`_csrf` comes with the form's fields).
// - GET  /dashboard/uploads/status: JSON `{ data: [upload, ...] }`, the account's recent
//   uploads (and `?id=upl_...` if it is older), for the page to poll while something is
//   processing: one query per poll whatever the page shows.
// - POST /dashboard/uploads/:id/cancel: cancels an unfinished upload (a form; no script needed).
import type { FastifyRequest } from 'fastify';
import { CreateUploadBody, type Upload } from '../../uploads/upload.schemas.ts';
import { toUpload } from '../../uploads/upload.serializer.ts';
import { csrfField, PAGE, renderPage, sendPage, userOf } from './core.ts';
import type { DashboardApp, DashboardDeps } from './dashboard.deps.ts';
import { field, validateAsApi } from './form-validation.ts';
import { isNotFound, orMissing, sendNotFound } from './not-found.ts';
import { IdParams } from './owned.ts';
import { uploadPageBody } from './upload-pages.ts';

/** How many uploads the page lists (and each status poll reads). */
const RECENT = 20;
const UPLOAD_ID = /^upl_[0-9A-Za-z]{22}$/;

export async function dashboardUploadRoutes(app: DashboardApp, { services }: DashboardDeps): Promise<void> {
  const { uploads } = services;

  const recent = async (userId: string): Promise<Upload[]> =>
    (await uploads.list(userId, undefined, RECENT)).map((row) => toUpload(row, uploads.urls));

  app.get('/dashboard/uploads', { config: PAGE, schema: { hide: true } }, async (request, reply) => {
    const user = userOf(request);
    const list = await recent(user.id);
    const cancelled = (request.query as Record<string, string | undefined>).cancelled === '1';
    const body = uploadPageBody(
      csrfField(request),
      {
        account_id: user.id,
        create_url: '/dashboard/uploads',
        status_url: '/dashboard/uploads/status',
        max_bytes: uploads.maxBytes,
        unfinished: list.filter((u) => u.status === 'waiting' || u.status === 'uploading'),
        recent: list,
      },
      cancelled ? 'The upload was cancelled and its bytes removed.' : undefined,
    );
    return sendPage(
      reply,
      renderPage({
        title: 'Upload a video',
        request,
        body,
        section: 'videos',
        styles: ['/assets/dashboard.css', '/assets/upload.css'],
        scripts: ['/assets/tus.min.js', '/assets/upload.js'],
      }),
    );
  });

  app.post('/dashboard/uploads', { config: PAGE, schema: { hide: true } }, async (request, reply) => {
    const user = userOf(request);
    // Refusals (the API's own validation, limits, quota) reach the web plugin's error handler:
    // the API's envelope for the script, which asks for JSON; an error page otherwise.
    const body = validateAsApi(CreateUploadBody, toUploadBody(formOf(request)));
    const created = await uploads.create({
      creatorId: user.id,
      size: body.size,
      title: body.title,
      description: body.description,
      category: body.category,
      privacy: body.privacy,
    });
    return reply.code(201).header('Cache-Control', 'no-store').send(toUpload(created, uploads.urls));
  });

  app.get('/dashboard/uploads/status', { config: PAGE, schema: { hide: true } }, async (request, reply) => {
    const user = userOf(request);
    const data = await recent(user.id);
    const id = (request.query as Record<string, unknown>).id;
    if (typeof id === 'string' && UPLOAD_ID.test(id) && !data.some((u) => u.id === id)) {
      const one = await orMissing(uploads.get(id, user.id));
      if (one) data.push(toUpload(one, uploads.urls));
    }
    return reply.header('Cache-Control', 'no-store').send({ data });
  });

  app.post(
    '/dashboard/uploads/:id/cancel',
    { config: PAGE, schema: { hide: true, params: IdParams } },
    async (request, reply) => {
      try {
        await uploads.cancel(request.params.id, userOf(request).id);
      } catch (error) {
        if (isNotFound(error)) return sendNotFound(request, reply, 'upload');
        throw error;
      }
      return reply.redirect('/dashboard/uploads?cancelled=1', 303);
    },
  );
}

function formOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  return body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
}

/**
 * The JSON body POST /v1/uploads would have received: `size` as a number when it is digits
 * (else as sent, for the API's rule to refuse), empty optional fields left out, the page's own
 * fields (`_csrf`, the file input's name) dropped. Any other field is passed on, so the API's
 * "not recognised" rule applies to it as well.
 */
export function toUploadBody(form: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const own = new Set(['_csrf', 'file', 'size', 'title', 'description', 'category', 'privacy']);
  for (const [name, value] of Object.entries(form)) {
    if (own.has(name)) continue;
    // Defined, not assigned: a field named __proto__ must stay a field the rule refuses.
    Object.defineProperty(body, name, { value, enumerable: true, writable: true, configurable: true });
  }
  const size = field(form, 'size');
  if (size !== undefined) body.size = /^\d{1,15}$/.test(size) ? Number(size) : size;
  body.title = field(form, 'title') ?? '';
  for (const name of ['description', 'category', 'privacy']) {
    const value = field(form, name);
    if (value !== undefined && value !== '') body[name] = value;
  }
  return body;
}
