// A creator's changes to a stream from the dashboard: the edit form and ending a live stream
// after a confirmation. Both call the API's service (StreamService.update, endByCreator), with
// the form checked by PATCH /v1/streams/{id}'s own schema.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isStateConflict } from '../../shared/errors.ts';
import { UpdateStreamBody } from '../../streams/stream.schemas.ts';
import type { StreamRow } from '../../streams/stream.table.ts';
import { csrfField, PAGE, renderPage, sendPage, userOf } from './core.ts';
import type { DashboardApp, DashboardDeps } from './dashboard.deps.ts';
import { field, formProblem, validateAsApi, type FormProblem } from './form-validation.ts';
import { isNotFound, sendNotFound } from './not-found.ts';
import { IdParams } from './owned.ts';
import { editStreamBody, editValuesOf, endStreamBody, type StreamEditValues } from './stream-manage-pages.ts';
import { withOffset } from './streams.routes.ts';

const STYLES = ['/assets/dashboard.css'];
/** Fields of the form that are the page's own, not the API body's. */
const FORM_ONLY = new Set(['_csrf', 'tz_offset']);
const API_FIELDS = new Set(['title', 'description', 'category', 'privacy', 'scheduled_at', 'latency_mode']);

export async function dashboardStreamManageRoutes(
  app: DashboardApp,
  { services, owned }: DashboardDeps,
): Promise<void> {
  const { streams } = services;
  // The routes on one stream, loaded by their preHandler.
  const onStream = {
    config: PAGE,
    schema: { hide: true, params: IdParams },
    preHandler: owned.stream.preHandler,
  };

  app.get('/dashboard/streams/:id/edit', onStream, async (request, reply) => {
    const stream = owned.stream.of(request);
    return sendEditForm(request, reply, stream, editValuesOf(stream));
  });

  app.post('/dashboard/streams/:id', onStream, async (request, reply) => {
    const user = userOf(request);
    const stream = owned.stream.of(request);
    const form = formOf(request);
    try {
      const body = validateAsApi(UpdateStreamBody, toUpdateBody(form, stream));
      await streams.update(stream.id, user.id, {
        title: body.title,
        description: body.description,
        category: body.category,
        privacy: body.privacy,
        scheduledAt: body.scheduled_at,
        latencyMode: body.latency_mode,
      });
    } catch (error) {
      if (isNotFound(error)) return sendNotFound(request, reply, 'stream');
      const problem = problemOf(error);
      if (!problem) throw error;
      // The stream as it is now (it may have gone live meanwhile), with what was typed.
      const current = (await owned.stream.load(user, { id: stream.id })) ?? stream;
      return sendEditForm(request, reply, current, editValues(form, stream), problem, 400);
    }
    return reply.redirect(`/dashboard/streams/${encodeURIComponent(stream.id)}?updated=1`, 303);
  });

  app.get('/dashboard/streams/:id/end', onStream, async (request, reply) => {
    const stream = owned.stream.of(request);
    if (stream.status !== 'live') return sendEndPage(request, reply, stream, notLive(stream));
    return sendEndPage(request, reply, stream);
  });

  app.post(
    '/dashboard/streams/:id/end',
    { config: PAGE, schema: { hide: true, params: IdParams } },
    async (request, reply) => {
      const user = userOf(request);
      const { id } = request.params;
      try {
        await streams.endByCreator(id, user.id);
      } catch (error) {
        if (isNotFound(error)) return sendNotFound(request, reply, 'stream');
        if (!isStateConflict(error)) throw error;
        const stream = await owned.stream.load(user, { id });
        if (!stream) return sendNotFound(request, reply, 'stream');
        return sendEndPage(request, reply, stream, notLive(stream), 409);
      }
      return reply.redirect(`/dashboard/streams/${encodeURIComponent(id)}?ended=1`, 303);
    },
  );

  function sendEditForm(
    request: FastifyRequest,
    reply: FastifyReply,
    stream: StreamRow,
    values: StreamEditValues,
    problem?: FormProblem,
    status = 200,
  ): FastifyReply {
    const body = editStreamBody(csrfField(request), stream, values, problem);
    return sendPage(
      reply,
      renderPage({
        title: `Edit ${stream.title}`,
        request,
        body,
        section: 'streams',
        styles: STYLES,
        scripts: ['/assets/dashboard.js'],
      }),
      status,
    );
  }

  function sendEndPage(
    request: FastifyRequest,
    reply: FastifyReply,
    stream: StreamRow,
    problem?: string,
    status = 200,
  ): FastifyReply {
    const body = endStreamBody(csrfField(request), stream, problem);
    return sendPage(
      reply,
      renderPage({ title: `End ${stream.title}`, request, body, section: 'streams', styles: STYLES }),
      status,
    );
  }
}

function notLive(stream: StreamRow): string {
  return stream.status === 'ended'
    ? 'This stream has already ended.'
    : 'This stream is not live: there is nothing to end yet.';
}

/** A refusal the form shows: a field's, or a conflict with the stream's status (the form's own). */
function problemOf(error: unknown): FormProblem | undefined {
  if (isStateConflict(error)) return { field: undefined, message: error.message };
  return formProblem(error);
}

function formOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  return body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
}

function editValues(form: Record<string, unknown>, stream: StreamRow): StreamEditValues {
  const first = editValuesOf(stream);
  return {
    title: field(form, 'title') ?? '',
    description: field(form, 'description') ?? '',
    category: field(form, 'category') ?? first.category,
    privacy: field(form, 'privacy') ?? first.privacy,
    scheduled_at: field(form, 'scheduled_at') ?? first.scheduled_at,
    latency_mode: field(form, 'latency_mode') ?? first.latency_mode,
  };
}

/**
 * The JSON body PATCH /v1/streams/{id} would have received. The start time and latency are sent
 * only when they differ from the stream's (to the minute, as the form shows it): a form left as
 * it was must not be refused because the planned start has passed or the stream went live.
 * An empty description clears it. Any other field is passed on, for the API's rule to refuse.
 */
export function toUpdateBody(form: Record<string, unknown>, stream: StreamRow): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(form)) {
    if (FORM_ONLY.has(name) || API_FIELDS.has(name)) continue;
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
  const scheduled = field(form, 'scheduled_at');
  if (scheduled !== undefined) {
    const at = scheduled === '' ? null : withOffset(scheduled, field(form, 'tz_offset'));
    if (!sameMinute(at, stream.scheduled_at)) body.scheduled_at = at;
  }
  const latency = field(form, 'latency_mode');
  if (latency !== undefined && latency !== '' && latency !== stream.latency_mode) body.latency_mode = latency;
  return body;
}

function sameMinute(value: string | null, current: number | null): boolean {
  if (value === null || current === null) return value === null && current === null;
  const at = Date.parse(value);
  return !Number.isNaN(at) && Math.floor(at / 60_000) === Math.floor(current / 60_000);
}
