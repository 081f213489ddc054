// The bodies of the creator's video pages: the list and one video with its player.
import type { VideoListRow } from '../../videos/video.repository.ts';
import type { VideoRow } from '../../videos/video.table.ts';
import { html, raw, type SafeHtml } from './core.ts';
import { listTable } from '../list-table.ts';
import { categoryLabel, formatDuration, jsonForScript, localTime } from './format.ts';

function sourceLink(streamId: string | null): SafeHtml | string {
  return streamId === null ? 'Uploaded' : html`<a href="/dashboard/streams/${streamId}">Stream</a>`;
}

export function videoListBody(rows: VideoListRow[], nextCursor: string | null, notice?: string): SafeHtml {
  return html`<div class="page-head">
      <h1>Videos</h1>
      <a class="button primary" href="/dashboard/uploads">Upload a video</a>
    </div>
    ${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
    ${listTable({
      id: 'video-list',
      columns: [
        'Title',
        { label: 'Duration', numeric: true },
        { label: 'Views', numeric: true },
        'Source',
        'Privacy',
        'Published',
      ],
      rows,
      empty: html`<p class="empty">No videos yet. A recorded stream becomes a video here when it ends.</p>`,
      row: (row) =>
        html`<tr>
          <th scope="row"><a href="/dashboard/videos/${row.id}">${row.title}</a></th>
          <td class="num" data-label="Duration">${formatDuration(row.duration_seconds)}</td>
          <td class="num" data-label="Views">${row.view_count}</td>
          <td data-label="Source">${sourceLink(row.source_stream_id)}</td>
          <td data-label="Privacy">${row.privacy === 'private' ? 'Unlisted' : 'Public'}</td>
          <td data-label="Published">${localTime(row.published_at)}</td>
        </tr>`,
    })}
    ${nextCursor ? html`<p><a href="/dashboard/videos?cursor=${encodeURIComponent(nextCursor)}">Older videos</a></p>` : ''}`;
}

export function videoPageBody(
  video: VideoRow,
  playbackPath: string | null,
  watchPath: string,
  notice?: string,
): SafeHtml {
  return html`<p class="crumbs"><a href="/dashboard/videos">Videos</a></p>
    <h1>${video.title}</h1>
    ${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
    ${
      video.published_at === null
        ? ''
        : html`<div class="button-row" id="video-actions">
            <a class="button" id="edit-video" href="/dashboard/videos/${video.id}/edit">Edit details</a>
            <a class="button danger" id="delete-video" href="/dashboard/videos/${video.id}/delete">Delete</a>
          </div>`
    }
    <div class="stream-grid">
      <section class="panel" aria-labelledby="player-heading">
        <h2 id="player-heading">Player</h2>
        <div class="player">
          <video id="video-player" controls playsinline muted aria-label="Video player"></video>
        </div>
        ${playbackPath === null ? html`<p class="hint">This video is still being processed.</p>` : ''}
      </section>
      <section class="panel" aria-labelledby="details-heading">
        <h2 id="details-heading">Details</h2>
        <dl class="details">
          <dt>Duration</dt>
          <dd id="video-duration">${formatDuration(video.duration_seconds)}</dd>
          <dt>Views</dt>
          <dd id="video-views">${video.view_count}</dd>
          <dt>Source</dt>
          <dd>
            ${video.source_stream_id === null ? 'Uploaded' : html`<a id="video-source" href="/dashboard/streams/${video.source_stream_id}">The stream it was recorded from</a>`}
          </dd>
          <dt>Privacy</dt>
          <dd>${video.privacy === 'private' ? 'Unlisted' : 'Public'}</dd>
          <dt>Category</dt>
          <dd>${categoryLabel(video.category)}</dd>
          <dt>Tags</dt>
          <dd id="video-tags">${(JSON.parse(video.tags) as string[]).join(', ') || '—'}</dd>
          <dt>Published</dt>
          <dd>${video.published_at === null ? 'Processing' : localTime(video.published_at)}</dd>
          <dt>Watch page</dt>
          <dd><a href="${watchPath}">${watchPath}</a></dd>
        </dl>
        ${video.description === null ? '' : html`<p class="description">${video.description}</p>`}
      </section>
    </div>
    <script id="video-data" type="application/json">
      ${raw(jsonForScript({ playback_url: playbackPath }))}
    </script>`;
}
