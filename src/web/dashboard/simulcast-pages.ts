// The dashboard's simulcast pieces: the destinations table (a stream's, on its page, and the
// channel defaults, on the channel page) with enable/disable and remove, the form that adds a
// destination, and the channel page itself (its ingest settings and the defaults). The key is
// never in a page: only its hint.
import type { NextStreamPreview } from '../../channels/next-stream.ts';
import type { SimulcastState, SimulcastTargetRow } from '../../simulcast/simulcast-target.table.ts';
import { MAX_TARGETS } from '../../simulcast/simulcast.schemas.ts';
import { html, raw, type SafeHtml } from './core.ts';
import { describedBy, problemFor } from './form-fields.ts';
import type { FormProblem } from './form-validation.ts';
import { localTime } from './format.ts';
import { listTable } from '../list-table.ts';

const STATE_LABELS: Record<SimulcastState, string> = {
  idle: 'Not started',
  connecting: 'Connecting',
  live: 'Live',
  failing: 'Failing',
  stopped: 'Stopped',
};
const STATE_BADGES: Record<SimulcastState, string> = {
  idle: 'ended',
  connecting: 'scheduled',
  live: 'live',
  failing: 'failed',
  stopped: 'ended',
};

export interface SimulcastFormValues {
  name: string;
  url: string;
  enabled: boolean;
}

export const EMPTY_SIMULCAST_FORM: SimulcastFormValues = { name: '', url: '', enabled: true };

function labelOf(target: SimulcastTargetRow): string {
  if (target.name !== null) return target.name;
  try {
    return new URL(target.url).hostname;
  } catch {
    return target.url;
  }
}

/**
 * The destinations table. `base` is where its forms post (`/dashboard/streams/{id}/simulcast`
 * or `/dashboard/ingest/simulcast`); `intro` says what the list is.
 */
export function simulcastSection(
  csrf: SafeHtml,
  targets: SimulcastTargetRow[],
  base: string,
  intro: string,
): SafeHtml {
  const full = targets.length >= MAX_TARGETS;
  const targetRow = (target: SimulcastTargetRow) => {
    const label = labelOf(target);
    const on = target.enabled === 1;
    return html`<tr data-target-id="${target.id}">
      <th scope="row">${label}</th>
      <td class="mono" data-label="Server URL">${target.url}</td>
      <td class="mono nowrap" data-label="Key">
        ${target.key_hint === '' ? '••••' : `••••${target.key_hint}`}
      </td>
      <td data-label="State">
        <span class="badge badge-${STATE_BADGES[target.state]}">${STATE_LABELS[target.state]}</span>
        ${target.state_reason === null ? '' : html`<p class="hint state-reason">${target.state_reason}</p>`}
        <p class="hint">since ${localTime(target.state_changed_at)}</p>
      </td>
      <td data-label="Sending">${on ? 'On' : 'Off'}</td>
      <td>
        <div class="button-row tight">
          <form method="post" action="${base}/${target.id}/toggle">
            ${csrf}<input type="hidden" name="enabled" value="${on ? 'false' : 'true'}" />
            <button type="submit" aria-label="${on ? 'Disable' : 'Enable'} ${label}">
              ${on ? 'Disable' : 'Enable'}
            </button>
          </form>
          <form
            method="post"
            action="${base}/${target.id}/delete"
            data-confirm="Remove the destination ${label}? ${target.stream_id === null ? 'New streams no longer start with it.' : 'The stream is no longer sent there.'}"
            data-confirm-action="Remove"
          >
            ${csrf}<button type="submit" class="danger" aria-label="Remove ${label}">Remove</button>
          </form>
        </div>
      </td>
    </tr>`;
  };
  return html`<section aria-labelledby="simulcast-heading" class="panel" id="simulcast">
    <div class="page-head">
      <h2 id="simulcast-heading">Simulcast</h2>
      ${
        full
          ? html`<span class="hint">${MAX_TARGETS} of ${MAX_TARGETS} destinations</span>`
          : html`<a class="button" id="add-destination" href="${base}/new">Add destination</a>`
      }
    </div>
    <p class="hint">${intro}</p>
    ${listTable({
      id: 'simulcast-targets',
      className: 'simulcast',
      columns: [
        'Destination',
        'Server URL',
        'Key',
        'State',
        'Sending',
        html`<span class="visually-hidden">Actions</span>`,
      ],
      rows: targets,
      empty: html`<p class="empty" id="simulcast-empty">No destinations yet.</p>`,
      row: targetRow,
    })}
  </section>`;
}

