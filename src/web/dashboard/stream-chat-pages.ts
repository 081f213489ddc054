// The chat panel of a stream's dashboard page: the room's switches (slow mode, followers-only,
// the length limit) while the stream can still be live, the channel's bans and timeouts with a
// Lift button each, and the newest entries of the moderation log (the whole log is on
// /dashboard/chat). The forms post to the routes in chat.routes.ts and come back here.
import type { ChatSettings } from '../../chat/chat.serializer.ts';
import { MAX_SLOW_MODE_SECONDS } from '../../chat/chat.service.ts';
import { MAX_MESSAGE_LENGTH, MIN_MESSAGE_LENGTH_LIMIT } from '../../chat/chat-text.ts';
import { html, raw, type SafeHtml } from './core.ts';
import { localTime } from './format.ts';

export interface ChatRestrictionView {
  user_id: string;
  name: string;
  kind: 'ban' | 'timeout';
  until: number | null;
  reason: string | null;
}

export interface ChatLogEntryView {
  created_at: number;
  actor_id: string;
  actor_name: string | null;
  action: string;
  target_name: string | null;
  detail: string | null;
}

export interface StreamChatData {
  streamId: string;
  ended: boolean;
  settings: ChatSettings;
  restrictions: ChatRestrictionView[];
  log: ChatLogEntryView[];
}

/** What the page says after one of its forms (`?chat=...`). */
export const STREAM_CHAT_NOTICES: Record<string, string> = {
  saved: 'Chat settings saved: they apply to the next message in the room.',
  lifted: 'Lifted: they can chat again now.',
  'not-restricted': 'That user was no longer banned or timed out.',
};

/** The Lift button of one ban or timeout; `action` is the route it posts to. */
export function liftForm(csrf: SafeHtml, action: string, r: ChatRestrictionView): SafeHtml {
  const what = r.kind === 'ban' ? 'ban' : 'timeout';
  return html`<form
    method="post"
    action="${action}"
    class="inline-form"
    data-confirm="Lift ${r.name}'s ${what}? They can chat again at once."
    data-confirm-action="Lift ${what}"
  >
    ${csrf}<input type="hidden" name="user_id" value="${r.user_id}" />
    <button type="submit" aria-label="Lift ${what} of ${r.name}">Lift ${what}</button>
  </form>`;
}

/** The bans and timeouts in force, each with its Lift form. */
export function restrictionList(
  csrf: SafeHtml,
  action: string,
  restrictions: ChatRestrictionView[],
): SafeHtml {
  if (restrictions.length === 0)
    return html`<p class="empty" id="no-restrictions">Nobody is banned or timed out.</p>`;
  return html`<ul class="restrictions" id="restrictions-list">
    ${restrictions.map(
      (r) =>
        html`<li>
          <span
            ><strong>${r.name}</strong>:
            ${r.kind === 'ban' ? 'banned' : html`timed out until ${localTime(r.until ?? 0)}`}${r.reason === null ? '' : html` (${r.reason})`}</span
          >
          ${liftForm(csrf, action, r)}
        </li>`,
    )}
  </ul>`;
}

/** The moderation log as a table, newest first. */
export function moderationLogTable(log: ChatLogEntryView[], id: string): SafeHtml {
  if (log.length === 0) return html`<p class="empty" id="${id}-empty">No moderation actions yet.</p>`;
  return html`<div class="table-wrap">
    <table class="list stack" id="${id}">
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Who</th>
          <th scope="col">Action</th>
          <th scope="col">Whom</th>
          <th scope="col">Detail</th>
        </tr>
      </thead>
      <tbody>
        ${log.map(
          (entry) =>
            html`<tr>
              <td data-label="When">${localTime(entry.created_at)}</td>
              <td data-label="Who">${entry.actor_name ?? entry.actor_id}</td>
              <td data-label="Action">${entry.action}</td>
              <td data-label="Whom">${entry.target_name ?? ''}</td>
              <td data-label="Detail">${entry.detail ?? ''}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function settingsForm(csrf: SafeHtml, data: StreamChatData): SafeHtml {
  const { settings } = data;
  const base = `/dashboard/streams/${data.streamId}/chat`;
  return html`<form method="post" action="${base}/settings" class="chat-settings" id="chat-settings">
    ${csrf}
    <div class="field">
      <label for="slow_mode_seconds"
        >Slow mode <span class="optional">(seconds between messages)</span></label
      >
      <input
        id="slow_mode_seconds"
        name="slow_mode_seconds"
        type="number"
        inputmode="numeric"
        min="0"
        max="${MAX_SLOW_MODE_SECONDS}"
        step="1"
        value="${settings.slow_mode_seconds}"
        aria-describedby="slow-hint"
      />
      <p class="hint" id="slow-hint">
        0 is off. With slow mode on, each viewer may send one message every so many seconds; you and your
        moderators are not held back.
      </p>
    </div>
    <div class="field">
      <label class="inline"
        ><input
          type="checkbox"
          id="followers_only"
          name="followers_only"
          value="on"
          ${settings.followers_only ? raw(' checked') : ''}
        />
        Followers-only: only your subscribers (and your moderators) may chat</label
      >
    </div>
    <div class="field">
      <label for="max_length">Longest message <span class="optional">(characters)</span></label>
      <input
        id="max_length"
        name="max_length"
        type="number"
        inputmode="numeric"
        min="${MIN_MESSAGE_LENGTH_LIMIT}"
        max="${MAX_MESSAGE_LENGTH}"
        step="1"
        value="${settings.max_length}"
        aria-describedby="length-hint"
      />
      <p class="hint" id="length-hint">
        ${MIN_MESSAGE_LENGTH_LIMIT} to ${MAX_MESSAGE_LENGTH}; an emoji counts as one character.
      </p>
    </div>
    <button type="submit" class="primary" id="save-chat-settings">Save chat settings</button>
  </form>`;
}

export function streamChatSection(csrf: SafeHtml, data: StreamChatData): SafeHtml {
  const base = `/dashboard/streams/${data.streamId}/chat`;
  const { settings } = data;
  const state = [
    settings.slow_mode_seconds > 0 ? `slow mode ${settings.slow_mode_seconds} s` : 'slow mode off',
    settings.followers_only ? 'followers-only' : 'everyone signed in may chat',
    `at most ${settings.max_length} characters`,
  ].join(', ');
  return html`<section aria-labelledby="chat-heading" class="panel" id="chat-panel">
    <div class="page-head">
      <h2 id="chat-heading">Chat</h2>
      <a class="button" href="/dashboard/chat">Moderators and blocked words</a>
    </div>
    ${
      data.ended
        ? html`<p class="hint">The stream has ended, so its chat is closed.</p>`
        : html`<p class="hint" id="chat-state">Now: ${state}.</p>
            ${settingsForm(csrf, data)}`
    }
    <h3 id="restrictions-heading">Bans and timeouts</h3>
    <p class="hint">They hold in every stream of your channel.</p>
    ${restrictionList(csrf, `${base}/lift`, data.restrictions)}
    <h3 id="stream-log-heading">Moderation log</h3>
    ${moderationLogTable(data.log, 'stream-moderation-log')}
    <p><a href="/dashboard/chat#log">The whole moderation log</a></p>
  </section>`;
}
