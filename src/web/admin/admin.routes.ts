// The admin area (/admin), for operators only: reports, users, streams and videos, and the
// audit log. A visitor is sent to sign in; a signed-in user who is not an operator gets the
// site's 404 page, so the area reveals nothing to them. Every action is a form with a reason
// that posts to a route calling src/moderation/'s service (the CLI calls the same one), then
// redirects to a page that says what was done (redirect-after-POST).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Actor } from '../../moderation/moderation.service.ts';
import type { ReportStatus } from '../../moderation/moderation.table.ts';
import { STATUS_BY_CODE } from '../../http/error-handler.ts';
import { AppError } from '../../shared/errors.ts';
import { renderPage, sendPage } from '../layout.ts';
import { csrfField } from '../session/csrf.ts';
import { requireUser } from '../session/guards.ts';
import type { WebUser } from '../session/types.ts';
import type { WebRoutesOptions } from '../web-options.ts';
import {
  auditBody,
  contentBody,
  contentListBody,
  reportBody,
  reportsBody,
  userBody,
  usersBody,
} from './admin.pages.ts';
import type { FastifyInstance } from 'fastify';
import { wantsJson } from '../wants-json.ts';

const STYLES = ['/assets/dashboard.css'];
const PAGE_SIZE = 50;
const config = { access: 'page' } as const;

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) }, { additionalProperties: false });
const ReasonForm = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 256 })),
  reason: Type.Optional(Type.String({ maxLength: 8000 })),
});
// Pages tolerate query parameters they do not know (a shared link may carry some).
const ListQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 400 })),
  status: Type.Optional(Type.String({ maxLength: 32 })),
  taken_down: Type.Optional(Type.String({ maxLength: 8 })),
  done: Type.Optional(Type.String({ maxLength: 32 })),
  after: Type.Optional(Type.String({ maxLength: 512 })),
});

interface ListQuery {
  q?: string;
  status?: string;
  taken_down?: string;
  done?: string;
  after?: string;
}

const DONE: Record<string, string> = {
  suspended: 'The account is suspended: its sessions, keys and live streams have stopped.',
  reinstated: 'The account is reinstated.',
  takedown: 'Taken down: it is no longer shown anywhere.',
  restored: 'Restored: it is shown again.',
  dismissed: 'The report was dismissed.',
  actioned: 'The report was acted on.',
};

const REPORT_STATUSES: readonly ReportStatus[] = ['open', 'dismissed', 'actioned'];

/**
 * An operator's refused action that they can act on (a missing reason, something already done),
 * said on the page it came from with the envelope's status for its code; undefined for anything
 * else, and for a script that asks for JSON (both go on to the pages' error handler).
 */
function refusalOf(request: FastifyRequest, error: unknown): { problem: string; status: number } | undefined {
  if (
    error instanceof AppError &&
    ['parameter_missing', 'parameter_invalid', 'state_conflict'].includes(error.code) &&
    !wantsJson(request)
  ) {
    return { problem: error.message, status: STATUS_BY_CODE[error.code] };
  }
  return undefined;
}

function actorOf(user: WebUser): Actor {
  return { id: user.id, name: user.name };
}

