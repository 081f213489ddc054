// The bodies of the webhook pages: list and register, the secret shown once, one webhook with
// its actions, delivery log and chart, and one delivery with its attempts.
import { EVENT_TYPES } from '../../events/event-types.ts';
import type { DeliveryLogRow } from '../../webhooks/management.repository.ts';
import type { DeliverySeries } from '../../webhooks/delivery-chart.ts';
import type { DeliveryDetail } from '../../webhooks/webhook-management.service.ts';
import type { PublicWebhookRow } from '../../webhooks/webhook.repository.ts';
import { attemptErrorKind } from '../../webhooks/delivery/error-kind.ts';
import { html, raw, type SafeHtml } from './core.ts';
import { listTable } from '../list-table.ts';
import type { FormProblem } from './form-validation.ts';
import { jsonForScript, localTime } from './format.ts';

function eventsOf(row: PublicWebhookRow): string[] {
  const events = JSON.parse(row.events) as string[];
  return events.length === 1 && events[0] === '*' ? ['all events'] : events;
}

function webhookStatus(status: PublicWebhookRow['status']): SafeHtml {
  return html`<span class="badge badge-${status === 'active' ? 'ok' : 'ended'}" id="webhook-status"
    >${status === 'active' ? 'Active' : 'Disabled'}</span
  >`;
}

function deliveryStatus(status: DeliveryLogRow['status']): SafeHtml {
  const kind = status === 'succeeded' ? 'ok' : status === 'failed' ? 'failed' : 'scheduled';
  return html`<span class="badge badge-${kind}">${status.charAt(0).toUpperCase()}${status.slice(1)}</span>`;
}

/**
 * Each event's checkbox has a name of its own (`event-stream.started`, `event-all` for `*`):
 * page forms keep one value per name, so the list is rebuilt from the boxes that are ticked.
 */
export function eventFieldName(event: string): string {
  return event === '*' ? 'event-all' : `event-${event}`;
}

export const EVENT_CHOICES = ['*', ...EVENT_TYPES] as const;

export interface WebhookFormValues {
  url: string;
  events: string[];
}

function fieldError(problem: FormProblem | undefined, name: string): SafeHtml | '' {
  return problem?.field === name
    ? html`<p class="field-error" id="${name}-error">${problem.message}</p>`
    : '';
}

export function webhookListBody(
  csrf: SafeHtml,
  rows: PublicWebhookRow[],
  values: WebhookFormValues,
  problem?: FormProblem,
  notice?: string,
): SafeHtml {
  const choices = EVENT_CHOICES;
  return html`<h1>Webhooks</h1>
    ${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
    <p>Tributary sends a signed HTTPS request to each endpoint when something happens in your account.</p>
    ${listTable({
      id: 'webhook-list',
      columns: ['Endpoint', 'Events', 'Status', 'Created'],
      rows,
      empty: html`<p class="empty">No webhooks yet.</p>`,
      row: (row) =>
        html`<tr>
          <th scope="row"><a href="/dashboard/webhooks/${row.id}">${row.url}</a></th>
          <td data-label="Events" class="wide">${eventsOf(row).join(', ')}</td>
          <td data-label="Status">${row.status === 'active' ? 'Active' : 'Disabled'}</td>
          <td data-label="Created">${localTime(row.created_at)}</td>
        </tr>`,
    })}
    <section class="panel" aria-labelledby="register-heading">
      <h2 id="register-heading">Register a webhook</h2>
      ${problem ? html`<p class="form-error" role="alert" id="form-error">The webhook was not registered: ${problem.message}</p>` : ''}
      <form method="post" action="/dashboard/webhooks" class="form" id="register-webhook" novalidate>
        ${csrf}
        <div class="field">
          <label for="url">Endpoint URL</label>
          <input
            id="url"
            name="url"
            type="url"
            required
            placeholder="https://example.com/hooks/tributary"
            value="${values.url}"
            ${problem?.field === 'url' ? raw(' aria-invalid="true" aria-describedby="url-error"') : ''}
          />
          ${fieldError(problem, 'url')}
        </div>
        <fieldset class="field" ${problem?.field === 'events' ? raw(' aria-describedby="events-error"') : ''}>
          <legend>Events</legend>
          ${choices.map(
            (event) =>
              html`<label class="inline"
                ><input
                  type="checkbox"
                  name="${eventFieldName(event)}"
                  value="on"
                  ${values.events.includes(event) ? raw(' checked') : ''}
                />
                ${event === '*' ? 'All events, including future ones' : event}</label
              >`,
          )}
          ${fieldError(problem, 'events')}
        </fieldset>
        <div class="actions"><button type="submit" class="primary">Register webhook</button></div>
      </form>
    </section>`;
}

export function secretOnceBody(row: PublicWebhookRow, secret: string, heading: string): SafeHtml {
  return html`<p class="crumbs"><a href="/dashboard/webhooks">Webhooks</a></p>
    <h1>${heading}</h1>
    <p class="notice" role="status">
      Copy the signing secret now: it is shown only once. Your endpoint uses it to check each request's
      signature.
    </p>
    <div class="field">
      <label for="webhook-secret">Signing secret for ${row.url}</label>
      <div class="copy-row">
        <input id="webhook-secret" type="text" readonly value="${secret}" />
        <button type="button" class="copy" data-copy="webhook-secret" aria-label="Copy signing secret">
          Copy
        </button>
      </div>
    </div>
    <p id="copy-status" class="hint" role="status" aria-live="polite"></p>
    <p><a class="button primary" href="/dashboard/webhooks/${row.id}">Continue to the webhook</a></p>`;
}

