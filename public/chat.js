// The watch page's chat (src/web/viewer/watch.page.ts): live over a WebSocket on a stream's page,
// replayed in time with playback on a video recorded from a stream. Messages are text: they are
// written with textContent, and links become anchors built element by element (never HTML), with
// rel="nofollow ugc noopener". The newest message stays in view unless the reader scrolled up.
// A dropped connection comes back by itself and resumes after the last message seen.
// @ts-check
/* global document, window, WebSocket, setTimeout, clearTimeout */

/**
 * @typedef {{ id: string, seq: number, author: { id: string, name: string, role: string },
 *   text: string, created_at: string, offset_ms: number | null }} ChatMessage
 * @typedef {{ mode: 'live', socket: string, signedIn: boolean } | { mode: 'replay', messages: ChatMessage[] }} ChatData
 * @typedef {{ type: string, user?: { id: string, role: string } | null, deleted?: string[],
 *   messages?: ChatMessage[], message?: ChatMessage | string, can_post?: boolean,
 *   reason?: { message: string } | null, id?: string, restriction?: string, until?: number | null }} Frame
 */

(() => {
  const dataElement = document.getElementById('chat-data');
  const list = /** @type {HTMLOListElement | null} */ (document.getElementById('chat-messages'));
  const state = document.getElementById('chat-state');
  const jump = /** @type {HTMLButtonElement | null} */ (document.getElementById('chat-jump'));
  if (!dataElement || !list || !state || !jump) return;
  /** @type {unknown} */
  const parsed = JSON.parse(dataElement.textContent || '{"mode":"replay","messages":[]}');
  const data = /** @type {ChatData} */ (parsed);
  const LINK = /\bhttps?:\/\/[^\s<>"']+/giu;
  /** @type {{ id: string, role: string } | null} */
  let me = null;

  /** Whether the reader is at (or near) the bottom, where new messages should keep them. */
  const atBottom = () => list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  list.addEventListener('scroll', () => {
    if (atBottom()) jump.hidden = true;
  });
  jump.addEventListener('click', () => {
    list.scrollTop = list.scrollHeight;
    jump.hidden = true;
  });

  /**
   * The text with its links as anchors, as nodes.
   * @param {string} text
   * @returns {Node[]}
   */
  function textNodes(text) {
    /** @type {Node[]} */
    const nodes = [];
    let last = 0;
    for (const match of text.matchAll(LINK)) {
      const start = match.index;
      // A trailing full stop or bracket is the sentence's, not the link's.
      const url = match[0].replace(/[.,;:!?)\]]+$/u, '');
      if (start > last) nodes.push(document.createTextNode(text.slice(last, start)));
      const anchor = document.createElement('a');
      anchor.href = url;
      anchor.rel = 'nofollow ugc noopener';
      anchor.target = '_blank';
      anchor.textContent = url;
      nodes.push(anchor);
      last = start + url.length;
    }
    if (last < text.length) nodes.push(document.createTextNode(text.slice(last)));
    return nodes;
  }

  /** @param {ChatMessage} message */
  function render(message) {
    const item = document.createElement('li');
    item.className = 'chat-message';
    item.dataset.id = message.id;
    item.dataset.seq = String(message.seq);
    const name = document.createElement('span');
    name.className = `chat-author role-${message.author.role}`;
    name.textContent = message.author.name;
    item.append(name);
    if (message.author.role !== 'viewer') {
      const badge = document.createElement('span');
      badge.className = 'chat-badge';
      badge.textContent = message.author.role === 'creator' ? 'Creator' : 'Mod';
      item.append(' ', badge);
    }
    const text = document.createElement('span');
    text.className = 'chat-text';
    text.append(...textNodes(message.text));
    item.append(' ', text);
    if (
      data.mode === 'live' &&
      me !== null &&
      me.role !== 'viewer' &&
      message.author.id !== me.id &&
      message.author.role !== 'creator'
    ) {
      item.append(moderationButtons(message));
    }
    return item;
  }

  /** @param {ChatMessage[]} messages */
  function append(messages) {
    if (messages.length === 0) return;
    const follow = atBottom();
    for (const message of messages) list.append(render(message));
    // At most 500 on screen: the oldest go.
    while (list.children.length > 500) list.firstElementChild?.remove();
    if (follow) list.scrollTop = list.scrollHeight;
    else jump.hidden = false;
  }

  /** @param {string} text */
  function say(text) {
    state.textContent = text;
  }

  if (data.mode === 'replay') {
    replay(data.messages);
    return;
  }

  // Live: the socket, its resume point, and the form.
  let lastSeq = 0;
  let attempt = 0;
  let nonce = 0;
  /** @type {WebSocket | null} */
  let socket = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let retry;
  const form = /** @type {HTMLFormElement | null} */ (document.getElementById('chat-form'));
  const input = /** @type {HTMLInputElement | null} */ (document.getElementById('chat-input'));

  /** @param {Record<string, unknown>} frame */
  function send(frame) {
    if (socket !== null && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ ...frame, nonce: `n${++nonce}` }));
      return true;
    }
    say('Not connected; reconnecting…');
    return false;
  }

  /** @param {ChatMessage} message */
  function moderationButtons(message) {
    const tools = document.createElement('span');
    tools.className = 'chat-tools';
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.textContent = 'Delete';
    remove.setAttribute('aria-label', `Delete ${message.author.name}'s message`);
    remove.addEventListener('click', () => send({ type: 'delete', id: message.id }));
    const timeout = document.createElement('button');
    timeout.type = 'button';
    timeout.textContent = 'Time out';
    timeout.setAttribute('aria-label', `Time out ${message.author.name} for 10 minutes`);
    timeout.addEventListener('click', () =>
      send({ type: 'timeout', user_id: message.author.id, seconds: 600 }),
    );
    tools.append(remove, timeout);
    return tools;
  }

  /** @param {boolean} allowed @param {string | null} reason */
  function canPost(allowed, reason) {
    if (!form || !input) return;
    input.disabled = !allowed;
    const button = form.querySelector('button');
    if (button) button.disabled = !allowed;
    if (!allowed && reason) say(reason);
  }

  function connect() {
    const url = new URL(data.mode === 'live' ? data.socket : '', window.location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    if (lastSeq > 0) url.searchParams.set('after', String(lastSeq));
    const ws = new WebSocket(url);
    socket = ws;
    ws.addEventListener('message', (event) => {
      /** @type {unknown} */
      const raw = JSON.parse(String(event.data));
      const frame = /** @type {Frame} */ (raw);
      if (frame.type === 'hello') {
        attempt = 0;
        me = frame.user ? { id: frame.user.id, role: frame.user.role } : null;
        for (const id of frame.deleted ?? []) {
          list.querySelector(`[data-id="${CSS.escape(id)}"]`)?.remove();
        }
        const fresh = (frame.messages ?? []).filter((m) => m.seq > lastSeq);
        append(fresh);
        for (const message of fresh) lastSeq = Math.max(lastSeq, message.seq);
        say(list.children.length === 0 ? 'No messages yet.' : '');
        canPost(frame.can_post === true, frame.reason?.message ?? null);
      } else if (frame.type === 'message') {
        const message = /** @type {ChatMessage} */ (frame.message);
        if (message.seq <= lastSeq) return;
        lastSeq = message.seq;
        if (state.textContent === 'No messages yet.') say('');
        append([message]);
      } else if (frame.type === 'deleted') {
        list.querySelector(`[data-id="${CSS.escape(String(frame.id))}"]`)?.remove();
      } else if (frame.type === 'restricted') {
        if (frame.restriction === 'lifted') canPost(true, null);
        else if (frame.restriction === 'ban') canPost(false, "You are banned from this channel's chat.");
        else canPost(false, `You are timed out until ${new Date(frame.until ?? 0).toLocaleTimeString()}.`);
      } else if (frame.type === 'error') {
        say(typeof frame.message === 'string' ? frame.message : 'That did not work.');
      } else if (frame.type === 'posted' && input) {
        say('');
      }
    });
    ws.addEventListener('close', () => {
      if (socket !== ws) return;
      socket = null;
      attempt++;
      const delay = Math.min(10_000, 500 * 2 ** Math.min(attempt, 5)) * (0.5 + Math.random() / 2);
      say('Reconnecting to the chat…');
      clearTimeout(retry);
      retry = setTimeout(connect, delay);
    });
  }

  if (form && input) {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (text === '') return;
      if (send({ type: 'post', text })) input.value = '';
    });
  }
  connect();

  /**
   * A video's chat, shown as playback reaches each message's place in the recording.
   * @param {ChatMessage[]} messages
   */
  function replay(messages) {
    const video = /** @type {HTMLVideoElement | null} */ (document.getElementById('player'));
    let shown = 0;
    const show = () => {
      const at = (video?.currentTime ?? 0) * 1000;
      // Seeking back starts the list again from the beginning.
      if (shown > 0 && (messages[shown - 1]?.offset_ms ?? 0) > at) {
        list.replaceChildren();
        shown = 0;
      }
      const next = [];
      while (shown < messages.length && (messages[shown]?.offset_ms ?? 0) <= at) {
        next.push(/** @type {ChatMessage} */ (messages[shown]));
        shown++;
      }
      append(next);
      say(shown === 0 ? 'The chat appears here as the video plays.' : '');
    };
    video?.addEventListener('timeupdate', show);
    video?.addEventListener('seeked', show);
    show();
  }
})();
