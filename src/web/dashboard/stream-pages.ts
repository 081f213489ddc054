// The bodies of the creator's stream pages: the list, the new-stream form and one stream's page.
import type { IngestHealth } from '../../streams/ingest-health.schemas.ts';
import type { StreamListRow } from '../../streams/stream.repository.ts';
import type { StreamRow } from '../../streams/stream.table.ts';
import type { ViewerSample } from '../../streams/viewer-samples.ts';
import { html, raw, type SafeHtml } from './core.ts';
import { listTable } from '../list-table.ts';
import {
  categorySelect,
  describedBy,
  LATENCY_VALUES,
  problemFor,
  radioGroup,
  REALTIME_CHOICE,
  titleAndDescription,
} from './form-fields.ts';
import type { FormProblem } from './form-validation.ts';
import { categoryLabel, jsonForScript, localTime } from './format.ts';
import { healthPanelContent } from './health-pages.ts';

type StatusOf = Pick<StreamRow, 'status' | 'scheduled_at'>;

/** What a stream is waiting for, or doing: a stream with no start time is in standby, not "scheduled". */
export function statusLabel(stream: StatusOf): string {
  if (stream.status === 'scheduled') return stream.scheduled_at === null ? 'Standby' : 'Scheduled';
  return stream.status === 'live' ? 'Live' : 'Ended';
}

export function statusBadge(stream: StatusOf, id?: string): SafeHtml {
  return html`<span class="badge badge-${stream.status}" ${id ? raw(`id="${id}"`) : ''}
    >${statusLabel(stream)}</span
  >`;
}

function standbyOrScheduled(stream: StatusOf): SafeHtml | '' {
  if (stream.status !== 'scheduled') return '';
  return stream.scheduled_at === null
    ? html`<span id="standby-note">Standby: goes live when you start streaming. </span>`
    : html`<span id="standby-note">Starts ${localTime(stream.scheduled_at)}. </span>`;
}

/** A line under the list's title that points at the one key that works for every broadcast. */
function channelKeyTip(): SafeHtml {
  return html`<p class="tip" id="channel-key-tip">
    Going live often? Your <a href="/dashboard/ingest">channel key</a> stays in your streaming software and
    starts your next stream each time; a stream's own key stops working once it has ended.
  </p>`;
}

export function streamListBody(rows: StreamListRow[], nextCursor: string | null): SafeHtml {
  const streamRow = (row: StreamListRow) =>
    html`<tr>
      <th scope="row"><a href="/dashboard/streams/${row.id}">${row.title}</a></th>
      <td data-label="Status">${statusBadge(row)}</td>
      <td class="num" data-label="Viewers">${row.status === 'live' ? (row.viewer_count ?? 0) : '—'}</td>
      <td data-label="Category">${categoryLabel(row.category)}</td>
      <td data-label="Privacy">${row.privacy === 'private' ? 'Unlisted' : 'Public'}</td>
      <td data-label="Created">${localTime(row.created_at)}</td>
    </tr>`;
  return html`<div class="page-head">
      <h1>Streams</h1>
      <a class="button primary" href="/dashboard/streams/new">New stream</a>
    </div>
    ${channelKeyTip()}
    ${listTable({
      id: 'stream-list',
      columns: ['Title', 'Status', { label: 'Viewers', numeric: true }, 'Category', 'Privacy', 'Created'],
      rows,
      empty: html`<p class="empty">
        No streams yet. Create one, or start streaming with your
        <a href="/dashboard/ingest">channel key</a>
        and one is created for you.
      </p>`,
      row: streamRow,
    })}
    ${nextCursor ? html`<p><a href="/dashboard/streams?cursor=${encodeURIComponent(nextCursor)}">Older streams</a></p>` : ''}`;
}

export interface StreamFormValues {
  title: string;
  description: string;
  scheduled_at: string;
  category: string;
  privacy: string;
  record: boolean;
  latency_mode: string;
}

export const EMPTY_STREAM_FORM: StreamFormValues = {
  title: '',
  description: '',
  scheduled_at: '',
  category: 'talk',
  privacy: 'public',
  record: true,
  latency_mode: 'normal',
};