/** The form that adds a destination, at `action`; `back` is where Cancel goes. */
export function simulcastFormBody(
  csrf: SafeHtml,
  context: { crumbs: SafeHtml; heading: string; action: string; back: string; note: string },
  values: SimulcastFormValues,
  problem?: FormProblem,
): SafeHtml {
  return html`${context.crumbs}
    <h1>${context.heading}</h1>
    ${problem ? html`<p class="form-error" role="alert" id="form-error">Nothing was added: ${problem.message}</p>` : ''}
    <p class="hint">${context.note}</p>
    <form method="post" action="${context.action}" class="form" id="add-simulcast" novalidate>
      ${csrf}
      <div class="field">
        <label for="name">Name <span class="optional">(optional)</span></label>
        <input
          id="name"
          name="name"
          type="text"
          maxlength="100"
          value="${values.name}"
          placeholder="YouTube"
          ${describedBy(problem, 'name')}
        />
        ${problemFor(problem, 'name')}
      </div>
      <div class="field">
        <label for="url">Server URL</label>
        <input
          id="url"
          name="url"
          type="text"
          inputmode="url"
          maxlength="1024"
          required
          autocomplete="off"
          spellcheck="false"
          value="${values.url}"
          placeholder="rtmp://a.rtmp.youtube.com/live2"
          ${describedBy(problem, 'url', 'url-hint')}
        />
        <p class="hint" id="url-hint">
          The platform's RTMP or RTMPS server, without the key. YouTube: rtmp://a.rtmp.youtube.com/live2 ·
          Twitch: rtmp://live.twitch.tv/app · Facebook: rtmps://live-api-s.facebook.com:443/rtmp/
        </p>
        ${problemFor(problem, 'url')}
      </div>
      <div class="field">
        <label for="stream_key">Stream key</label>
        <input
          id="stream_key"
          name="stream_key"
          type="password"
          maxlength="512"
          required
          autocomplete="off"
          spellcheck="false"
          ${describedBy(problem, 'stream_key', 'key-hint')}
        />
        <p class="hint" id="key-hint">Kept encrypted; it is never shown again (only its last characters).</p>
        ${problemFor(problem, 'stream_key')}
      </div>
      <div class="field">
        <label class="inline"
          ><input type="checkbox" name="enabled" ${values.enabled ? raw(' checked') : ''} /> Send the stream
          there</label
        >
      </div>
      <div class="actions">
        <button type="submit" class="primary" id="save-destination">Add destination</button>
        <a href="${context.back}">Cancel</a>
      </div>
    </form>`;
}

export interface ChannelPageData {
  rtmpUrl: string;
  /** Shown only when asked to reveal it (or just reset). */
  streamKey: string | undefined;
  defaults: SimulcastTargetRow[];
  /** The stream a broadcast with the channel key would go live on now. */
  next: NextStreamPreview;
  notice?: string | undefined;
}

/** Which stream the next broadcast goes live on, in a sentence, with a link to it. */
function nextStreamNote(next: NextStreamPreview): SafeHtml {
  if (next.reason === 'new') {
    return html`<p id="next-stream" class="next-stream">
      <strong>Next broadcast:</strong> you have no stream waiting, so going live creates a new public stream
      titled <q>${next.title}</q> (with the time you start). To choose its title, category or privacy first,
      <a href="/dashboard/streams/new">create a stream</a> without a scheduled start.
    </p>`;
  }
  const { stream } = next;
  const link = html`<a href="/dashboard/streams/${stream.id}">${stream.title}</a>`;
  if (next.reason === 'live') {
    return html`<p id="next-stream" class="next-stream">
      <strong>Live now</strong> on ${link}. If your encoder reconnects with this key, that stream goes on.
    </p>`;
  }
  const why =
    next.reason === 'scheduled'
      ? html`scheduled for ${localTime(stream.scheduled_at)}`
      : html`in standby, with no scheduled start`;
  return html`<p id="next-stream" class="next-stream">
    <strong>Next broadcast</strong> goes live on ${link} (${why}).
  </p>`;
}

/** The channel page: the channel stream key's ingest settings and the simulcast defaults. */
export function channelPageBody(csrf: SafeHtml, data: ChannelPageData): SafeHtml {
  return html`<div class="page-head"><h1>Channel</h1></div>
    ${data.notice ? html`<p class="notice" role="status">${data.notice}</p>` : ''}
    <section aria-labelledby="ingest-heading" class="panel">
      <h2 id="ingest-heading">Go live with your channel key</h2>
      <p class="hint">
        One key for all your broadcasts: enter it once in OBS (Settings, Stream, Service: Custom) or any RTMP
        encoder. Each time you start streaming it goes live on your next stream: a scheduled one near its
        start time, else the newest one in standby, else a new one.
      </p>
      ${nextStreamNote(data.next)}
      <div class="field">
        <label for="server-url">Server URL</label>
        <div class="copy-row">
          <input id="server-url" type="text" readonly value="${data.rtmpUrl}" />
          <button type="button" class="copy" data-copy="server-url" aria-label="Copy server URL">Copy</button>
        </div>
      </div>
      <div class="field">
        <label for="stream-key">Stream key</label>
        <div class="copy-row">
          <input
            id="stream-key"
            type="${data.streamKey === undefined ? 'password' : 'text'}"
            readonly
            value="${data.streamKey ?? ''}"
            placeholder="${data.streamKey === undefined ? 'Hidden' : ''}"
            aria-describedby="key-hint"
          />
          <a
            class="button"
            id="reveal-key"
            href="/dashboard/ingest?reveal=key"
            data-stream-key-url="/dashboard/ingest/stream-key"
            >${data.streamKey === undefined ? 'Reveal' : 'Revealed'}</a
          >
          <button type="button" class="copy" data-copy="stream-key" aria-label="Copy stream key">Copy</button>
        </div>
        <p class="hint" id="key-hint">Anyone with this key can stream as you. Keep it secret.</p>
      </div>
      <form
        method="post"
        action="/dashboard/ingest/reset-key"
        class="inline-form"
        data-confirm="Reset your channel key? The old key stops working for new connections at once; you will need to enter the new one in your streaming software."
        data-confirm-action="Reset key"
      >
        ${csrf}
        <button type="submit" class="danger" id="reset-key">Reset channel key</button>
        <span class="hint">The old key stops working for new connections at once.</span>
      </form>
      <p id="copy-status" class="hint" role="status" aria-live="polite"></p>
    </section>
    ${simulcastSection(
      csrf,
      data.defaults,
      '/dashboard/ingest/simulcast',
      `Defaults: every stream you create from now on starts with a copy of these destinations (up to ${MAX_TARGETS}). Streams you already have keep their own; change those on each stream's page.`,
    )}`;
}