export async function adminRoutes(app: FastifyInstance, options: WebRoutesOptions): Promise<void> {
  const { moderation } = options.services;

  // The role is read with the session on every request: a demotion applies at once.
  app.addHook('preHandler', async (request, reply) => {
    const user = requireUser(request, reply);
    if (!user) return reply;
    if (user.role !== 'operator') {
      throw new AppError('route_not_found', `Route ${request.method}:${request.url} not found`);
    }
    return undefined;
  });

  const operator = (request: FastifyRequest): WebUser => {
    if (!request.webUser) throw new Error('the admin preHandler did not run');
    return request.webUser;
  };
  const send = (
    request: FastifyRequest,
    reply: FastifyReply,
    title: string,
    body: ReturnType<typeof usersBody>,
    status = 200,
  ) => sendPage(reply, renderPage({ title, request, body, section: 'admin', styles: STYLES }), status);
  const doneOf = (query: ListQuery): string | undefined => (query.done ? DONE[query.done] : undefined);

  app.get('/admin', { config, schema: { hide: true } }, async (_request, reply) =>
    reply.redirect('/admin/reports', 303),
  );

  // Reports.

  app.get<{ Querystring: ListQuery }>(
    '/admin/reports',
    { config, schema: { hide: true, querystring: ListQuery } },
    async (request, reply) => {
      const status = REPORT_STATUSES.find((s) => s === request.query.status) ?? 'open';
      const rows = await moderation.listReports(status, PAGE_SIZE);
      return send(request, reply, 'Reports', reportsBody(status, rows, doneOf(request.query)));
    },
  );

  const sendReport = async (
    request: FastifyRequest,
    reply: FastifyReply,
    id: string,
    problem?: string,
    status = 200,
  ) => {
    const report = await moderation.getReport(id);
    const [reporter, creator] = await Promise.all([
      moderation.findUser(report.reporter_id).catch(() => undefined),
      moderation.findUser(report.creator_id).catch(() => undefined),
    ]);
    const names = {
      reporter: reporter?.name ?? report.reporter_id,
      creator: creator?.name ?? report.creator_id,
    };
    return send(request, reply, 'Report', reportBody(csrfField(request), report, names, problem), status);
  };

  app.get<{ Params: { id: string } }>(
    '/admin/reports/:id',
    { config, schema: { hide: true, params: IdParams } },
    async (request, reply) => sendReport(request, reply, request.params.id),
  );

  for (const action of ['dismiss', 'act'] as const) {
    app.post<{ Params: { id: string }; Body: { reason?: string } }>(
      `/admin/reports/:id/${action}`,
      { config, schema: { hide: true, params: IdParams, body: ReasonForm } },
      async (request, reply) => {
        const { id } = request.params;
        const actor = actorOf(operator(request));
        try {
          if (action === 'dismiss') await moderation.dismissReport(actor, id, request.body.reason ?? '');
          else await moderation.actOnReport(actor, id, request.body.reason ?? '');
        } catch (error) {
          const refusal = refusalOf(request, error);
          if (refusal === undefined) throw error;
          return sendReport(request, reply, id, refusal.problem, refusal.status);
        }
        const done = action === 'dismiss' ? 'dismissed' : 'actioned';
        return reply.redirect(`/admin/reports?done=${done}`, 303);
      },
    );
  }

  // Users.

  app.get<{ Querystring: ListQuery }>(
    '/admin/users',
    { config, schema: { hide: true, querystring: ListQuery } },
    async (request, reply) => {
      const query = request.query.q ?? '';
      const rows = await moderation.searchUsers(query, PAGE_SIZE);
      return send(request, reply, 'Users', usersBody(query, rows));
    },
  );

  const sendUser = async (
    request: FastifyRequest,
    reply: FastifyReply,
    id: string,
    messages: { done?: string | undefined; problem?: string | undefined },
    status = 200,
  ) => {
    if (!id.startsWith('usr_'))
      throw new AppError('resource_not_found', `No user with id '${id}' exists.`, 'id');
    const user = await moderation.findUser(id);
    const [streams, videos, audit] = await Promise.all([
      moderation.listContent('stream', { creatorId: id }, PAGE_SIZE),
      moderation.listContent('video', { creatorId: id }, PAGE_SIZE),
      moderation.auditLog({ targetId: id }, PAGE_SIZE),
    ]);
    const content = [...streams, ...videos].sort((a, b) => b.created_at - a.created_at);
    return send(
      request,
      reply,
      user.name,
      userBody(csrfField(request), user, content, audit, messages),
      status,
    );
  };

  app.get<{ Params: { id: string }; Querystring: ListQuery }>(
    '/admin/users/:id',
    { config, schema: { hide: true, params: IdParams, querystring: ListQuery } },
    async (request, reply) => sendUser(request, reply, request.params.id, { done: doneOf(request.query) }),
  );

  for (const action of ['suspend', 'reinstate'] as const) {
    app.post<{ Params: { id: string }; Body: { reason?: string } }>(
      `/admin/users/:id/${action}`,
      { config, schema: { hide: true, params: IdParams, body: ReasonForm } },
      async (request, reply) => {
        const { id } = request.params;
        const actor = actorOf(operator(request));
        try {
          if (action === 'suspend') await moderation.suspend(actor, id, request.body.reason ?? '');
          else await moderation.reinstate(actor, id, request.body.reason ?? '');
        } catch (error) {
          const refusal = refusalOf(request, error);
          if (refusal === undefined) throw error;
          return sendUser(request, reply, id, { problem: refusal.problem }, refusal.status);
        }
        const done = action === 'suspend' ? 'suspended' : 'reinstated';
        return reply.redirect(`/admin/users/${encodeURIComponent(id)}?done=${done}`, 303);
      },
    );
  }

  // Streams and videos.

  for (const kind of ['stream', 'video'] as const) {
    const base = `/admin/${kind}s`;
    app.get<{ Querystring: ListQuery }>(
      base,
      { config, schema: { hide: true, querystring: ListQuery } },
      async (request, reply) => {
        const filter = { query: request.query.q ?? '', takenDownOnly: request.query.taken_down === '1' };
        const rows = await moderation.listContent(kind, filter, PAGE_SIZE);
        return send(
          request,
          reply,
          kind === 'stream' ? 'Streams' : 'Videos',
          contentListBody(kind, filter, rows),
        );
      },
    );

    const sendItem = async (
      request: FastifyRequest,
      reply: FastifyReply,
      id: string,
      messages: { done?: string | undefined; problem?: string | undefined },
      status = 200,
    ) => {
      const item = await moderation.findContent(kind, id);
      const audit = await moderation.auditLog({ targetId: id }, PAGE_SIZE);
      return send(request, reply, item.title, contentBody(csrfField(request), item, audit, messages), status);
    };

    app.get<{ Params: { id: string }; Querystring: ListQuery }>(
      `${base}/:id`,
      { config, schema: { hide: true, params: IdParams, querystring: ListQuery } },
      async (request, reply) => sendItem(request, reply, request.params.id, { done: doneOf(request.query) }),
    );

    for (const action of ['takedown', 'restore'] as const) {
      app.post<{ Params: { id: string }; Body: { reason?: string } }>(
        `${base}/:id/${action}`,
        { config, schema: { hide: true, params: IdParams, body: ReasonForm } },
        async (request, reply) => {
          const { id } = request.params;
          const actor = actorOf(operator(request));
          try {
            if (action === 'takedown') await moderation.takedown(actor, kind, id, request.body.reason ?? '');
            else await moderation.restore(actor, kind, id, request.body.reason ?? '');
          } catch (error) {
            const refusal = refusalOf(request, error);
            if (refusal === undefined) throw error;
            return sendItem(request, reply, id, { problem: refusal.problem }, refusal.status);
          }
          const done = action === 'takedown' ? 'takedown' : 'restored';
          return reply.redirect(`${base}/${encodeURIComponent(id)}?done=${done}`, 303);
        },
      );
    }
  }

  // The audit log, a keyset page at a time.

  app.get<{ Querystring: ListQuery }>(
    '/admin/audit',
    { config, schema: { hide: true, querystring: ListQuery } },
    async (request, reply) => {
      const { cursors } = options.services;
      const after =
        request.query.after === undefined || request.query.after === ''
          ? undefined
          : cursors.decode('admin-audit', request.query.after, {});
      const rows = await moderation.auditLog({ after }, PAGE_SIZE + 1);
      const last = rows.length > PAGE_SIZE ? rows[PAGE_SIZE - 1] : undefined;
      const next = last ? cursors.encode('admin-audit', { sortKey: last.created_at, id: last.id }, {}) : null;
      return send(request, reply, 'Audit log', auditBody(rows.slice(0, PAGE_SIZE), next));
    },
  );
}
