// The creator's chat moderation page, /dashboard/chat: the channel's moderators (appoint by user
// id, remove), its blocked words, the bans and timeouts in force (lift them), and the moderation
// log: every action, who did it and when. The per-stream switches (slow mode, followers-only,
// the length limit) are on each stream's page (stream-chat-pages.ts), posted here, and on the
// API (`PATCH /v1/streams/{id}/chat/settings`); they apply to the next message.
// Every form redirects after its POST (303) to the page it came from, with a notice.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ChatService } from '../../chat/chat.service.ts';
import { invalidParameter } from '../../shared/errors.ts';
import type { StreamRow } from '../../streams/stream.table.ts';
import { csrfField, html, PAGE, renderPage, sendPage, userOf } from './core.ts';
import type { DashboardApp, DashboardDeps } from './dashboard.deps.ts';
import { IdParams } from './owned.ts';
import {
  moderationLogTable,
  restrictionList,
  STREAM_CHAT_NOTICES,
  type StreamChatData,
} from './stream-chat-pages.ts';
import { formRefusal } from '../form-refusal.ts';

const STYLES = ['/assets/dashboard.css'];

function field(form: unknown, name: string): string {
  const value = (form as Record<string, unknown> | null)?.[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** The newest moderation log entries a stream's page shows. */
const STREAM_LOG_SIZE = 10;

const CHANNEL_NOTICES: Record<string, string> = {
  'moderator-added': 'Moderator added.',
  'moderator-removed': 'Moderator removed.',
  'words-saved': 'Blocked words saved.',
  lifted: STREAM_CHAT_NOTICES.lifted ?? '',
  'not-restricted': STREAM_CHAT_NOTICES['not-restricted'] ?? '',
};

/** What a stream's dashboard page shows of its chat. */
export async function streamChatData(chat: ChatService, stream: StreamRow): Promise<StreamChatData> {
  const [settings, restrictions, log] = await Promise.all([
    chat.settings(stream.id),
    chat.restrictions(stream.creator_id),
    chat.moderationLog(stream.creator_id, STREAM_LOG_SIZE),
  ]);
  return { streamId: stream.id, ended: stream.status === 'ended', settings, restrictions, log };
}

/** A form's whole number of at most 9 digits; anything else is refused with the field's name. */
function wholeNumber(form: unknown, name: string, what: string): number {
  const value = field(form, name);
  if (!/^\d{1,9}$/.test(value)) throw invalidParameter(name, `${what} must be a whole number.`);
  return Number(value);
}

export async function dashboardChatRoutes(app: DashboardApp, deps: DashboardDeps): Promise<void> {
  const { chat } = deps.services;
  const onStream = {
    config: PAGE,
    schema: { hide: true, params: IdParams },
    preHandler: deps.owned.stream.preHandler,
  };

  async function show(request: FastifyRequest, reply: FastifyReply, notice?: string, status = 200) {
    const user = userOf(request);
    const [moderators, words, restrictions, log] = await Promise.all([
      chat.moderators(user.id),
      chat.blockedWords(user.id),
      chat.restrictions(user.id),
      chat.moderationLog(user.id, 100),
    ]);
    const body = html`<h1>Chat moderation</h1>
      ${notice === undefined ? '' : html`<p class="notice" role="status">${notice}</p>`}
      <section aria-labelledby="mods">
        <h2 id="mods">Moderators</h2>
        <p>Moderators can delete messages and time out or ban viewers in all your streams' chats.</p>
        <ul>
          ${moderators.map(
            (m) =>
              html`<li>
                ${m.name} <code>${m.id}</code>
                <form
                  method="post"
                  action="/dashboard/chat/moderators/remove"
                  class="inline-form"
                  data-confirm="Remove ${m.name} as a moderator? They can no longer delete messages or time out and ban viewers."
                  data-confirm-action="Remove moderator"
                >
                  ${csrfField(request)}<input type="hidden" name="user_id" value="${m.id}" />
                  <button type="submit" aria-label="Remove ${m.name}">Remove</button>
                </form>
              </li>`,
          )}
        </ul>
        <form method="post" action="/dashboard/chat/moderators" class="form">
          ${csrfField(request)}
          <div class="field">
            <label for="moderator-id">User id</label>
            <input id="moderator-id" name="user_id" type="text" maxlength="64" required />
          </div>
          <button type="submit" class="primary">Add moderator</button>
        </form>
      </section>
      <section aria-labelledby="words">
        <h2 id="words">Blocked words</h2>
        <form method="post" action="/dashboard/chat/blocked-words" class="form">
          ${csrfField(request)}
          <div class="field">
            <label for="blocked-words">One word or phrase per line; messages with one are refused.</label>
            <textarea id="blocked-words" name="words" rows="5">${words.join('\n')}</textarea>
          </div>
          <button type="submit" class="primary">Save blocked words</button>
        </form>
      </section>
      <section aria-labelledby="restrictions">
        <h2 id="restrictions">Bans and timeouts</h2>
        ${restrictionList(csrfField(request), '/dashboard/chat/lift', restrictions)}
      </section>
      <section aria-labelledby="log">
        <h2 id="log">Moderation log</h2>
        ${moderationLogTable(log, 'moderation-log')}
      </section>`;
    return sendPage(
      reply,
      renderPage({
        title: 'Chat moderation',
        request,
        body,
        section: 'chat',
        styles: STYLES,
      }),
      status,
    );
  }

  async function attempt(request: FastifyRequest, reply: FastifyReply, work: () => Promise<string>) {
    let done: string;
    try {
      done = await work();
    } catch (error) {
      return show(request, reply, formRefusal(request, reply, error).message, 400);
    }
    return reply.redirect(`/dashboard/chat?done=${done}`, 303);
  }

  app.get('/dashboard/chat', { config: PAGE, schema: { hide: true } }, (request, reply) =>
    show(request, reply, CHANNEL_NOTICES[(request.query as Record<string, string | undefined>).done ?? '']),
  );
  app.post('/dashboard/chat/moderators', { config: PAGE, schema: { hide: true } }, (request, reply) =>
    attempt(request, reply, async () => {
      await chat.addModerator(userOf(request).id, field(request.body, 'user_id'));
      return 'moderator-added';
    }),
  );
  app.post('/dashboard/chat/moderators/remove', { config: PAGE, schema: { hide: true } }, (request, reply) =>
    attempt(request, reply, async () => {
      await chat.removeModerator(userOf(request).id, field(request.body, 'user_id'));
      return 'moderator-removed';
    }),
  );
  app.post('/dashboard/chat/blocked-words', { config: PAGE, schema: { hide: true } }, (request, reply) =>
    attempt(request, reply, async () => {
      const words = field(request.body, 'words').split('\n');
      await chat.setBlockedWords(userOf(request).id, words);
      return 'words-saved';
    }),
  );
  app.post('/dashboard/chat/lift', { config: PAGE, schema: { hide: true } }, (request, reply) =>
    attempt(request, reply, async () => {
      const lifted = await chat.liftInChannel(userOf(request).id, field(request.body, 'user_id'));
      return lifted ? 'lifted' : 'not-restricted';
    }),
  );

  // A stream's page: its room's switches and lifting a ban or timeout there.
  app.post('/dashboard/streams/:id/chat/settings', onStream, async (request, reply) => {
    const stream = deps.owned.stream.of(request);
    const form = request.body;
    const change = {
      slow_mode_seconds: wholeNumber(form, 'slow_mode_seconds', 'Slow mode'),
      followers_only: field(form, 'followers_only') === 'on',
      max_length: wholeNumber(form, 'max_length', 'The longest message'),
    };
    await chat.updateSettings(stream.id, userOf(request).id, change);
    return reply.redirect(`/dashboard/streams/${encodeURIComponent(stream.id)}?chat=saved#chat-panel`, 303);
  });
  app.post('/dashboard/streams/:id/chat/lift', onStream, async (request, reply) => {
    const stream = deps.owned.stream.of(request);
    const lifted = await chat.lift(stream.id, userOf(request).id, field(request.body, 'user_id'));
    const notice = lifted ? 'lifted' : 'not-restricted';
    return reply.redirect(
      `/dashboard/streams/${encodeURIComponent(stream.id)}?chat=${notice}#chat-panel`,
      303,
    );
  });
}