export interface WebhookPageData {
  webhook: PublicWebhookRow;
  deliveries: DeliveryLogRow[];
  series: DeliverySeries;
  notice?: string | undefined;
  error?: string | undefined;
}

export function webhookPageBody(csrf: SafeHtml, data: WebhookPageData): SafeHtml {
  const { webhook } = data;
  const base = `/dashboard/webhooks/${webhook.id}`;
  return html`<p class="crumbs"><a href="/dashboard/webhooks">Webhooks</a></p>
    <div class="page-head">
      <h1 class="url-heading">${webhook.url}</h1>
      ${webhookStatus(webhook.status)}
    </div>
    ${data.notice ? html`<p class="notice" role="status">${data.notice}</p>` : ''}
    ${data.error ? html`<p class="form-error" role="alert">${data.error}</p>` : ''}
    <p class="meta">Events: ${eventsOf(webhook).join(', ')}. Registered ${localTime(webhook.created_at)}.</p>
    <div class="button-row">
      <form method="post" action="${base}/test">
        ${csrf}<button type="submit" id="send-test">Send test event</button>
      </form>
      ${webhook.status === 'disabled' ? html`<form method="post" action="${base}/enable">${csrf}<button type="submit" id="enable-webhook">Enable</button></form>` : ''}
      <form
        method="post"
        action="${base}/rotate-secret"
        data-confirm="Rotate this webhook's signing secret? You get a new secret to put in your endpoint; the old one keeps working for 24 hours."
        data-confirm-action="Rotate secret"
      >
        ${csrf}<button type="submit" id="rotate-secret">Rotate secret</button>
      </form>
      <form
        method="post"
        action="${base}/delete"
        data-confirm="Delete the webhook for ${webhook.url}? Nothing more is sent to it, and its delivery log is deleted."
        data-confirm-action="Delete webhook"
      >
        ${csrf}<button type="submit" class="danger" id="delete-webhook">Delete</button>
      </form>
    </div>
    <section class="panel" aria-labelledby="chart-heading">
      <h2 id="chart-heading">Deliveries over the last day</h2>
      <div
        id="delivery-chart"
        class="chart"
        role="img"
        aria-label="Succeeded and failed delivery attempts over time"
      ></div>
      <p class="hint" id="chart-empty" ${data.series.points.length > 0 ? raw(' hidden') : ''}>
        No delivery attempts in the last day.
      </p>
    </section>
    <section class="panel" aria-labelledby="log-heading">
      <h2 id="log-heading">Delivery log</h2>
      ${
        data.deliveries.length === 0
          ? html`<p class="empty">Nothing delivered yet.</p>`
          : html`<div class="table-wrap">
              <table class="list stack" id="delivery-log">
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col">Type</th>
                    <th scope="col">Status</th>
                    <th scope="col" class="num">Attempts</th>
                    <th scope="col">Last attempt</th>
                  </tr>
                </thead>
                <tbody>
                  ${data.deliveries.map(
                    (row) =>
                      html`<tr data-event-type="${row.event_type}" data-status="${row.status}">
                        <th scope="row" class="nowrap">
                          <a href="${base}/deliveries/${row.event_id}">${row.event_id}</a>
                        </th>
                        <td data-label="Type">${row.event_type}</td>
                        <td data-label="Status">${deliveryStatus(row.status)}</td>
                        <td class="num" data-label="Attempts">${row.attempt_count}</td>
                        <td data-label="Last attempt">${localTime(row.last_attempt_at)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }
      <p><a href="${base}">Refresh</a></p>
    </section>
    <script id="delivery-data" type="application/json">
      ${raw(jsonForScript(data.series))}
    </script>`;
}

export function deliveryPageBody(
  csrf: SafeHtml,
  webhookId: string,
  detail: DeliveryDetail,
  notice?: string,
  error?: string,
): SafeHtml {
  const { delivery, attempts } = detail;
  const base = `/dashboard/webhooks/${webhookId}`;
  return html`<p class="crumbs"><a href="/dashboard/webhooks">Webhooks</a> / <a href="${base}">Webhook</a></p>
    <h1>${delivery.event_type} <span class="mono">${delivery.event_id}</span></h1>
    ${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
    ${error ? html`<p class="form-error" role="alert">${error}</p>` : ''}
    <p class="meta">
      Status: ${deliveryStatus(delivery.status)} after ${delivery.attempt_count}
      attempt${delivery.attempt_count === 1 ? '' : 's'}. Created ${localTime(delivery.created_at)}.
    </p>
    <form method="post" action="${base}/deliveries/${delivery.event_id}/resend">
      ${csrf}<button type="submit" id="resend">Resend now</button>
    </form>
    ${
      attempts.length === 0
        ? html`<p class="empty">No attempt yet.</p>`
        : html`<div class="table-wrap">
            <table class="list stack" id="attempts">
              <thead>
                <tr>
                  <th scope="col">Attempt</th>
                  <th scope="col">Started</th>
                  <th scope="col" class="num">Duration</th>
                  <th scope="col">Answer</th>
                  <th scope="col">Response</th>
                </tr>
              </thead>
              <tbody>
                ${attempts.map(
                  (a) =>
                    html`<tr>
                      <th scope="row" data-label="Attempt">${a.attempt_number}</th>
                      <td data-label="Started">${localTime(a.started_at)}</td>
                      <td class="num" data-label="Duration">${a.latency_ms} ms</td>
                      <td data-label="Answer">
                        ${a.status_code ?? (a.error === null ? '—' : attemptErrorKind(a.error))}
                      </td>
                      <td class="excerpt wide" data-label="Response">${a.response_excerpt ?? ''}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }`;
}
