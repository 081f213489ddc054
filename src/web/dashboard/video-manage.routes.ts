// A creator's changes to a video from the dashboard: the edit form, and deleting after a
// confirmation page (no script needed, none allowed inline). Both call the API's service
// (VideoService.update, delete), with the form checked by PATCH /v1/videos/{id}'s own schema.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isStateConflict } from '../../shared/errors.ts';
import { UpdateVideoBody } from '../../videos/video.schemas.ts';
import type { VideoRow } from '../../videos/video.table.ts';
import { csrfField, PAGE, renderPage, sendPage, userOf } from './core.ts';
import type { DashboardApp, DashboardDeps } from './dashboard.deps.ts';
import { field, formProblem, validateAsApi, type FormProblem } from './form-validation.ts';
import { isNotFound, sendNotFound } from './not-found.ts';
import { IdParams } from './owned.ts';
import { deleteVideoBody, editValuesOf, editVideoBody, type VideoEditValues } from './video-manage-pages.ts';

const STYLES = ['/assets/dashboard.css'];
const HANDLED = new Set(['_csrf', 'title', 'description', 'category', 'privacy', 'tags']);

export async function dashboardVideoManageRoutes(
  app: DashboardApp,
  { services, owned }: DashboardDeps,
): Promise<void> {
  const { videos } = services;
  // The routes on one video, loaded by their preHandler.
  const onVideo = {
    config: PAGE,
    schema: { hide: true, params: IdParams },
    preHandler: owned.video.preHandler,
  };

  app.get('/dashboard/videos/:id/edit', onVideo, async (request, reply) => {
    const video = owned.video.of(request);
    if (video.published_at === null)
      return sendEditForm(request, reply, video, editValuesOf(video), processing());
    return sendEditForm(request, reply, video, editValuesOf(video));
  });

  app.post('/dashboard/videos/:id', onVideo, async (request, reply) => {
    const user = userOf(request);
    const video = owned.video.of(request);
    const form = formOf(request);
    try {
      const body = validateAsApi(UpdateVideoBody, toUpdateBody(form));
      await videos.update(video.id, user.id, {
        title: body.title,
        description: body.description,
        category: body.category,
        privacy: body.privacy,
        tags: body.tags,
      });
    } catch (error) {
      if (isNotFound(error)) return sendNotFound(request, reply, 'video');
      const problem = isStateConflict(error) ? processing() : formProblem(error);
      if (!problem) throw error;
      return sendEditForm(request, reply, video, editValues(form, video), problem, 400);
    }
    return reply.redirect(`/dashboard/videos/${encodeURIComponent(video.id)}?updated=1`, 303);
  });

  app.get('/dashboard/videos/:id/delete', onVideo, async (request, reply) => {
    const video = owned.video.of(request);
    return sendDeletePage(
      request,
      reply,
      video,
      video.published_at === null ? processing().message : undefined,
    );
  });

  app.post(
    '/dashboard/videos/:id/delete',
    { config: PAGE, schema: { hide: true, params: IdParams } },
    async (request, reply) => {
      const user = userOf(request);
      const { id } = request.params;
      try {
        await videos.delete(id, user.id);
      } catch (error) {
        if (isNotFound(error)) return sendNotFound(request, reply, 'video');
        if (!isStateConflict(error)) throw error;
        const video = await owned.video.load(user, { id });
        if (!video) return sendNotFound(request, reply, 'video');
        return sendDeletePage(request, reply, video, processing().message, 409);
      }
      return reply.redirect('/dashboard/videos?deleted=1', 303);
    },
  );

  function sendEditForm(
    request: FastifyRequest,
    reply: FastifyReply,
    video: VideoRow,
    values: VideoEditValues,
    problem?: FormProblem,
    status = 200,
  ): FastifyReply {
    const body = editVideoBody(csrfField(request), video, values, problem);
    return sendPage(
      reply,
      renderPage({ title: `Edit ${video.title}`, request, body, section: 'videos', styles: STYLES }),
      status,
    );
  }

  function sendDeletePage(
    request: FastifyRequest,
    reply: FastifyReply,
    video: VideoRow,
    problem?: string,
    status = 200,
  ): FastifyReply {
    const body = deleteVideoBody(csrfField(request), video, problem);
    return sendPage(
      reply,
      renderPage({ title: `Delete ${video.title}`, request, body, section: 'videos', styles: STYLES }),
      status,
    );
  }
}

function processing(): FormProblem {
  return {
    field: undefined,
    message: 'This video is still being processed; it can be changed or deleted once it is published.',
  };
}

function formOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  return body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
}

function editValues(form: Record<string, unknown>, video: VideoRow): VideoEditValues {
  const first = editValuesOf(video);
  return {
    title: field(form, 'title') ?? '',
    description: field(form, 'description') ?? '',
    category: field(form, 'category') ?? first.category,
    privacy: field(form, 'privacy') ?? first.privacy,
    tags: field(form, 'tags') ?? '',
  };
}

/**
 * The JSON body PATCH /v1/videos/{id} would have received: tags split at commas (blank ones
 * dropped), an empty description cleared. Any other field is passed on, for the API's rule to
 * refuse.
 */
export function toUpdateBody(form: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(form)) {
    if (HANDLED.has(name)) continue;
    // Defined, not assigned: a field named __proto__ must stay a field the rule refuses.
    Object.defineProperty(body, name, { value, enumerable: true, writable: true, configurable: true });
  }
  const title = field(form, 'title');
  if (title !== undefined) body.title = title;
  const description = field(form, 'description');
  if (description !== undefined) body.description = description === '' ? null : description;
  for (const name of ['category', 'privacy'] as const) {
    const value = field(form, name);
    if (value !== undefined && value !== '') body[name] = value;
  }
  const tags = field(form, 'tags');
  if (tags !== undefined) {
    body.tags = tags
      .split(',')
      .map((tag) => tag.trim())
      .filter((tag) => tag !== '');
  }
  return body;
}
