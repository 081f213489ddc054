// The body of the creator's upload page (Videos -> Upload): the form (file or drop zone, then
// the video's details), the progress panel public/upload.js fills in, the unfinished uploads
// (waiting for or receiving bytes, each resumable by picking its file again) and the recent
// uploads with their status. The page renders every list itself; the script only enhances.
import { CATEGORIES } from '../../shared/categories.ts';
import type { Upload } from '../../uploads/upload.schemas.ts';
import { formatBytes } from '../../uploads/upload.service.ts';
import { html, raw, type SafeHtml } from './core.ts';
import { categoryLabel, jsonForScript, localTime } from './format.ts';

const STATUS_LABELS: Record<Upload['status'], string> = {
  waiting: 'Waiting for the file',
  uploading: 'Uploading',
  processing: 'Processing',
  ready: 'Ready',
  errored: 'Failed',
  cancelled: 'Cancelled',
};

/** What public/upload.js reads from the page (`#upload-data`). */
export interface UploadPageData {
  /** The signed-in account: part of each file's fingerprint, so accounts never share one. */
  account_id: string;
  create_url: string;
  status_url: string;
  max_bytes: number;
  /** Unfinished uploads, each with its tus URL, for a resume picked from the list. */
  unfinished: Upload[];
  recent: Upload[];
}

function uploadBadge(upload: Upload): SafeHtml {
  return html`<span class="badge badge-upload-${upload.status}" data-role="status"
    >${STATUS_LABELS[upload.status]}</span
  >`;
}

/** The progress column: bytes while receiving, percent while processing, the outcome after. */
function progressText(upload: Upload): string {
  switch (upload.status) {
    case 'waiting':
    case 'uploading':
      return `${upload.progress}% sent (${formatBytes(upload.bytes_received)} of ${formatBytes(upload.size)})`;
    case 'processing':
      return `${upload.progress}% processed`;
    case 'ready':
      return 'Published';
    case 'errored':
      return upload.error?.message ?? 'Failed';
    case 'cancelled':
      return 'Cancelled';
  }
}

function outcomeLink(upload: Upload): SafeHtml | string {
  return upload.video_id === null
    ? ''
    : html`<a href="/dashboard/videos/${upload.video_id}" data-role="video">Open the video</a>`;
}

