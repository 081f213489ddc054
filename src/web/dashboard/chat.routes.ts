// The creator's chat moderation page, /dashboard/chat: the channel's moderators (appoint by user
// id, remove), its blocked words, the bans and timeouts in force (lift them), and the moderation
// log: every action, who did it and when. The per-stream switches (slow mode, followers-only,
// the length limit) are on the API (`PATCH /v1/streams/{id}/chat/settings`) and apply at once.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors.ts';
import { toIso } from '../../shared/clock.ts';
import { csrfField, html, PAGE, renderPage, sendPage, userOf } from './core.ts';
import type { DashboardDeps } from './dashboard.deps.ts';

const STYLES = ['/assets/dashboard.css'];

function field(form: unknown, name: string): string {
  const value = (form as Record<string, unknown> | null)?.[name];
  return typeof value === 'string' ? value.trim() : '';
}

export async function dashboardChatRoutes(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const { chat } = deps.services;

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
                <form method="post" action="/dashboard/chat/moderators/remove" class="inline">
                  ${csrfField(request)}<input type="hidden" name="user_id" value="${m.id}" />
                  <button type="submit">Remove</button>
                </form>
              </li>`,
          )}
        </ul>
        <form method="post" action="/dashboard/chat/moderators">
          ${csrfField(request)}
          <label for="moderator-id">User id</label>
          <input id="moderator-id" name="user_id" maxlength="64" required />
          <button type="submit" class="primary">Add moderator</button>
        </form>
      </section>
      <section aria-labelledby="words">
        <h2 id="words">Blocked words</h2>
        <form method="post" action="/dashboard/chat/blocked-words">
          ${csrfField(request)}
          <label for="blocked-words">One word or phrase per line; messages with one are refused.</label>
          <textarea id="blocked-words" name="words" rows="5">${words.join('\n')}</textarea>
          <button type="submit" class="primary">Save blocked words</button>
        </form>
      </section>
      <section aria-labelledby="restrictions">
        <h2 id="restrictions">Bans and timeouts</h2>
        ${
          restrictions.length === 0
            ? html`<p>Nobody is banned or timed out.</p>`
            : html`<ul>
                ${restrictions.map(
                  (r) =>
                    html`<li>
                      ${r.name}:
                      ${r.kind === 'ban' ? 'banned' : html`timed out until <time>${toIso(r.until ?? 0)}</time>`}
                      ${r.reason === null ? '' : html`(${r.reason})`}
                    </li>`,
                )}
              </ul>`
        }
      </section>
      <section aria-labelledby="log">
        <h2 id="log">Moderation log</h2>
        <div class="table-wrap">
          <table>
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
                    <td>
                      <time datetime="${toIso(entry.created_at)}" data-local>${toIso(entry.created_at)}</time>
                    </td>
                    <td>${entry.actor_name ?? entry.actor_id}</td>
                    <td>${entry.action}</td>
                    <td>${entry.target_name ?? ''}</td>
                    <td>${entry.detail ?? ''}</td>
                  </tr>`,
              )}
            </tbody>
          </table>
        </div>
      </section>`;
    return sendPage(
      reply,
      renderPage({ title: 'Chat moderation', request, body, section: 'chat', styles: STYLES }),
      status,
    );
  }

  async function attempt(request: FastifyRequest, reply: FastifyReply, work: () => Promise<string>) {
    try {
      return await show(request, reply, await work());
    } catch (error) {
      if (error instanceof AppError && error.code !== 'internal_error')
        return show(request, reply, error.message, 400);
      throw error;
    }
  }

  app.get('/dashboard/chat', { config: PAGE, schema: { hide: true } }, (request, reply) =>
    show(request, reply),
  );
  app.post('/dashboard/chat/moderators', { config: PAGE, schema: { hide: true } }, (request, reply) =>
    attempt(request, reply, async () => {
      await chat.addModerator(userOf(request).id, field(request.body, 'user_id'));
      return 'Moderator added.';
    }),
  );
  app.post('/dashboard/chat/moderators/remove', { config: PAGE, schema: { hide: true } }, (request, reply) =>
    attempt(request, reply, async () => {
      await chat.removeModerator(userOf(request).id, field(request.body, 'user_id'));
      return 'Moderator removed.';
    }),
  );
  app.post('/dashboard/chat/blocked-words', { config: PAGE, schema: { hide: true } }, (request, reply) =>
    attempt(request, reply, async () => {
      const words = field(request.body, 'words').split('\n');
      const saved = await chat.setBlockedWords(userOf(request).id, words);
      return `Blocked words saved (${saved.length}).`;
    }),
  );
}
