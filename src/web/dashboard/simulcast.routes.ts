// Simulcast from the dashboard: adding a destination (a form checked by the API's own schema,
// then SimulcastService.create), enabling or disabling one and removing one, for a stream's
// destinations and for the channel defaults; and the channel page (/dashboard/ingest), where the
// channel stream key and the defaults are. The key is never put in a page after it is typed.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError, isStateConflict } from '../../shared/errors.ts';
import { CreateSimulcastTargetBody } from '../../simulcast/simulcast.schemas.ts';
import type { TargetOwner } from '../../simulcast/simulcast.service.ts';
import { csrfField, html, PAGE, renderPage, sendPage, userOf } from './core.ts';
import type { DashboardApp, DashboardDeps } from './dashboard.deps.ts';
import { field, formProblem, validateAsApi, type FormProblem } from './form-validation.ts';
import { isNotFound, sendNotFound } from './not-found.ts';
import { IdParams } from './owned.ts';
import {
  channelPageBody,
  EMPTY_SIMULCAST_FORM,
  simulcastFormBody,
  type SimulcastFormValues,
} from './simulcast-pages.ts';

const STYLES = ['/assets/dashboard.css'];
const StreamTargetParams = Type.Object({ id: Type.String(), target_id: Type.String() });
const TargetParams = Type.Object({ target_id: Type.String() });

const CHANGE_NOTE =
  'Changes apply from the next time the stream goes live (or reconnects): a stream that is live now keeps sending where it was sending.';

