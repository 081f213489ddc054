// The creator's webhooks: register (the secret shown once), list, and per webhook its delivery
// log, chart and actions (send a test, enable, rotate the secret, delete, resend a delivery),
// each calling the same webhook services as the API.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { AppError } from '../../shared/errors.ts';
import type { DeliveryDetail } from '../../webhooks/webhook-management.service.ts';
import type { PublicWebhookRow } from '../../webhooks/webhook.repository.ts';
import { CreateWebhookBody } from '../../webhooks/webhook.schemas.ts';
import { csrfField, PAGE, renderPage, sendPage, userOf, type WebUser } from './core.ts';
import type { DashboardApp, DashboardDeps } from './dashboard.deps.ts';
import { field, formProblem, validateAsApi, type FormProblem } from './form-validation.ts';
import { isNotFound, sendNotFound } from './not-found.ts';
import { DeliveryParams, IdParams } from './owned.ts';
import {
  deliveryPageBody,
  EVENT_CHOICES,
  eventFieldName,
  secretOnceBody,
  webhookListBody,
  webhookPageBody,
  type WebhookFormValues,
} from './webhook-pages.ts';

const STYLES = ['/assets/uPlot.min.css', '/assets/dashboard.css'];
const LOG_SIZE = 50;

const NOTICES: Record<string, string> = {
  test: 'A test event (ping) was queued; it appears in the log below once sent.',
  enabled: 'The webhook is active again.',
};

/** Refusals an action may meet that the creator can act on; shown on the page, not as errors. */
function actionRefusal(error: unknown): string | undefined {
  if (
    error instanceof AppError &&
    (error.code === 'state_conflict' || error.code === 'delivery_in_progress')
  ) {
    return error.message;
  }
  return undefined;
}

/** An action's path: a webhook's, or one of its deliveries'. */
const ActionParams = Type.Object({ id: Type.String(), event_id: Type.Optional(Type.String()) });
type ActionParams = Static<typeof ActionParams>;

/** A signing secret on its way to the page that shows it once. */
interface SecretFlash {
  secret: string;
  heading: string;
}