export function newStreamBody(csrf: SafeHtml, values: StreamFormValues, problem?: FormProblem): SafeHtml {
  return html`<h1>New stream</h1>
    ${problem ? html`<p class="form-error" role="alert" id="form-error">The stream was not created: ${problem.message}</p>` : ''}
    <form method="post" action="/dashboard/streams" class="form" id="new-stream" novalidate>
      ${csrf}
      <input type="hidden" name="tz_offset" id="tz_offset" value="0" />
      ${titleAndDescription(values, problem)}
      <div class="field">
        <label for="scheduled_at"
          >Scheduled start <span class="optional">(optional, your local time)</span></label
        >
        <input
          id="scheduled_at"
          name="scheduled_at"
          type="datetime-local"
          value="${values.scheduled_at}"
          ${describedBy(problem, 'scheduled_at', 'scheduled-hint')}
        />
        <p class="hint" id="scheduled-hint">
          Leave empty for standby: the stream goes live whenever you start streaming.
        </p>
        ${problemFor(problem, 'scheduled_at')}
      </div>
      ${categorySelect(values.category, problem)}
      ${radioGroup('Privacy', 'privacy', values.privacy, problem, [
        ['public', 'Public: listed on your channel and the home page'],
        ['private', 'Unlisted: only people with the link'],
      ])}
      ${radioGroup(
        'Latency',
        'latency_mode',
        LATENCY_VALUES.has(values.latency_mode) ? values.latency_mode : 'normal',
        problem,
        [
          ['normal', 'Normal: about 4 to 6 seconds behind live, the most robust'],
          ['low', "Low: about 2 to 3 seconds behind live; set your encoder's keyframe interval to 1 s"],
          ['realtime', REALTIME_CHOICE],
        ],
      )}
      <div class="field">
        <label class="inline"
          ><input
            type="checkbox"
            id="record"
            name="record"
            value="on"
            ${values.record ? raw(' checked') : ''}
          />
          Keep the recording as a video when the stream ends</label
        >
        ${problemFor(problem, 'record')}
      </div>
      <div class="actions">
        <button type="submit" class="primary">Create stream</button> <a href="/dashboard/streams">Cancel</a>
      </div>
    </form>`;
}

export interface StreamPageData {
  stream: StreamRow;
  rtmpUrl: string;
  /** Shown only when the creator asked to reveal it (or just reset it). */
  streamKey: string | undefined;
  keyAvailable: boolean;
  playbackPath: string | null;
  watchPath: string;
  samples: ViewerSample[];
  /** What the ingest measures of the encoder (the API's `ingest.health`), while it handles the stream. */
  health: IngestHealth | null;
  notice?: string | undefined;
  /** The stream's simulcast destinations (simulcast-pages.ts); not shown once it has ended. */
  simulcast?: SafeHtml | undefined;
  /** The chat panel (stream-chat-pages.ts). */
  chat?: SafeHtml | undefined;
}

/** Where to enter the stream's key, with Reveal, Copy and Reset: only while the key can still go live. */
function ingestSettings(csrf: SafeHtml, data: StreamPageData): SafeHtml {
  const { stream } = data;
  const id = stream.id;
  return html`<section aria-labelledby="ingest-heading" class="panel" id="ingest-settings">
    <h2 id="ingest-heading">Ingest settings</h2>
    <p class="hint">Enter these in OBS (Settings, Stream, Service: Custom) or any RTMP encoder.</p>
    <p class="hint" id="keyframe-hint">
      ${
        stream.latency_mode === 'realtime'
          ? 'Realtime: set the keyframe interval to 1 s (Settings, Output, Keyframe Interval) and, in the x264 options, bframes=0 (or Max B-frames 0 with a hardware encoder); with B-frames the server re-encodes the WebRTC picture.'
          : stream.latency_mode === 'low'
            ? 'Low latency: set the keyframe interval to 1 s (Settings, Output, Keyframe Interval).'
            : 'Set the keyframe interval to 2 s (Settings, Output, Keyframe Interval).'
      }
    </p>
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
          href="/dashboard/streams/${id}?reveal=key"
          data-stream-key-url="/dashboard/streams/${id}/stream-key"
          >${data.streamKey === undefined ? 'Reveal' : 'Revealed'}</a
        >
        <button type="button" class="copy" data-copy="stream-key" aria-label="Copy stream key">Copy</button>
      </div>
      <p class="hint" id="key-hint">
        ${data.keyAvailable ? 'Anyone with this key can stream as you. Keep it secret.' : 'This key can no longer be read; reset it to get a new one.'}
        This key works for this stream only; your <a href="/dashboard/ingest">channel key</a> works for every
        broadcast.
      </p>
    </div>
    <form
      method="post"
      action="/dashboard/streams/${id}/reset-key"
      class="inline-form"
      data-confirm="Reset this stream's key? The old key stops working for new connections at once; you will need to enter the new one in your streaming software."
      data-confirm-action="Reset key"
    >
      ${csrf}
      <button type="submit" class="danger" id="reset-key">Reset stream key</button>
      <span class="hint">The old key stops working for new connections at once.</span>
    </form>
    <p id="copy-status" class="hint" role="status" aria-live="polite"></p>
  </section>`;
}

