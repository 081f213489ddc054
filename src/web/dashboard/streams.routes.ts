// The creator's streams: the list, the new-stream form, one stream's page (ingest settings,
// preview, live status over server-sent events, viewer chart), the key reveal and reset.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { keysetPage } from '../../http/pagination.ts';
import { AppError } from '../../shared/errors.ts';
import { CreateStreamBody } from '../../streams/stream.schemas.ts';
import { streamChatData } from './chat.routes.ts';
import { csrfField, PAGE, renderPage, sendPage, userOf } from './core.ts';
import type { DashboardApp, DashboardDeps } from './dashboard.deps.ts';
import { field, formProblem, validateAsApi } from './form-validation.ts';
import { isNotFound, sendNotFound } from './not-found.ts';
import { IdParams } from './owned.ts';
import { simulcastSection } from './simulcast-pages.ts';
import { STREAM_CHAT_NOTICES, streamChatSection } from './stream-chat-pages.ts';
import { STREAM_SIMULCAST_NOTICES } from './simulcast.routes.ts';
import {
  EMPTY_STREAM_FORM,
  newStreamBody,
  streamListBody,
  streamPageBody,
  type StreamFormValues,
} from './stream-pages.ts';

const STREAM_SCRIPTS = [
  '/assets/hls.min.js',
  '/assets/uPlot.iife.min.js',
  '/assets/dashboard.js',
  '/assets/dashboard-stream.js',
];
const STYLES = ['/assets/uPlot.min.css', '/assets/dashboard.css'];
const PAGE_SIZE = 50;
/** Fields of the form that are the page's own, not the API body's. */
const FORM_ONLY = new Set(['_csrf', 'tz_offset']);

type Query = Record<string, string | undefined>;

export async function dashboardStreamRoutes(app: DashboardApp, deps: DashboardDeps): Promise<void> {
  const { services, samples, events } = deps;
  const { streams, urls, cursors } = services;
  // The routes on one stream, with its key, loaded by their preHandler.
  const withKey = {
    config: PAGE,
    schema: { hide: true, params: IdParams },
    preHandler: deps.owned.streamWithKey.preHandler,
  };

  app.get('/dashboard/streams', { config: PAGE, schema: { hide: true } }, async (request, reply) => {
    const user = userOf(request);
    const cursor = (request.query as Query).cursor;
    const page = await keysetPage(
      cursors,
      { list: 'dashboard_streams', limit: PAGE_SIZE, cursor, filters: { creator_id: user.id } },
      (after) => streams.list({ viewerId: user.id, creatorId: user.id, limit: PAGE_SIZE, after }),
      (row) => ({ sortKey: row.created_at, id: row.id }),
      (row) => row,
    );
    const body = streamListBody(page.data, page.pagination.next_cursor);
    return sendPage(
      reply,
      renderPage({ title: 'Streams', request, body, section: 'streams', styles: STYLES }),
    );
  });

  app.get('/dashboard/streams/new', { config: PAGE, schema: { hide: true } }, async (request, reply) =>
    sendNewForm(request, reply, EMPTY_STREAM_FORM),
  );

  app.post('/dashboard/streams', { config: PAGE, schema: { hide: true } }, async (request, reply) => {
    const user = userOf(request);
    const form = formOf(request);
    const values = formValues(form);
    let createdId: string;
    try {
      const body = validateAsApi(CreateStreamBody, toApiBody(form));
      const created = await streams.create(user.id, {
        title: body.title,
        description: body.description,
        scheduledAt: body.scheduled_at,
        category: body.category,
        privacy: body.privacy,
        record: body.record,
        latencyMode: body.latency_mode,
      });
      createdId = created.stream.id;
    } catch (error) {
      const problem = formProblem(error);
      if (!problem) throw error;
      return sendNewForm(request, reply, values, problem, 400);
    }
    return reply.redirect(`/dashboard/streams/${createdId}?created=1`, 303);
  });

  app.get('/dashboard/streams/:id', withKey, async (request, reply) => {
    const query = request.query as Query;
    const { stream, streamKey } = deps.owned.streamWithKey.of(request);
    const reveal = query.reveal === 'key';
    const notice =
      query.updated === '1'
        ? 'Stream details saved.'
        : query.ended === '1'
          ? `Stream ended: your streaming software was disconnected.${stream.record === 1 ? ' The recording becomes a video in a moment.' : ''}`
          : query.reset === '1'
            ? 'A new stream key was issued. Update it in your streaming software.'
            : query.created === '1'
              ? 'Stream created. Enter the ingest settings in your streaming software and start streaming.'
              : (STREAM_SIMULCAST_NOTICES[query.simulcast ?? ''] ?? STREAM_CHAT_NOTICES[query.chat ?? '']);
    const csrf = csrfField(request);
    const body = streamPageBody(csrf, {
      stream,
      rtmpUrl: urls.rtmpIngest,
      streamKey: reveal ? streamKey : undefined,
      keyAvailable: streamKey !== undefined,
      playbackPath: urls.pathOf(urls.streamPlayback(stream.id)),
      watchPath: urls.pathOf(urls.streamPage(stream.id)),
      samples: await samples.history(stream.id),
      // As GET /v1/streams/{id} gives it to the creator, from whichever process holds the stream.
      health: stream.status === 'ended' ? null : await services.streamHealth.report(stream),
      notice,
      simulcast: simulcastSection(
        csrf,
        await services.simulcast.list(stream.creator_id, stream.id),
        `/dashboard/streams/${stream.id}/simulcast`,
        'This stream is sent on, as it is (no re-encoding), to up to 5 other platforms while it is live. Changes apply from the next time it goes live (or reconnects).',
      ),
      chat: streamChatSection(csrf, await streamChatData(services.chat, stream)),
    });
    return sendPage(
      reply,
      renderPage({
        title: stream.title,
        request,
        body,
        section: 'streams',
        scripts: STREAM_SCRIPTS,
        styles: STYLES,
      }),
    );
  });

  // The page's Reveal and Copy buttons read the key here rather than from the page's HTML.
  app.get('/dashboard/streams/:id/stream-key', withKey, async (request, reply) => {
    const { streamKey } = deps.owned.streamWithKey.of(request);
    return reply.header('cache-control', 'no-store').send({ stream_key: streamKey ?? null });
  });

  app.post(
    '/dashboard/streams/:id/reset-key',
    { config: PAGE, schema: { hide: true, params: IdParams } },
    async (request, reply) => {
      const { id } = request.params;
      const user = userOf(request);
      // An ended stream's key is refused whatever it is: a new one would only look usable.
      const stream = await deps.owned.stream.load(user, { id });
      if (!stream) return sendNotFound(request, reply, 'stream');
      if (stream.status === 'ended') {
        throw new AppError(
          'state_conflict',
          'This stream has ended, so its key can no longer go live. Use your channel key or create a new stream.',
        );
      }
      try {
        await streams.resetStreamKey(id, user.id);
      } catch (error) {
        if (isNotFound(error)) return sendNotFound(request, reply, 'stream');
        throw error;
      }
      return reply.redirect(`/dashboard/streams/${encodeURIComponent(id)}?reveal=key&reset=1`, 303);
    },
  );

  app.get('/dashboard/streams/:id/events', withKey, async (request, reply) => {
    const { stream } = deps.owned.streamWithKey.of(request);
    reply.hijack();
    events.open(userOf(request).id, stream.id, reply.raw, deps.sessionCheck(request), stream);
    return reply;
  });

  function sendNewForm(
    request: FastifyRequest,
    reply: FastifyReply,
    values: StreamFormValues,
    problem?: ReturnType<typeof formProblem>,
    status = 200,
  ): FastifyReply {
    const body = newStreamBody(csrfField(request), values, problem);
    return sendPage(
      reply,
      renderPage({
        title: 'New stream',
        request,
        body,
        section: 'streams',
        styles: STYLES,
        scripts: ['/assets/dashboard.js'],
      }),
      status,
    );
  }
}

function formOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  return body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
}

function formValues(form: Record<string, unknown>): StreamFormValues {
  return {
    title: field(form, 'title') ?? '',
    description: field(form, 'description') ?? '',
    scheduled_at: field(form, 'scheduled_at') ?? '',
    category: field(form, 'category') ?? EMPTY_STREAM_FORM.category,
    privacy: field(form, 'privacy') ?? EMPTY_STREAM_FORM.privacy,
    record: field(form, 'record') === 'on',
    latency_mode: field(form, 'latency_mode') ?? EMPTY_STREAM_FORM.latency_mode,
  };
}

/**
 * The JSON body the API would have received: empty optional fields left out, the checkbox as a
 * boolean, a local date-time given the browser's offset. Any other field is passed on, so the
 * API's "not recognised" rule applies to it as well.
 */
export function toApiBody(form: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(form)) {
    if (
      FORM_ONLY.has(name) ||
      ['title', 'description', 'scheduled_at', 'category', 'privacy', 'record', 'latency_mode'].includes(name)
    )
      continue;
    // Defined, not assigned: a field named __proto__ must stay a field the rule refuses.
    Object.defineProperty(body, name, { value, enumerable: true, writable: true, configurable: true });
  }
  body.title = field(form, 'title') ?? '';
  const description = field(form, 'description');
  if (description !== undefined && description !== '') body.description = description;
  const scheduled = field(form, 'scheduled_at');
  if (scheduled !== undefined && scheduled !== '')
    body.scheduled_at = withOffset(scheduled, field(form, 'tz_offset'));
  const category = field(form, 'category');
  if (category !== undefined && category !== '') body.category = category;
  const privacy = field(form, 'privacy');
  if (privacy !== undefined && privacy !== '') body.privacy = privacy;
  body.record = field(form, 'record') === 'on';
  const latencyMode = field(form, 'latency_mode');
  if (latencyMode !== undefined && latencyMode !== '') body.latency_mode = latencyMode;
  return body;
}

/**
 * A `datetime-local` value has no zone: the browser's offset (minutes behind UTC, as
 * Date#getTimezoneOffset gives it; the page's script fills it in, UTC without script) makes it
 * RFC 3339. A value that already has a zone, or is not a local date-time, is left for the
 * API's rule to judge.
 */
export function withOffset(value: string, tzOffset: string | undefined): string {
  const local = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2})?$/.exec(value);
  if (!local) return value;
  const minutes = Number.parseInt(tzOffset ?? '0', 10);
  const ahead = Number.isFinite(minutes) && Math.abs(minutes) <= 14 * 60 ? -minutes : 0;
  const sign = ahead < 0 ? '-' : '+';
  const abs = Math.abs(ahead);
  const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${local[1]}${local[2] ?? ':00'}${zone}`;
}
