// The bodies of a video's edit form and its delete confirmation.
import type { VideoRow } from '../../videos/video.table.ts';
import { html, type SafeHtml } from './core.ts';
import {
  categorySelect,
  describedBy,
  problemFor,
  PRIVACY_CHOICES,
  radioGroup,
  titleAndDescription,
} from './form-fields.ts';
import type { FormProblem } from './form-validation.ts';
import { formatDuration } from './format.ts';

export interface VideoEditValues {
  title: string;
  description: string;
  category: string;
  privacy: string;
  /** Comma-separated, as the form's one text field holds them. */
  tags: string;
}

export function editValuesOf(video: VideoRow): VideoEditValues {
  return {
    title: video.title,
    description: video.description ?? '',
    category: video.category,
    privacy: video.privacy,
    tags: (JSON.parse(video.tags) as string[]).join(', '),
  };
}

function crumbs(video: VideoRow): SafeHtml {
  return html`<p class="crumbs">
    <a href="/dashboard/videos">Videos</a> / <a href="/dashboard/videos/${video.id}">${video.title}</a>
  </p>`;
}

export function editVideoBody(
  csrf: SafeHtml,
  video: VideoRow,
  values: VideoEditValues,
  problem?: FormProblem,
): SafeHtml {
  return html`${crumbs(video)}
    <h1>Edit video</h1>
    ${problem ? html`<p class="form-error" role="alert" id="form-error">Nothing was saved: ${problem.message}</p>` : ''}
    <form method="post" action="/dashboard/videos/${video.id}" class="form" id="edit-video" novalidate>
      ${csrf} ${titleAndDescription(values, problem)} ${categorySelect(values.category, problem)}
      ${radioGroup('Privacy', 'privacy', values.privacy, problem, PRIVACY_CHOICES)}
      <div class="field">
        <label for="tags">Tags <span class="optional">(optional)</span></label>
        <input
          id="tags"
          name="tags"
          type="text"
          value="${values.tags}"
          ${describedBy(problem, 'tags', 'tags-hint')}
        />
        <p class="hint" id="tags-hint">Separated by commas: at most 20, each up to 50 characters.</p>
        ${problemFor(problem, 'tags')}
      </div>
      <div class="actions">
        <button type="submit" class="primary" id="save-video">Save changes</button>
        <a href="/dashboard/videos/${video.id}">Cancel</a>
      </div>
    </form>`;
}

export function deleteVideoBody(csrf: SafeHtml, video: VideoRow, problem?: string): SafeHtml {
  return html`${crumbs(video)}
    <h1>Delete this video?</h1>
    ${problem ? html`<p class="form-error" role="alert" id="form-error">${problem}</p>` : ''}
    <p>
      <strong>${video.title}</strong> (${formatDuration(video.duration_seconds)}, ${video.view_count}
      ${video.view_count === 1 ? 'view' : 'views'}) and its media are deleted for good. Its watch page and
      playback links stop working at once. This cannot be undone.
    </p>
    <form method="post" action="/dashboard/videos/${video.id}/delete" class="button-row">
      ${csrf}<button type="submit" class="danger" id="confirm-delete">Delete video</button>
      <a href="/dashboard/videos/${video.id}">Keep it</a>
    </form>`;
}
