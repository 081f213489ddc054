// The API keys settings page: the new key (shown once), the form that makes one, and the list.
import type { FastifyRequest } from 'fastify';
import type { CreatedKey } from '../../accounts/account.service.ts';
import type { KeyListing } from '../../accounts/key-usage.repository.ts';
import { localTime } from '../format.ts';
import { html, type SafeHtml } from '../html.ts';
import { renderPage } from '../layout.ts';
import { csrfField } from '../session/csrf.ts';

function time(ms: number | null, empty: string): SafeHtml {
  return ms === null ? html`<span class="muted">${empty}</span>` : localTime(ms);
}

function keyRow(request: FastifyRequest, key: KeyListing): SafeHtml {
  const revoked = key.revoked_at !== null;
  return html`<tr${revoked ? html` class="revoked"` : undefined}>
<th scope="row"><code>…${key.token_hint}</code><span class="sub"><code>${key.id}</code></span></th>
<td data-label="Scope"><span class="badge badge-${key.scope}">${key.scope}</span></td>
<td data-label="Created">${time(key.created_at, '')}</td>
<td data-label="Last used">${time(key.last_used_at, 'never')}</td>
<td>${
    revoked
      ? html`<span class="muted">revoked ${time(key.revoked_at, '')}</span>`
      : html`<form
          method="post"
          action="/dashboard/keys/${key.id}/revoke"
          class="inline-form"
          data-confirm="Revoke the key ending in ${key.token_hint}? Programs using it are refused within a second. This cannot be undone."
          data-confirm-action="Revoke key"
        >
          ${csrfField(request)}<button
            type="submit"
            class="button button-small danger"
            aria-label="Revoke key ending in ${key.token_hint}"
          >
            Revoke
          </button>
        </form>`
  }</td>
</tr>`;
}

export function keysPage(
  request: FastifyRequest,
  keys: KeyListing[],
  notice?: { created?: CreatedKey | undefined; revoked?: string | undefined },
  unconfirmed?: SafeHtml,
): string {
  const created = notice?.created;
  return renderPage({
    title: 'API keys',
    request,
    section: 'keys',
    body: html`<h1>API keys</h1>
      ${unconfirmed}
      <p class="lead">
        Keys let your programs call the <a href="/v1/openapi.json">Tributary API</a> as you: send one as
        <code>Authorization: Bearer &lt;key&gt;</code>. A <strong>read</strong> key can only read; a
        <strong>write</strong> key can also create, change and delete.
      </p>
      ${
        created &&
        html`<section class="panel panel-highlight" aria-labelledby="new-key-title">
          <h2 id="new-key-title">Your new ${created.scope} key</h2>
          <p>
            Copy it now: it is shown only this once. Only its last four characters are kept to tell it apart.
          </p>
          <div class="copy-row">
            <label for="new-key" class="visually-hidden">New API key</label
            ><input id="new-key" class="secret" type="text" readonly value="${created.key}" /><button
              type="button"
              class="button"
              data-copy="new-key"
            >
              Copy
            </button>
          </div>
        </section>`
      }
      ${notice?.revoked && html`<div class="alert alert-success" role="status">Key <code>${notice.revoked}</code> is revoked: the API refuses it within a second.</div>`}
      <section class="panel">
        <h2>Create a key</h2>
        <form method="post" action="/dashboard/keys" class="inline-fields">
          ${csrfField(request)}
          <label for="scope">Scope</label>
          <select id="scope" name="scope">
            <option value="read">read — list and view</option>
            <option value="write">write — also create, change, delete</option>
          </select>
          <button type="submit" class="button primary">Create key</button>
        </form>
      </section>
      <section class="panel">
        <h2>Your keys</h2>
        ${
          keys.length === 0
            ? html`<p class="muted">No keys yet.</p>`
            : html`<div class="table-wrap">
                  <table class="data-table stack" id="key-list">
                    <thead>
                      <tr>
                        <th scope="col">Key</th>
                        <th scope="col">Scope</th>
                        <th scope="col">Created</th>
                        <th scope="col">Last used</th>
                        <th scope="col"><span class="visually-hidden">Actions</span></th>
                      </tr>
                    </thead>
                    <tbody>
                      ${keys.map((key) => keyRow(request, key))}
                    </tbody>
                  </table>
                </div>
                <p class="muted small">"Last used" is updated about once a minute.</p>`
        }
      </section>`,
  });
}
