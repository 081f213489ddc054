// The admin area's page bodies: reports, users, streams and videos, the audit log, and the
// forms that act on each (a reason is always asked for: it goes to the audit log and to the
// creator). Templates only: what to show comes from admin.routes.ts.
import type { ContentItem, ReportListing, UserStanding } from '../../moderation/moderation.repository.ts';
import type { AuditRow, ReportRow, ReportStatus } from '../../moderation/moderation.table.ts';
import { REASON_MAX_LENGTH } from '../../moderation/moderation.service.ts';
import { localTime } from '../format.ts';
import { html, type SafeHtml } from '../html.ts';
import { listTable } from '../list-table.ts';

export const ADMIN_LINKS = [
  { href: '/admin/reports', label: 'Reports' },
  { href: '/admin/users', label: 'Users' },
  { href: '/admin/streams', label: 'Streams' },
  { href: '/admin/videos', label: 'Videos' },
  { href: '/admin/audit', label: 'Audit log' },
] as const;

export function adminNav(currentHref: string): SafeHtml {
  return html`<nav class="section-nav admin-nav" aria-label="Admin">
    <ul>
      ${ADMIN_LINKS.map(
        (link) =>
          html`<li>
            <a href="${link.href}" ${link.href === currentHref ? html`aria-current="page"` : ''}
              >${link.label}</a
            >
          </li>`,
      )}
    </ul>
  </nav>`;
}

function notice(text: string | undefined): SafeHtml | '' {
  return text ? html`<p class="notice" role="status" id="admin-notice">${text}</p>` : '';
}

function problemLine(text: string | undefined): SafeHtml | '' {
  return text ? html`<p class="form-error" role="alert" id="form-error">${text}</p>` : '';
}

/** A form that takes a reason and does one thing; the page around it is the confirmation. */
export function reasonForm(options: {
  csrf: SafeHtml;
  action: string;
  id: string;
  label: string;
  button: string;
  danger: boolean;
}): SafeHtml {
  const field = `${options.id}-reason`;
  return html`<form method="post" action="${options.action}" class="form" id="${options.id}">
    ${options.csrf}
    <div class="field">
      <label for="${field}">${options.label}</label>
      <textarea id="${field}" name="reason" rows="3" maxlength="${REASON_MAX_LENGTH}" required></textarea>
    </div>
    <div class="actions">
      <button type="submit" class="${options.danger ? 'danger' : 'primary'}" id="${options.id}-submit">
        ${options.button}
      </button>
    </div>
  </form>`;
}

function targetLink(kind: string, id: string): SafeHtml {
  if (kind === 'channel' || kind === 'user') return html`<a href="/admin/users/${id}">${id}</a>`;
  if (kind === 'stream') return html`<a href="/admin/streams/${id}">${id}</a>`;
  if (kind === 'video') return html`<a href="/admin/videos/${id}">${id}</a>`;
  if (kind === 'report') return html`<a href="/admin/reports/${id}">${id}</a>`;
  return html`${id}`;
}

const STATUS_TABS: { status: ReportStatus; label: string }[] = [
  { status: 'open', label: 'Open' },
  { status: 'actioned', label: 'Acted on' },
  { status: 'dismissed', label: 'Dismissed' },
];

export function reportsBody(status: ReportStatus, rows: ReportListing[], done?: string): SafeHtml {
  return html`${adminNav('/admin/reports')}
    <h1>Reports</h1>
    ${notice(done)}
    <p class="button-row" role="list">
      ${STATUS_TABS.map(
        (tab) =>
          html`<a
            role="listitem"
            class="button button-small ${tab.status === status ? 'primary' : ''}"
            href="/admin/reports?status=${tab.status}"
            ${tab.status === status ? html`aria-current="page"` : ''}
            >${tab.label}</a
          >`,
      )}
    </p>
    ${listTable({
      id: 'report-list',
      columns: ['Reported', 'Creator', 'Reason', 'By', 'When'],
      rows,
      empty: html`<p class="empty">No ${status === 'open' ? 'open' : status} reports.</p>`,
      row: (row) =>
        html`<tr>
          <th scope="row">
            <a href="/admin/reports/${row.id}">${row.target_kind} ${row.target_id}</a>
          </th>
          <td data-label="Creator">${row.creator_name}</td>
          <td data-label="Reason" class="wide">${row.reason}</td>
          <td data-label="By">${row.reporter_name}</td>
          <td data-label="When">${localTime(row.created_at)}</td>
        </tr>`,
    })}`;
}