/** In place of the ingest settings once the stream has ended: its key is refused from then on. */
function afterTheStream(stream: StreamRow): SafeHtml {
  return html`<section aria-labelledby="ended-heading" class="panel" id="ended-panel">
    <h2 id="ended-heading">This stream has ended</h2>
    <p>An ended stream cannot go live again: its stream key is refused from now on.</p>
    <p>
      To go live again, start streaming with your <a href="/dashboard/ingest">channel key</a>, or
      <a href="/dashboard/streams/new">create a new stream</a>.
    </p>
    ${
      stream.record === 1
        ? html`<p>The recording becomes a video: find it under <a href="/dashboard/videos">Videos</a>.</p>`
        : html`<p class="hint">This stream was not recorded.</p>`
    }
  </section>`;
}

/** The encoder health panel: shown while the stream is live, its content pushed as it changes. */
function healthPanel(stream: StreamRow, health: IngestHealth | null): SafeHtml | '' {
  if (stream.status === 'ended') return '';
  return html`<section
    aria-labelledby="health-heading"
    class="panel"
    id="ingest-health"
    ${stream.status === 'live' ? '' : raw('hidden')}
  >
    <h2 id="health-heading">Encoder health</h2>
    <div id="ingest-health-body">${healthPanelContent(health)}</div>
    <p id="health-announce" class="visually-hidden" role="status"></p>
  </section>`;
}

export function streamPageBody(csrf: SafeHtml, data: StreamPageData): SafeHtml {
  const { stream } = data;
  const id = stream.id;
  const ended = stream.status === 'ended';
  const viewers =
    stream.status === 'live'
      ? `${stream.viewer_count ?? 0} watching`
      : stream.peak_viewer_count !== null
        ? `peak ${stream.peak_viewer_count}`
        : '';
  const chartData = {
    events_url: `/dashboard/streams/${id}/events`,
    playback_url: data.playbackPath,
    key_url: `/dashboard/streams/${id}/stream-key`,
    status: stream.status,
    samples: data.samples.map((s) => [s.at, s.viewerCount]),
  };
  return html`<p class="crumbs"><a href="/dashboard/streams">Streams</a></p>
    <div class="page-head">
      <h1 id="stream-title">${stream.title}</h1>
      <p class="stream-state">
        ${statusBadge(stream, 'stream-status')}
        <span id="viewer-count" aria-live="polite" data-count="${stream.viewer_count ?? ''}">${viewers}</span>
      </p>
    </div>
    ${data.notice ? html`<p class="notice" role="status">${data.notice}</p>` : ''}
    <p class="meta">
      ${standbyOrScheduled(stream)}${stream.started_at !== null ? html`Started ${localTime(stream.started_at)}. ` : ''}${stream.ended_at !== null ? html`Ended ${localTime(stream.ended_at)}. ` : ''}
      <a href="${data.watchPath}">Public watch page</a>
    </p>
    <div class="button-row" id="stream-actions">
      <a class="button" id="edit-stream" href="/dashboard/streams/${id}/edit">Edit details</a>
      ${
        ended
          ? ''
          : html`<a class="button" id="go-live-browser" href="/dashboard/streams/${id}/go-live"
              >Go live from the browser</a
            >`
      }
      <a
        class="button danger"
        id="end-stream"
        href="/dashboard/streams/${id}/end"
        ${stream.status === 'live' ? '' : raw('hidden')}
        >End stream</a
      >
    </div>
    ${healthPanel(stream, data.health)}
    <div class="stream-grid">
      <section aria-labelledby="preview-heading" class="panel">
        <h2 id="preview-heading">${ended ? 'Replay' : 'Preview'}</h2>
        <div class="player">
          <video
            id="preview"
            controls
            muted
            playsinline
            aria-label="${ended ? 'Replay' : 'Live preview'}"
          ></video>
          <p id="preview-note" class="hint">
            ${stream.status === 'scheduled' ? 'The preview starts when your stream goes live.' : ''}
          </p>
        </div>
      </section>
      ${ended ? afterTheStream(stream) : ingestSettings(csrf, data)}
    </div>
    ${ended ? '' : (data.simulcast ?? '')} ${data.chat ?? ''}
    <section aria-labelledby="chart-heading" class="panel">
      <h2 id="chart-heading">Viewers over time</h2>
      <div id="viewer-chart" class="chart" role="img" aria-label="Viewer count over time"></div>
      <p id="chart-empty" class="hint" ${data.samples.length > 0 ? raw(' hidden') : ''}>
        ${stream.status === 'scheduled' ? 'The chart fills in once the stream is live.' : 'No viewer samples were recorded for this stream.'}
      </p>
    </section>
    <script id="stream-data" type="application/json">
      ${raw(jsonForScript(chartData))}
    </script>`;
}
