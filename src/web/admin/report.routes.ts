// Viewers' reports: the watch page's and the channel page's "Report" buttons lead to a form
// (signed-in viewers only: a visitor is sent to sign in and comes back), which posts to
// /report and redirects to a thank-you page. The report queues for operators (/admin/reports).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { ReportTargetKind } from '../../moderation/moderation.table.ts';
import { AppError, invalidParameter } from '../../shared/errors.ts';
import { renderPage, sendPage } from '../layout.ts';
import { csrfField } from '../session/csrf.ts';
import { requireUser } from '../session/guards.ts';
import type { WebRoutesOptions } from '../web-options.ts';
import { reportFormBody, reportSentBody } from './admin.pages.ts';
import { wantsJson } from '../wants-json.ts';

const config = { access: 'page' } as const;
const ReportQuery = Type.Object({
  kind: Type.Optional(Type.String({ maxLength: 16 })),
  id: Type.Optional(Type.String({ maxLength: 64 })),
});
const ReportForm = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 256 })),
  kind: Type.Optional(Type.String({ maxLength: 16 })),
  id: Type.Optional(Type.String({ maxLength: 64 })),
  reason: Type.Optional(Type.String({ maxLength: 8000 })),
});

const KINDS: readonly ReportTargetKind[] = ['stream', 'video', 'channel'];

/** Where a reported thing is seen (the form's Cancel, the thank-you page's Back). */
function backTo(kind: ReportTargetKind, id: string): string {
  return kind === 'channel' ? `/channels/${encodeURIComponent(id)}` : `/watch/${encodeURIComponent(id)}`;
}

export async function reportRoutes(app: FastifyInstance, options: WebRoutesOptions): Promise<void> {
  const { moderation, watch } = options.services;

  /** What is reported, as a viewer sees it; missing (404) when it is not shown. */
  const targetOf = async (kindText: string | undefined, id: string | undefined) => {
    const kind = KINDS.find((k) => k === kindText);
    if (kind === undefined) throw invalidParameter('kind', 'Report a stream, a video or a channel.');
    if (id === undefined || id === '') throw new AppError('parameter_missing', 'Say what you report.', 'id');
    const missing = new AppError(
      'resource_not_found',
      'There is nothing to report here: it does not exist or is no longer shown.',
    );
    if (kind === 'channel') {
      const user = await moderation.findUser(id).catch(() => undefined);
      if (!id.startsWith('usr_') || !user || user.suspended_at !== null) throw missing;
      return { kind, id, title: user.name, back: backTo(kind, id) };
    }
    const info = await watch.find(id);
    if (!info || info.kind !== kind) throw missing;
    return { kind, id, title: info.title, back: backTo(kind, id) };
  };

  const sendForm = async (
    request: FastifyRequest,
    reply: FastifyReply,
    target: Awaited<ReturnType<typeof targetOf>>,
    problem?: string,
    status = 200,
  ) =>
    sendPage(
      reply,
      renderPage({
        title: `Report this ${target.kind}`,
        request,
        body: reportFormBody(csrfField(request), target, problem),
      }),
      status,
    );

  app.get<{ Querystring: { kind?: string; id?: string } }>(
    '/report',
    { config, schema: { hide: true, querystring: ReportQuery } },
    async (request, reply) => {
      if (!requireUser(request, reply)) return reply;
      return sendForm(request, reply, await targetOf(request.query.kind, request.query.id));
    },
  );

  app.post<{ Body: { kind?: string; id?: string; reason?: string } }>(
    '/report',
    { config, schema: { hide: true, body: ReportForm } },
    async (request, reply) => {
      const viewer = requireUser(request, reply);
      if (!viewer) return reply;
      const target = await targetOf(request.body.kind, request.body.id);
      try {
        await moderation.report(viewer.id, {
          kind: target.kind,
          id: target.id,
          reason: request.body.reason ?? '',
        });
      } catch (error) {
        if (
          error instanceof AppError &&
          (error.code === 'parameter_missing' || error.code === 'parameter_invalid') &&
          !wantsJson(request)
        ) {
          return sendForm(request, reply, target, error.message, 400);
        }
        throw error;
      }
      return reply.redirect(`/report/sent?kind=${target.kind}&id=${encodeURIComponent(target.id)}`, 303);
    },
  );

  app.get<{ Querystring: { kind?: string; id?: string } }>(
    '/report/sent',
    { config, schema: { hide: true, querystring: ReportQuery } },
    async (request, reply) => {
      const kind = KINDS.find((k) => k === request.query.kind) ?? 'channel';
      const back = request.query.id ? backTo(kind, request.query.id) : '/';
      return sendPage(reply, renderPage({ title: 'Report sent', request, body: reportSentBody(back) }));
    },
  );
}
