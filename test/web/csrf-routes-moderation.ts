// Moderation's state-changing page routes for test/web/csrf.test.ts: a viewer's report, and
// the admin area's actions (the signed-in user is made an operator first). A refused request
// must change nothing: no report, no suspension, no takedown, no audit row.
import assert from 'node:assert/strict';
import { CLI_ACTOR } from '../../src/moderation/moderation.service.ts';
import { seedVideos } from '../helpers/seed.ts';
import type { CsrfContext, CsrfRoute } from './csrf-routes.ts';

async function operator(context: CsrfContext): Promise<void> {
  await context.server.services.moderation.setRole(CLI_ACTOR, context.userId, 'operator');
}

async function creatorWithStream(context: CsrfContext): Promise<{ creatorId: string; streamId: string }> {
  const creator = await context.server.services.accounts.createUser('CSRF creator');
  const { stream } = await context.server.services.streams.create(creator.id, { title: 'Reported show' });
  return { creatorId: creator.id, streamId: stream.id };
}

async function auditCount(context: CsrfContext): Promise<number> {
  return (await context.server.services.moderation.auditLog({}, 1000)).filter(
    (row) => row.action !== 'user.set_role',
  ).length;
}

function unchangedAudit(context: CsrfContext, before: number): () => Promise<void> {
  return async () => {
    assert.equal(await auditCount(context), before, 'no operator action recorded');
  };
}

async function openReport(context: CsrfContext): Promise<string> {
  const { streamId } = await creatorWithStream(context);
  const reporter = await context.server.services.accounts.createUser('CSRF reporter');
  const report = await context.server.services.moderation.report(reporter.id, {
    kind: 'stream',
    id: streamId,
    reason: 'spam',
  });
  return report.id;
}

async function contentCase(context: CsrfContext, kind: 'stream' | 'video', action: 'takedown' | 'restore') {
  await operator(context);
  const { creatorId, streamId } = await creatorWithStream(context);
  const id =
    kind === 'stream'
      ? streamId
      : ((await seedVideos(context.server.services.database.db, 1, () => ({ creator_id: creatorId })))[0] ??
        '');
  if (action === 'restore') await context.server.services.moderation.takedown(CLI_ACTOR, kind, id, 'earlier');
  const before = await auditCount(context);
  return {
    as: 'user' as const,
    path: `/admin/${kind}s/${id}/${action}`,
    form: { reason: 'csrf' },
    unchanged: async () => {
      await unchangedAudit(context, before)();
      const item = await context.server.services.moderation.findContent(kind, id);
      assert.equal(item.taken_down_at === null, action === 'takedown', 'standing unchanged');
    },
  };
}

export const CSRF_ROUTES: CsrfRoute[] = [
  {
    method: 'POST',
    route: '/report',
    async setup(context) {
      const { streamId } = await creatorWithStream(context);
      return {
        as: 'user',
        path: '/report',
        form: { kind: 'stream', id: streamId, reason: 'spam' },
        unchanged: async () => {
          assert.equal((await context.server.services.moderation.listReports('open')).length, 0);
        },
      };
    },
  },
  ...(['dismiss', 'act'] as const).map((action): CsrfRoute => ({
    method: 'POST',
    route: `/admin/reports/:id/${action}`,
    async setup(context) {
      await operator(context);
      const id = await openReport(context);
      return {
        as: 'user',
        path: `/admin/reports/${id}/${action}`,
        form: { reason: 'csrf' },
        unchanged: async () => {
          assert.equal((await context.server.services.moderation.getReport(id)).status, 'open');
        },
      };
    },
  })),
  ...(['suspend', 'reinstate'] as const).map((action): CsrfRoute => ({
    method: 'POST',
    route: `/admin/users/:id/${action}`,
    async setup(context) {
      await operator(context);
      const { creatorId } = await creatorWithStream(context);
      if (action === 'reinstate') {
        await context.server.services.moderation.suspend(CLI_ACTOR, creatorId, 'earlier');
      }
      const before = await auditCount(context);
      return {
        as: 'user',
        path: `/admin/users/${creatorId}/${action}`,
        form: { reason: 'csrf' },
        unchanged: unchangedAudit(context, before),
      };
    },
  })),
  ...(['stream', 'video'] as const).flatMap((kind) =>
    (['takedown', 'restore'] as const).map((action): CsrfRoute => ({
      method: 'POST',
      route: `/admin/${kind}s/:id/${action}`,
      setup: (context) => contentCase(context, kind, action),
    })),
  ),
];