export async function dashboardWebhookRoutes(app: DashboardApp, deps: DashboardDeps): Promise<void> {
  const { webhooks, webhookManagement: management } = deps.services;
  const { owned } = deps;

  app.get('/dashboard/webhooks', { config: PAGE, schema: { hide: true } }, async (request, reply) => {
    const deleted = (request.query as Record<string, string | undefined>).deleted === '1';
    return sendList(
      request,
      reply,
      userOf(request),
      { url: '', events: ['*'] },
      undefined,
      200,
      deleted ? 'Webhook deleted: nothing more is sent to it.' : undefined,
    );
  });

  app.post('/dashboard/webhooks', { config: PAGE, schema: { hide: true } }, async (request, reply) => {
    const user = userOf(request);
    const form = (request.body ?? {}) as Record<string, unknown>;
    const values: WebhookFormValues = {
      url: field(form, 'url') ?? '',
      events: EVENT_CHOICES.filter((event) => field(form, eventFieldName(event)) === 'on'),
    };
    let registered;
    try {
      const body = validateAsApi(CreateWebhookBody, { url: values.url, events: values.events });
      registered = await webhooks.register(user.id, body);
    } catch (error) {
      const problem = formProblem(error);
      if (!problem) throw error;
      const status = error instanceof AppError && error.code === 'webhook_url_taken' ? 409 : 400;
      return sendList(request, reply, user, values, problem, status);
    }
    return showSecretOnce(request, reply, registered.row.id, {
      secret: registered.secret,
      heading: 'Webhook registered',
    });
  });

  // Redirect after POST: the page a registration or a rotation goes to, which shows the new
  // secret once (sealed in a flash cookie, session/flash.ts). Reloaded, it is the webhook's page.
  app.get(
    '/dashboard/webhooks/:id/secret',
    { config: PAGE, schema: { hide: true, params: IdParams }, preHandler: owned.webhook.preHandler },
    async (request, reply) => {
      const webhook = owned.webhook.of(request);
      const shown = deps.flash.take(request, reply, `webhook-secret:${webhook.id}`) as
        SecretFlash | undefined;
      if (!shown) return reply.redirect(`/dashboard/webhooks/${encodeURIComponent(webhook.id)}`, 303);
      const page = renderPage({
        title: shown.heading,
        request,
        body: secretOnceBody(webhook, shown.secret, shown.heading),
        section: 'webhooks',
        styles: STYLES,
        scripts: ['/assets/dashboard.js'],
      });
      return sendPage(reply, page);
    },
  );

  function showSecretOnce(
    request: FastifyRequest,
    reply: FastifyReply,
    webhookId: string,
    shown: SecretFlash,
  ): FastifyReply {
    deps.flash.put(request, reply, `webhook-secret:${webhookId}`, shown);
    return reply.redirect(`/dashboard/webhooks/${encodeURIComponent(webhookId)}/secret`, 303);
  }

  app.get(
    '/dashboard/webhooks/:id',
    { config: PAGE, schema: { hide: true, params: IdParams }, preHandler: owned.webhook.preHandler },
    async (request, reply) => {
      const done = (request.query as Record<string, string | undefined>).done;
      const notice = done ? NOTICES[done] : undefined;
      return sendWebhook(request, reply, userOf(request), owned.webhook.of(request), notice);
    },
  );

  app.get(
    '/dashboard/webhooks/:id/deliveries/:event_id',
    { config: PAGE, schema: { hide: true, params: DeliveryParams }, preHandler: owned.delivery.preHandler },
    async (request, reply) => {
      const resent = (request.query as Record<string, string | undefined>).done === 'resent';
      const notice = resent ? 'The event was queued to be sent again now.' : undefined;
      return sendDelivery(request, reply, request.params, owned.delivery.of(request), notice);
    },
  );

  // Actions: each answers a redirect to the page that shows its outcome, or that page with
  // the refusal when the webhook's state does not allow it.
  const action = (
    path: string,
    run: (user: WebUser, params: ActionParams) => Promise<unknown>,
    after: (params: ActionParams) => string,
    onRefusal: 'webhook' | 'delivery' = 'webhook',
  ) =>
    app.post(path, { config: PAGE, schema: { hide: true, params: ActionParams } }, async (request, reply) => {
      const user = userOf(request);
      const { params } = request;
      try {
        await run(user, params);
      } catch (error) {
        if (isNotFound(error))
          return sendNotFound(request, reply, onRefusal === 'delivery' ? 'delivery' : 'webhook');
        const refusal = actionRefusal(error);
        if (refusal === undefined) throw error;
        // The page the action was on, as it is now, with the refusal.
        if (onRefusal === 'delivery') {
          const where = { id: params.id, event_id: params.event_id ?? '' };
          const detail = await owned.delivery.load(user, where);
          if (!detail) return sendNotFound(request, reply, 'delivery');
          return sendDelivery(request, reply, where, detail, undefined, refusal, 409);
        }
        const webhook = await owned.webhook.load(user, params);
        if (!webhook) return sendNotFound(request, reply, 'webhook');
        return sendWebhook(request, reply, user, webhook, undefined, refusal, 409);
      }
      return reply.redirect(after(params), 303);
    });

  action(
    '/dashboard/webhooks/:id/test',
    (user, { id }) => management.test(user.id, id),
    ({ id }) => `/dashboard/webhooks/${encodeURIComponent(id)}?done=test`,
  );
  action(
    '/dashboard/webhooks/:id/enable',
    (user, { id }) => management.enable(user.id, id),
    ({ id }) => `/dashboard/webhooks/${encodeURIComponent(id)}?done=enabled`,
  );
  action(
    '/dashboard/webhooks/:id/delete',
    (user, { id }) => webhooks.delete(user.id, id),
    () => '/dashboard/webhooks?deleted=1',
  );
  action(
    '/dashboard/webhooks/:id/deliveries/:event_id/resend',
    (user, { id, event_id }) => management.resend(user.id, id, event_id ?? ''),
    ({ id, event_id }) =>
      `/dashboard/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(event_id ?? '')}?done=resent`,
    'delivery',
  );

  // Rotating shows the new secret once, on the page it redirects to.
  app.post(
    '/dashboard/webhooks/:id/rotate-secret',
    { config: PAGE, schema: { hide: true, params: IdParams } },
    async (request, reply) => {
      let rotated;
      try {
        rotated = await webhooks.rotateSecret(userOf(request).id, request.params.id);
      } catch (error) {
        if (isNotFound(error)) return sendNotFound(request, reply, 'webhook');
        throw error;
      }
      return showSecretOnce(request, reply, rotated.row.id, {
        secret: rotated.secret,
        heading: 'New signing secret',
      });
    },
  );

  async function sendList(
    request: FastifyRequest,
    reply: FastifyReply,
    user: WebUser,
    values: WebhookFormValues,
    problem?: FormProblem,
    status = 200,
    notice?: string,
  ): Promise<FastifyReply> {
    const rows = await webhooks.list(user.id);
    const body = webhookListBody(csrfField(request), rows, values, problem, notice);
    return sendPage(
      reply,
      renderPage({ title: 'Webhooks', request, body, section: 'webhooks', styles: STYLES }),
      status,
    );
  }

  async function sendWebhook(
    request: FastifyRequest,
    reply: FastifyReply,
    user: WebUser,
    webhook: PublicWebhookRow,
    notice?: string,
    error?: string,
    status = 200,
  ): Promise<FastifyReply> {
    const { id } = webhook;
    const [deliveries, series] = await Promise.all([
      management.listDeliveries(user.id, id, {
        after: undefined,
        take: LOG_SIZE,
        status: undefined,
        eventType: undefined,
      }),
      deps.deliveryChart.series(user.id, id),
    ]);
    const body = webhookPageBody(csrfField(request), { webhook, deliveries, series, notice, error });
    return sendPage(
      reply,
      renderPage({
        title: `Webhook ${webhook.url}`,
        request,
        body,
        section: 'webhooks',
        styles: STYLES,
        scripts: ['/assets/uPlot.iife.min.js', '/assets/dashboard-webhook.js'],
      }),
      status,
    );
  }

  function sendDelivery(
    request: FastifyRequest,
    reply: FastifyReply,
    { id, event_id: eventId }: DeliveryParams,
    detail: DeliveryDetail,
    notice?: string,
    error?: string,
    status = 200,
  ): FastifyReply {
    const body = deliveryPageBody(csrfField(request), id, detail, notice, error);
    return sendPage(
      reply,
      renderPage({ title: `Delivery ${eventId}`, request, body, section: 'webhooks', styles: STYLES }),
      status,
    );
  }
}