export function reportBody(
  csrf: SafeHtml,
  report: ReportRow,
  names: { reporter: string; creator: string },
  problem?: string,
): SafeHtml {
  const act =
    report.target_kind === 'channel'
      ? { label: 'Why suspend this creator? (they are told)', button: `Suspend ${names.creator}` }
      : {
          label: `Why take this ${report.target_kind} down? (the creator is told)`,
          button: `Take the ${report.target_kind} down`,
        };
  return html`${adminNav('/admin/reports')}
    <p class="crumbs"><a href="/admin/reports">Reports</a> / ${report.id}</p>
    <h1>Report of a ${report.target_kind}</h1>
    ${problemLine(problem)}
    <dl class="facts">
      <dt>Reported</dt>
      <dd>${report.target_kind} ${targetLink(report.target_kind, report.target_id)}</dd>
      <dt>Creator</dt>
      <dd><a href="/admin/users/${report.creator_id}">${names.creator}</a></dd>
      <dt>Reason given</dt>
      <dd id="report-reason">${report.reason}</dd>
      <dt>Reported by</dt>
      <dd>${names.reporter}, ${localTime(report.created_at)}</dd>
      <dt>Status</dt>
      <dd id="report-status">
        ${report.status === 'open' ? 'Open' : html`${report.status} (${report.resolution}), ${localTime(report.resolved_at)}`}
      </dd>
    </dl>
    ${
      report.status === 'open'
        ? html`<section class="panel" aria-labelledby="act-heading">
              <h2 id="act-heading">Act on it</h2>
              ${reasonForm({ csrf, action: `/admin/reports/${report.id}/act`, id: 'act', label: act.label, button: act.button, danger: true })}
            </section>
            <section class="panel" aria-labelledby="dismiss-heading">
              <h2 id="dismiss-heading">Dismiss it</h2>
              ${reasonForm({
                csrf,
                action: `/admin/reports/${report.id}/dismiss`,
                id: 'dismiss',
                label: 'Why is nothing done? (for the audit log)',
                button: 'Dismiss the report',
                danger: false,
              })}
            </section>`
        : ''
    }`;
}

function standingLabel(user: UserStanding): string {
  return user.suspended_at === null ? 'Active' : 'Suspended';
}

export function usersBody(query: string, rows: UserStanding[]): SafeHtml {
  return html`${adminNav('/admin/users')}
    <h1>Users</h1>
    <form method="get" action="/admin/users" class="form search-form" role="search">
      <div class="field">
        <label for="q">Name, email or usr_ id</label>
        <input id="q" name="q" type="search" value="${query}" maxlength="200" />
      </div>
      <div class="actions"><button type="submit" id="search-users">Search</button></div>
    </form>
    ${listTable({
      id: 'user-list',
      columns: ['Name', 'Email', 'Role', 'Standing', 'Joined'],
      rows,
      empty: html`<p class="empty">No user matches.</p>`,
      row: (user) =>
        html`<tr>
          <th scope="row"><a href="/admin/users/${user.id}">${user.name}</a></th>
          <td data-label="Email" class="wide">${user.email ?? '—'}</td>
          <td data-label="Role">${user.role}</td>
          <td data-label="Standing">${standingLabel(user)}</td>
          <td data-label="Joined">${localTime(user.created_at)}</td>
        </tr>`,
    })}`;
}