export async function dashboardSimulcastRoutes(app: DashboardApp, deps: DashboardDeps): Promise<void> {
  const { services, owned } = deps;
  const { simulcast, channels, urls } = services;
  const onStream = {
    config: PAGE,
    schema: { hide: true, params: IdParams },
    preHandler: owned.stream.preHandler,
  };

  // A stream's destinations: listed on the stream's page (streams.routes.ts).
  const streamPage = (id: string, result: string) =>
    `/dashboard/streams/${encodeURIComponent(id)}?simulcast=${result}#simulcast`;

  app.get('/dashboard/streams/:id/simulcast/new', onStream, async (request, reply) =>
    sendStreamForm(request, reply, owned.stream.of(request).id, EMPTY_SIMULCAST_FORM),
  );

  app.post('/dashboard/streams/:id/simulcast', onStream, async (request, reply) => {
    const stream = owned.stream.of(request);
    const form = formOf(request);
    const problem = await addFrom(request, stream.id, form);
    if (problem === 'missing') return sendNotFound(request, reply, 'stream');
    if (problem) return sendStreamForm(request, reply, stream.id, valuesOf(form), problem, 400);
    return reply.redirect(streamPage(stream.id, 'added'), 303);
  });

  app.post(
    '/dashboard/streams/:id/simulcast/:target_id/toggle',
    { config: PAGE, schema: { hide: true, params: StreamTargetParams } },
    async (request, reply) => {
      const { id, target_id: targetId } = request.params;
      const enabled = field(formOf(request), 'enabled') === 'true';
      if (!(await toggle(request, id, targetId, enabled))) return sendNotFound(request, reply, 'destination');
      return reply.redirect(streamPage(id, enabled ? 'enabled' : 'disabled'), 303);
    },
  );

  app.post(
    '/dashboard/streams/:id/simulcast/:target_id/delete',
    { config: PAGE, schema: { hide: true, params: StreamTargetParams } },
    async (request, reply) => {
      const { id, target_id: targetId } = request.params;
      if (!(await remove(request, id, targetId))) return sendNotFound(request, reply, 'destination');
      return reply.redirect(streamPage(id, 'removed'), 303);
    },
  );

  // The channel page: the channel key and the defaults.
  app.get('/dashboard/ingest', { config: PAGE, schema: { hide: true } }, async (request, reply) => {
    const user = userOf(request);
    const query = request.query as Record<string, string | undefined>;
    const reveal = query.reveal === 'key';
    const key = reveal ? (await channels.show(user.id)).streamKey : undefined;
    const notices: Record<string, string> = {
      added: 'Default destination added: new streams start with it.',
      enabled: 'Default destination enabled for new streams.',
      disabled: 'Default destination disabled for new streams.',
      removed: 'Default destination removed: new streams no longer get it.',
    };
    const notice =
      query.reset === '1'
        ? 'A new channel key was issued. Update it in your streaming software.'
        : notices[query.simulcast ?? ''];
    const body = channelPageBody(csrfField(request), {
      rtmpUrl: urls.rtmpIngest,
      streamKey: key,
      defaults: await simulcast.list(user.id, null),
      next: await services.nextStream.preview(user.id),
      notice,
    });
    return sendPage(
      reply,
      renderPage({
        title: 'Channel',
        request,
        body,
        section: 'ingest',
        styles: STYLES,
        scripts: ['/assets/dashboard.js'],
      }),
    );
  });

  // The page's Reveal and Copy buttons read the key here rather than from the page's HTML.
  app.get(
    '/dashboard/ingest/stream-key',
    { config: PAGE, schema: { hide: true } },
    async (request, reply) => {
      const { streamKey } = await channels.show(userOf(request).id);
      return reply.header('cache-control', 'no-store').send({ stream_key: streamKey });
    },
  );

  app.post(
    '/dashboard/ingest/reset-key',
    { config: PAGE, schema: { hide: true } },
    async (request, reply) => {
      await channels.reset(userOf(request).id);
      return reply.redirect('/dashboard/ingest?reveal=key&reset=1', 303);
    },
  );

  const channelPage = (result: string) => `/dashboard/ingest?simulcast=${result}#simulcast`;

  app.get(
    '/dashboard/ingest/simulcast/new',
    { config: PAGE, schema: { hide: true } },
    async (request, reply) => sendDefaultsForm(request, reply, EMPTY_SIMULCAST_FORM),
  );

  app.post(
    '/dashboard/ingest/simulcast',
    { config: PAGE, schema: { hide: true } },
    async (request, reply) => {
      const form = formOf(request);
      const problem = await addFrom(request, null, form);
      if (problem === 'missing') return sendNotFound(request, reply, 'destination');
      if (problem) return sendDefaultsForm(request, reply, valuesOf(form), problem, 400);
      return reply.redirect(channelPage('added'), 303);
    },
  );

  app.post(
    '/dashboard/ingest/simulcast/:target_id/toggle',
    { config: PAGE, schema: { hide: true, params: TargetParams } },
    async (request, reply) => {
      const enabled = field(formOf(request), 'enabled') === 'true';
      if (!(await toggle(request, null, request.params.target_id, enabled))) {
        return sendNotFound(request, reply, 'destination');
      }
      return reply.redirect(channelPage(enabled ? 'enabled' : 'disabled'), 303);
    },
  );

  app.post(
    '/dashboard/ingest/simulcast/:target_id/delete',
    { config: PAGE, schema: { hide: true, params: TargetParams } },
    async (request, reply) => {
      if (!(await remove(request, null, request.params.target_id))) {
        return sendNotFound(request, reply, 'destination');
      }
      return reply.redirect(channelPage('removed'), 303);
    },
  );

  /** Adds the form's destination; a problem to show, 'missing' for a 404, or undefined. */
  async function addFrom(
    request: FastifyRequest,
    owner: TargetOwner,
    form: Record<string, unknown>,
  ): Promise<FormProblem | 'missing' | undefined> {
    try {
      const body = validateAsApi(CreateSimulcastTargetBody, toApiBody(form));
      await simulcast.create(userOf(request).id, owner, {
        url: body.url,
        streamKey: body.stream_key,
        name: body.name,
        enabled: body.enabled,
      });
      return undefined;
    } catch (error) {
      if (isNotFound(error)) return 'missing';
      if (isStateConflict(error)) return { field: undefined, message: error.message };
      if (error instanceof AppError && error.code === 'simulcast_target_limit_reached') {
        return { field: undefined, message: error.message };
      }
      const problem = formProblem(error);
      if (!problem) throw error;
      return problem;
    }
  }

  async function toggle(
    request: FastifyRequest,
    owner: TargetOwner,
    targetId: string,
    enabled: boolean,
  ): Promise<boolean> {
    try {
      await simulcast.update(userOf(request).id, owner, targetId, { enabled });
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async function remove(request: FastifyRequest, owner: TargetOwner, targetId: string): Promise<boolean> {
    try {
      await simulcast.delete(userOf(request).id, owner, targetId);
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  function sendStreamForm(
    request: FastifyRequest,
    reply: FastifyReply,
    streamId: string,
    values: SimulcastFormValues,
    problem?: FormProblem,
    status = 200,
  ): FastifyReply {
    const stream = owned.stream.of(request);
    const back = `/dashboard/streams/${streamId}`;
    const body = simulcastFormBody(
      csrfField(request),
      {
        crumbs: html`<p class="crumbs">
          <a href="/dashboard/streams">Streams</a> / <a href="${back}">${stream.title}</a>
        </p>`,
        heading: 'Add a simulcast destination',
        action: `${back}/simulcast`,
        back: `${back}#simulcast`,
        note: `This stream is sent on, as it is (no re-encoding), to each destination. ${CHANGE_NOTE}`,
      },
      values,
      problem,
    );
    return sendPage(
      reply,
      renderPage({ title: `Simulcast: ${stream.title}`, request, body, section: 'streams', styles: STYLES }),
      status,
    );
  }

  function sendDefaultsForm(
    request: FastifyRequest,
    reply: FastifyReply,
    values: SimulcastFormValues,
    problem?: FormProblem,
    status = 200,
  ): FastifyReply {
    const body = simulcastFormBody(
      csrfField(request),
      {
        crumbs: html`<p class="crumbs"><a href="/dashboard/ingest">Channel</a></p>`,
        heading: 'Add a default destination',
        action: '/dashboard/ingest/simulcast',
        back: '/dashboard/ingest#simulcast',
        note: 'Every stream you create from now on starts with a copy of it. Streams you already have are not changed.',
      },
      values,
      problem,
    );
    return sendPage(
      reply,
      renderPage({ title: 'Add a default destination', request, body, section: 'ingest', styles: STYLES }),
      status,
    );
  }
}

/** The stream's destination notices, for its page. */
export const STREAM_SIMULCAST_NOTICES: Record<string, string> = {
  added: `Simulcast destination added. ${CHANGE_NOTE}`,
  enabled: `Simulcast destination enabled. ${CHANGE_NOTE}`,
  disabled: `Simulcast destination disabled. ${CHANGE_NOTE}`,
  removed: `Simulcast destination removed. ${CHANGE_NOTE}`,
};

function formOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  return body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
}

function valuesOf(form: Record<string, unknown>): SimulcastFormValues {
  return {
    name: field(form, 'name') ?? '',
    url: field(form, 'url') ?? '',
    enabled: field(form, 'enabled') === 'on',
  };
}

/** The JSON body the API would have received: an empty name left out, the checkbox a boolean. */
function toApiBody(form: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {
    url: field(form, 'url') ?? '',
    stream_key: field(form, 'stream_key') ?? '',
    enabled: field(form, 'enabled') === 'on',
  };
  const name = field(form, 'name');
  if (name !== undefined && name.trim() !== '') body.name = name;
  return body;
}
