// The bodies of a stream's edit form and its end confirmation. What the form offers follows
// what PATCH /v1/streams/{id} allows by status: the start time and latency only before the
// stream has gone live.
import type { StreamRow } from '../../streams/stream.table.ts';
import { html, raw, type SafeHtml } from './core.ts';
import {
  categorySelect,
  describedBy,
  problemFor,
  PRIVACY_CHOICES,
  radioGroup,
  REALTIME_CHOICE,
  titleAndDescription,
} from './form-fields.ts';
import type { FormProblem } from './form-validation.ts';
import { isoTime } from './format.ts';

export interface StreamEditValues {
  title: string;
  description: string;
  category: string;
  privacy: string;
  /** A `datetime-local` value in UTC, or what the creator typed. */
  scheduled_at: string;
  latency_mode: string;
}

/** The form's first values: the stream as it is, its start in UTC (dashboard.js shows it local). */
export function editValuesOf(stream: StreamRow): StreamEditValues {
  return {
    title: stream.title,
    description: stream.description ?? '',
    category: stream.category,
    privacy: stream.privacy,
    scheduled_at: stream.scheduled_at === null ? '' : (isoTime(stream.scheduled_at) ?? '').slice(0, 16),
    latency_mode: stream.latency_mode,
  };
}

export function editStreamBody(
  csrf: SafeHtml,
  stream: StreamRow,
  values: StreamEditValues,
  problem?: FormProblem,
): SafeHtml {
  const base = `/dashboard/streams/${stream.id}`;
  const beforeLive = stream.status === 'scheduled';
  return html`<p class="crumbs">
      <a href="/dashboard/streams">Streams</a> / <a href="${base}">${stream.title}</a>
    </p>
    <h1>Edit stream</h1>
    ${problem ? html`<p class="form-error" role="alert" id="form-error">Nothing was saved: ${problem.message}</p>` : ''}
    <form method="post" action="${base}" class="form" id="edit-stream" novalidate>
      ${csrf} ${titleAndDescription(values, problem)} ${categorySelect(values.category, problem)}
      ${radioGroup('Privacy', 'privacy', values.privacy, problem, PRIVACY_CHOICES)}
      ${
        beforeLive
          ? html`<input type="hidden" name="tz_offset" id="tz_offset" value="0" />
              <div class="field">
                <label for="scheduled_at"
                  >Scheduled start <span class="optional">(optional, your local time)</span></label
                >
                <input
                  id="scheduled_at"
                  name="scheduled_at"
                  type="datetime-local"
                  value="${values.scheduled_at}"
                  ${
                    // The stream's own start, in UTC, for dashboard.js to show in local time; a
                    // form sent back with a problem shows what was typed, already local.
                    stream.scheduled_at === null || problem
                      ? ''
                      : raw(`data-utc="${isoTime(stream.scheduled_at) ?? ''}"`)
                  }
                  ${describedBy(problem, 'scheduled_at', 'scheduled-hint')}
                />
                <p class="hint" id="scheduled-hint">
                  Empty for standby: the stream goes live whenever you start streaming. Shown in UTC when
                  scripts are off.
                </p>
                ${problemFor(problem, 'scheduled_at')}
              </div>
              ${radioGroup('Latency', 'latency_mode', values.latency_mode, problem, [
                ['normal', 'Normal: about 4 to 6 seconds behind live, the most robust'],
                ['low', "Low: about 2 to 3 seconds behind live; set your encoder's keyframe interval to 1 s"],
                ['realtime', REALTIME_CHOICE],
              ])}`
          : html`<p class="hint" id="started-note">
              This stream has ${stream.status === 'live' ? 'gone live' : 'ended'}: its start time and latency
              can no longer change.
            </p>`
      }
      <div class="actions">
        <button type="submit" class="primary" id="save-stream">Save changes</button>
        <a href="${base}">Cancel</a>
      </div>
    </form>`;
}

export function endStreamBody(csrf: SafeHtml, stream: StreamRow, problem?: string): SafeHtml {
  const base = `/dashboard/streams/${stream.id}`;
  return html`<p class="crumbs">
      <a href="/dashboard/streams">Streams</a> / <a href="${base}">${stream.title}</a>
    </p>
    <h1>End this stream?</h1>
    ${problem ? html`<p class="form-error" role="alert" id="form-error">${problem}</p>` : ''}
    <p>
      Ending <strong>${stream.title}</strong> disconnects your streaming software and stops the stream for
      every viewer. An ended stream cannot go live again: its key is refused from then on.
      ${stream.record === 1 ? 'The recording is kept and published as a video.' : 'It is not recorded.'}
    </p>
    <form method="post" action="${base}/end" class="button-row">
      ${csrf}<button type="submit" class="danger" id="confirm-end">End stream</button>
      <a href="${base}">Keep streaming</a>
    </form>`;
}