export function userBody(
  csrf: SafeHtml,
  user: UserStanding,
  content: ContentItem[],
  audit: AuditRow[],
  messages: { done?: string | undefined; problem?: string | undefined },
): SafeHtml {
  return html`${adminNav('/admin/users')}
    <p class="crumbs"><a href="/admin/users">Users</a> / ${user.name}</p>
    <h1>${user.name}</h1>
    ${notice(messages.done)} ${problemLine(messages.problem)}
    <dl class="facts">
      <dt>Id</dt>
      <dd><code>${user.id}</code></dd>
      <dt>Email</dt>
      <dd>${user.email ?? '—'}</dd>
      <dt>Role</dt>
      <dd>${user.role}</dd>
      <dt>Standing</dt>
      <dd id="user-standing">
        ${
          user.suspended_at === null
            ? 'Active'
            : html`Suspended ${localTime(user.suspended_at)}: ${user.suspension_reason ?? ''}`
        }
      </dd>
      <dt>Channel</dt>
      <dd><a href="/channels/${user.id}">/channels/${user.id}</a></dd>
    </dl>
    <section class="panel" aria-labelledby="standing-heading">
      <h2 id="standing-heading">${user.suspended_at === null ? 'Suspend' : 'Reinstate'}</h2>
      ${
        user.role === 'operator'
          ? html`<p>
              Operators cannot be suspended; make them a user first with
              <code>tributary users set-role</code>.
            </p>`
          : user.suspended_at === null
            ? html`<p>
                  Suspending ends their sessions and API keys at once, ends their live streams and hides their
                  channel, streams and videos everywhere. They can still sign in to read your reason.
                </p>
                ${reasonForm({ csrf, action: `/admin/users/${user.id}/suspend`, id: 'suspend', label: 'Reason (the user reads it)', button: `Suspend ${user.name}`, danger: true })}`
            : reasonForm({
                csrf,
                action: `/admin/users/${user.id}/reinstate`,
                id: 'reinstate',
                label: 'Reason (for the audit log and the user)',
                button: `Reinstate ${user.name}`,
                danger: false,
              })
      }
    </section>
    <section aria-labelledby="content-heading">
      <h2 id="content-heading">Streams and videos</h2>
      ${contentTable(content, 'user-content')}
    </section>
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">Operator actions on this account</h2>
      ${auditTable(audit)}
    </section>`;
}

function contentTable(rows: ContentItem[], id: string): SafeHtml {
  return listTable({
    id,
    columns: ['Title', 'Creator', 'Status', 'Shown', 'Created'],
    rows,
    empty: html`<p class="empty">Nothing here.</p>`,
    row: (item) =>
      html`<tr>
        <th scope="row"><a href="/admin/${item.kind}s/${item.id}">${item.title}</a></th>
        <td data-label="Creator"><a href="/admin/users/${item.creator_id}">${item.creator_name}</a></td>
        <td data-label="Status">${item.kind} · ${item.status} · ${item.privacy}</td>
        <td data-label="Shown">${item.taken_down_at === null ? 'Yes' : 'Taken down'}</td>
        <td data-label="Created">${localTime(item.created_at)}</td>
      </tr>`,
  });
}

export function contentListBody(
  kind: 'stream' | 'video',
  filter: { query: string; takenDownOnly: boolean },
  rows: ContentItem[],
): SafeHtml {
  const path = `/admin/${kind}s`;
  return html`${adminNav(path)}
    <h1>${kind === 'stream' ? 'Streams' : 'Videos'}</h1>
    <form method="get" action="${path}" class="form search-form" role="search">
      <div class="field">
        <label for="q">Title or id</label>
        <input id="q" name="q" type="search" value="${filter.query}" maxlength="200" />
      </div>
      <div class="field">
        <label class="inline"
          ><input type="checkbox" name="taken_down" value="1" ${filter.takenDownOnly ? 'checked' : ''} />
          Taken down only</label
        >
      </div>
      <div class="actions"><button type="submit" id="search-content">Search</button></div>
    </form>
    ${contentTable(rows, `${kind}-list`)}`;
}

export function contentBody(
  csrf: SafeHtml,
  item: ContentItem,
  audit: AuditRow[],
  messages: { done?: string | undefined; problem?: string | undefined },
): SafeHtml {
  const path = `/admin/${item.kind}s`;
  const watchable = item.kind === 'stream' || item.status === 'published';
  return html`${adminNav(path)}
    <p class="crumbs">
      <a href="${path}">${item.kind === 'stream' ? 'Streams' : 'Videos'}</a> / ${item.title}
    </p>
    <h1>${item.title}</h1>
    ${notice(messages.done)} ${problemLine(messages.problem)}
    <dl class="facts">
      <dt>Id</dt>
      <dd><code>${item.id}</code></dd>
      <dt>Creator</dt>
      <dd><a href="/admin/users/${item.creator_id}">${item.creator_name}</a></dd>
      <dt>Status</dt>
      <dd>${item.status}, ${item.privacy}</dd>
      <dt>Shown</dt>
      <dd id="content-standing">
        ${
          item.taken_down_at === null
            ? 'Yes'
            : html`Taken down ${localTime(item.taken_down_at)}: ${item.takedown_reason ?? ''}`
        }
      </dd>
      ${
        watchable
          ? html`<dt>Watch page</dt>
              <dd><a href="/watch/${item.id}">/watch/${item.id}</a></dd>`
          : ''
      }
    </dl>
    <section class="panel" aria-labelledby="takedown-heading">
      <h2 id="takedown-heading">${item.taken_down_at === null ? 'Take down' : 'Restore'}</h2>
      ${
        item.taken_down_at === null
          ? html`<p>
                Taking it down removes it from every page, list and the API at
                once${item.kind === 'stream' ? ', ends it if it is live and refuses its encoder' : ''}. The
                creator is told why.
              </p>
              ${reasonForm({ csrf, action: `${path}/${item.id}/takedown`, id: 'takedown', label: 'Reason (the creator reads it)', button: `Take this ${item.kind} down`, danger: true })}`
          : reasonForm({
              csrf,
              action: `${path}/${item.id}/restore`,
              id: 'restore',
              label: 'Reason (for the audit log and the creator)',
              button: `Restore this ${item.kind}`,
              danger: false,
            })
      }
    </section>
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">Operator actions on this ${item.kind}</h2>
      ${auditTable(audit)}
    </section>`;
}

