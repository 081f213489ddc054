// The stream page's "Encoder health" panel: what the ingest measures of the creator's encoder
// while the stream is live (the API's `ingest.health`, from the same IngestHealthBoard), its
// warnings first, each with what to change. Rendered here only: the page's first view has it, and
// the server-sent events carry the same markup as the measurement changes (stream-events.ts).
import type { IngestHealth } from '../../streams/ingest-health.schemas.ts';
import { html, type SafeHtml } from './core.ts';
import { localTime } from './format.ts';

type WarningCode = IngestHealth['warnings'][number]['code'];

const WARNING_TITLES: Record<WarningCode, string> = {
  keyframe_interval_too_long: 'Keyframes too far apart',
  bitrate_too_high: 'Bitrate too high',
  bitrate_unstable: 'Bitrate unstable',
  no_audio: 'No audio',
  frame_rate_unstable: 'Frame rate unstable',
  publisher_disconnected: 'Encoder disconnected',
  realtime_reencoded: 'Realtime picture re-encoded',
};

const NUMBER = new Intl.NumberFormat('en-GB');

function video(health: IngestHealth): string {
  const v = health.video;
  if (!v) return 'None received';
  const size = v.width !== null && v.height !== null ? `${v.width}×${v.height} ` : '';
  const profile = v.profile === null ? '' : ` (${v.profile})`;
  const parts = [`${size}${v.codec}${profile}`];
  if (v.frame_rate !== null) parts.push(`${v.frame_rate} fps`);
  if (v.keyframe_interval_seconds !== null) parts.push(`keyframe every ${v.keyframe_interval_seconds} s`);
  return parts.join(' · ');
}

function audio(health: IngestHealth): string {
  const a = health.audio;
  if (!a) return 'None received';
  const rate = a.sample_rate === null ? '' : ` ${a.sample_rate / 1000} kHz`;
  const channels =
    a.channels === null
      ? ''
      : a.channels === 1
        ? ' mono'
        : a.channels === 2
          ? ' stereo'
          : ` ${a.channels} channels`;
  return `${a.codec}${rate}${channels}`;
}

function bitrate(health: IngestHealth): string {
  const { current, average } = health.bitrate_kbps;
  const now = current === null ? 'measuring' : `${NUMBER.format(current)} kb/s now`;
  return average === null ? now : `${now} · ${NUMBER.format(average)} kb/s on average`;
}

function renditions(health: IngestHealth): SafeHtml {
  const t = health.transcoding;
  // No ladder decision (yet, or ever on a server that only copies): viewers get what arrives.
  if (!t) return html`Your stream as sent`;
  const list = t.renditions.map((r) => (r === 'source' ? 'your stream as sent' : r)).join(', ');
  return html`${list}${t.message === null ? '' : html`<span class="sub">${t.message}</span>`}`;
}

function summary(health: IngestHealth): SafeHtml {
  const count = health.warnings.length;
  if (health.state === 'reconnecting') return html`<span class="badge badge-failed">Reconnecting</span>`;
  if (count === 0) return html`<span class="badge badge-ok">Healthy</span>`;
  return html`<span class="badge badge-warning">${count} ${count === 1 ? 'warning' : 'warnings'}</span>`;
}

/** The inside of the panel (#ingest-health-body), for the page and for each pushed update. */
export function healthPanelContent(health: IngestHealth | null): SafeHtml {
  if (health === null) {
    return html`<p class="hint" id="health-none">
      No measurements yet: they appear within a few seconds of your encoder connecting.
    </p>`;
  }
  const connection =
    health.state === 'reconnecting'
      ? html`Waiting for your encoder to reconnect, until
        ${localTime(Date.parse(health.reconnect_deadline ?? ''))}`
      : html`Receiving · ${health.publishes} ${health.publishes === 1 ? 'connection' : 'connections'} so far`;
  const dropped = health.dropped_data;
  return html`<p class="health-summary" id="health-summary">${summary(health)}</p>
    ${
      health.warnings.length === 0
        ? ''
        : html`<ul class="warnings" id="health-warnings">
            ${health.warnings.map(
              (w) =>
                html`<li class="warning" data-code="${w.code}">
                  <strong>${WARNING_TITLES[w.code]}.</strong> ${w.message}
                </li>`,
            )}
          </ul>`
    }
    <dl class="details health-facts" id="health-facts">
      <dt>Connection</dt>
      <dd>${connection}</dd>
      <dt>Video</dt>
      <dd>${video(health)}</dd>
      <dt>Audio</dt>
      <dd>${audio(health)}</dd>
      <dt>Bitrate</dt>
      <dd>${bitrate(health)}</dd>
      <dt>Renditions</dt>
      <dd>${renditions(health)}</dd>
      <dt>Dropped data</dt>
      <dd>
        ${
          dropped.timestamp_gaps === 0 && dropped.backward_jumps === 0
            ? 'None'
            : `${dropped.timestamp_gaps} gaps, ${dropped.backward_jumps} backward jumps`
        }
      </dd>
    </dl>`;
}