function unfinishedTable(csrf: SafeHtml, uploads: Upload[]): SafeHtml {
  const empty = uploads.length === 0;
  return html`<p class="empty" id="unfinished-empty" ${empty ? '' : raw('hidden')}>No unfinished uploads.</p>
    <div class="table-wrap" ${empty ? raw('hidden') : ''} id="unfinished-wrap">
      <p class="hint" id="unfinished-hint">
        These stopped before every byte arrived. Pick the same file again (above, or with Resume) and the
        upload continues where it stopped. Unfinished bytes are removed when the upload expires.
      </p>
      <table class="list upload-list" id="unfinished-list">
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">Sent</th>
            <th scope="col">Expires</th>
            <th scope="col"><span class="visually-hidden">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          ${uploads.map(
            (upload) =>
              html`<tr data-upload-id="${upload.id}">
                <th scope="row">${upload.title}</th>
                <td data-role="progress" data-label="Sent">${progressText(upload)}</td>
                <td data-label="Expires">${localTime(Date.parse(upload.expires_at))}</td>
                <td>
                  <div class="row-actions">
                    <button
                      type="button"
                      class="button"
                      data-resume="${upload.id}"
                      aria-label="Resume ${upload.title}: pick its file"
                      hidden
                    >
                      Resume
                    </button>
                    <form
                      method="post"
                      action="/dashboard/uploads/${upload.id}/cancel"
                      class="inline-form"
                      data-confirm="Cancel the upload of ${upload.title}? What was sent so far is deleted."
                      data-confirm-action="Cancel upload"
                    >
                      ${csrf}<button type="submit" class="danger" aria-label="Cancel ${upload.title}">
                        Cancel
                      </button>
                    </form>
                  </div>
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

function recentTable(uploads: Upload[]): SafeHtml {
  const empty = uploads.length === 0;
  return html`<p class="empty" id="recent-empty" ${empty ? '' : raw('hidden')}>No uploads yet.</p>
    <div class="table-wrap" id="recent-wrap" ${empty ? raw('hidden') : ''}>
      <table class="list upload-list" id="recent-uploads">
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">Status</th>
            <th scope="col">Progress</th>
            <th scope="col" class="num">Size</th>
            <th scope="col">Started</th>
          </tr>
        </thead>
        <tbody>
          ${uploads.map(
            (upload) =>
              html`<tr data-upload-id="${upload.id}">
                <th scope="row">${upload.title}</th>
                <td>${uploadBadge(upload)}</td>
                <td data-role="progress">${progressText(upload)} ${outcomeLink(upload)}</td>
                <td class="num nowrap" data-label="Size">${formatBytes(upload.size)}</td>
                <td data-label="Started">${localTime(Date.parse(upload.created_at))}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

export function uploadPageBody(csrf: SafeHtml, data: UploadPageData, notice?: string): SafeHtml {
  return html`<p class="crumbs"><a href="/dashboard/videos">Videos</a></p>
    <h1>Upload a video</h1>
    ${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
    <noscript>
      <p class="form-error">Uploading needs JavaScript: the file is sent from your browser in pieces.</p>
    </noscript>
    <form method="post" action="${data.create_url}" class="form upload-form" id="upload-form" novalidate>
      ${csrf}
      <p class="form-error" role="alert" id="form-error" hidden></p>
      <div class="field">
        <label for="file">Video file</label>
        <div class="drop-zone" id="drop-zone">
          <p class="drop-zone-text" id="drop-zone-text">Drop a video file here, or choose one:</p>
          <input id="file" name="file" type="file" accept="video/*" aria-describedby="file-hint" />
          <p class="drop-zone-file" id="file-chosen" aria-live="polite"></p>
        </div>
        <p class="hint" id="file-hint">
          MP4 with H.264 video and AAC audio works best; up to ${formatBytes(data.max_bytes)}.
        </p>
        <p class="notice" id="resume-note" role="status" hidden></p>
        <p class="field-error" id="file-error" hidden></p>
      </div>
      <div class="field">
        <label for="title">Title</label>
        <input id="title" name="title" type="text" maxlength="120" required aria-describedby="title-hint" />
        <p class="hint" id="title-hint">1 to 120 characters; the file's name unless you change it.</p>
        <p class="field-error" id="title-error" hidden></p>
      </div>
      <div class="field">
        <label for="description">Description <span class="optional">(optional)</span></label>
        <textarea id="description" name="description" rows="3" maxlength="2000"></textarea>
        <p class="field-error" id="description-error" hidden></p>
      </div>
      <div class="field">
        <label for="category">Category</label>
        <select id="category" name="category">
          ${CATEGORIES.map((c) => html`<option value="${c}" ${c === 'talk' ? raw(' selected') : ''}>${categoryLabel(c)}</option>`)}
        </select>
        <p class="field-error" id="category-error" hidden></p>
      </div>
      <fieldset class="field">
        <legend>Privacy</legend>
        <label class="inline"
          ><input type="radio" name="privacy" value="public" checked /> Public: listed on your channel and the
          home page</label
        >
        <label class="inline"
          ><input type="radio" name="privacy" value="private" /> Unlisted: only people with the link</label
        >
        <p class="field-error" id="privacy-error" hidden></p>
      </fieldset>
      <div class="actions">
        <button type="submit" class="primary" id="start-upload">Upload</button>
        <a href="/dashboard/videos">Back to videos</a>
      </div>
    </form>
    <section class="panel upload-progress" id="progress-panel" aria-labelledby="progress-heading" hidden>
      <h2 id="progress-heading">
        <span id="progress-verb">Uploading</span> <span id="progress-title"></span>
      </h2>
      <p class="upload-stage" id="upload-stage" aria-live="polite"></p>
      <div class="progress-track" aria-hidden="true">
        <div class="progress-fill" id="progress-fill"></div>
      </div>
      <progress
        id="upload-progress"
        class="visually-hidden"
        max="100"
        value="0"
        aria-labelledby="progress-heading"
      ></progress>
      <p class="upload-stats" id="upload-stats"></p>
      <div class="button-row">
        <span id="upload-result" role="status"></span>
        <button type="button" id="pause-upload" hidden>Pause</button>
        <button type="button" id="resume-upload" class="primary" hidden>Resume</button>
        <button type="button" id="another-upload" hidden>Upload another video</button>
      </div>
    </section>
    <section class="panel" aria-labelledby="unfinished-heading" id="unfinished">
      <h2 id="unfinished-heading">Unfinished uploads</h2>
      ${unfinishedTable(csrf, data.unfinished)}
    </section>
    <section class="panel" aria-labelledby="recent-heading">
      <h2 id="recent-heading">Recent uploads</h2>
      ${recentTable(data.recent)}
    </section>
    <script id="upload-data" type="application/json">
      ${raw(jsonForScript(data))}
    </script>`;
}