export function auditTable(rows: AuditRow[]): SafeHtml {
  return listTable({
    id: 'audit-log',
    columns: ['When', 'Who', 'What', 'On', 'Why'],
    rows,
    empty: html`<p class="empty">No operator actions yet.</p>`,
    row: (row) =>
      html`<tr>
        <th scope="row">${localTime(row.created_at)}</th>
        <td data-label="Who">
          ${row.actor_id === null ? 'CLI' : html`<a href="/admin/users/${row.actor_id}">${row.actor_name}</a>`}
        </td>
        <td data-label="What">${row.action}</td>
        <td data-label="On">${row.target_kind} ${targetLink(row.target_kind, row.target_id)}</td>
        <td data-label="Why" class="wide">${row.reason}</td>
      </tr>`,
  });
}

export function auditBody(rows: AuditRow[], next: string | null): SafeHtml {
  return html`${adminNav('/admin/audit')}
    <h1>Audit log</h1>
    <p>Every operator action, newest first: who did what, to which account or content, and why.</p>
    ${auditTable(rows)}
    ${next === null ? '' : html`<p><a class="button" href="/admin/audit?after=${next}" id="older">Older actions</a></p>`}`;
}

/** What a suspended user sees on every page after signing in. */
export function suspendedBody(csrf: SafeHtml, suspension: { at: number; reason: string }): SafeHtml {
  return html`<section class="panel narrow" aria-labelledby="suspended-heading">
    <h1 id="suspended-heading">Your account is suspended</h1>
    <p>
      An operator suspended this account ${localTime(suspension.at)}. Your channel, streams and videos are not
      shown, your API keys do not work and you cannot go live.
    </p>
    <h2>Reason</h2>
    <p id="suspension-reason">${suspension.reason}</p>
    <form method="post" action="/sign-out" class="button-row">
      ${csrf}<button type="submit" class="primary">Sign out</button>
    </form>
  </section>`;
}

/** A viewer's report form: what is reported, and why. */
export function reportFormBody(
  csrf: SafeHtml,
  target: { kind: 'stream' | 'video' | 'channel'; id: string; title: string; back: string },
  problem?: string,
): SafeHtml {
  return html`<section class="panel narrow" aria-labelledby="report-heading">
    <h1 id="report-heading">Report this ${target.kind}</h1>
    <p>You are reporting <strong>${target.title}</strong>. An operator reads every report.</p>
    ${problemLine(problem)}
    <form method="post" action="/report" class="form" id="report-form">
      ${csrf}
      <input type="hidden" name="kind" value="${target.kind}" />
      <input type="hidden" name="id" value="${target.id}" />
      <div class="field">
        <label for="report-reason">What is wrong with it?</label>
        <textarea
          id="report-reason"
          name="reason"
          rows="4"
          maxlength="${REASON_MAX_LENGTH}"
          required
        ></textarea>
      </div>
      <div class="actions">
        <button type="submit" class="primary" id="send-report">Send the report</button>
        <a href="${target.back}">Cancel</a>
      </div>
    </form>
  </section>`;
}

export function reportSentBody(back: string): SafeHtml {
  return html`<section class="panel narrow">
    <h1>Thank you</h1>
    <p class="notice" role="status" id="report-sent">Your report was sent. An operator will look at it.</p>
    <p><a class="button" href="${back}">Back</a></p>
  </section>`;
}
