// The upload page (src/web/dashboard/upload-pages.ts): pick or drop a file, create the upload
// with a same-origin POST (the form's fields, its CSRF token and the file's size; the server
// calls UploadService.create and answers with the API's upload object), then send the bytes
// with tus-js-client straight to its upload_url, with progress, speed, time left, Pause and
// Resume. Resuming: tus-js-client keeps each upload's URL in localStorage under a fingerprint
// of the file (account, name, type, size, modification time); picking the same file again after
// a reload, a sleep or a lost connection finds it, and the upload continues at the offset the
// server reports (HEAD). A row of the unfinished list can also be resumed by picking its file.
// Once every byte is in, the page polls /dashboard/uploads/status until the video is ready.
// @ts-check
/* global document, window, fetch, URLSearchParams, FormData, setTimeout, clearTimeout, performance */

// A block of its own: the page loads several scripts into one global scope.
{
  /**
   * @typedef {{ id: string, status: string, upload_url: string | null, video_id: string | null,
   *   size: number, bytes_received: number, progress: number, title: string,
   *   error: { code: string, message: string } | null, expires_at: string }} UploadObject
   * @typedef {{ account_id: string, create_url: string, status_url: string, max_bytes: number,
   *   unfinished: UploadObject[], recent: UploadObject[] }} PageData
   */

  const CHUNK_BYTES = 16 * 1024 * 1024;
  /** tus-js-client's own retries after a lost connection or a 5xx, then the Resume button. */
  const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000];
  const POLL_FAST_MS = 2000;
  const POLL_SLOW_MS = 5000;
  const STATUS_LABELS = /** @type {Record<string, string>} */ ({
    waiting: 'Waiting for the file',
    uploading: 'Uploading',
    processing: 'Processing',
    ready: 'Ready',
    errored: 'Failed',
    cancelled: 'Cancelled',
  });

  /** @param {string} id */
  const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
  /** @type {unknown} */
  const parsed = JSON.parse(byId('upload-data').textContent);
  const data = /** @type {PageData} */ (parsed);
  const tus = window.tus;

  const form = /** @type {HTMLFormElement} */ (byId('upload-form'));
  const fileInput = /** @type {HTMLInputElement} */ (byId('file'));
  const titleInput = /** @type {HTMLInputElement} */ (byId('title'));
  const dropZone = byId('drop-zone');
  const fileChosen = byId('file-chosen');
  const resumeNote = byId('resume-note');
  const formError = byId('form-error');
  const startButton = /** @type {HTMLButtonElement} */ (byId('start-upload'));
  const panel = byId('progress-panel');
  const progressTitle = byId('progress-title');
  const progressVerb = byId('progress-verb');
  const stage = byId('upload-stage');
  const fill = byId('progress-fill');
  const progressBar = /** @type {HTMLProgressElement} */ (byId('upload-progress'));
  const stats = byId('upload-stats');
  const pauseButton = /** @type {HTMLButtonElement} */ (byId('pause-upload'));
  const resumeButton = /** @type {HTMLButtonElement} */ (byId('resume-upload'));
  const anotherButton = /** @type {HTMLButtonElement} */ (byId('another-upload'));
  const result = byId('upload-result');

  /** The uploads the page knows, by id (refreshed by every poll). */
  const known = new Map([...data.recent, ...data.unfinished].map((u) => [u.id, u]));

  /** @type {File | null} */
  let file = null;
  /** The unfinished upload the chosen file continues, and the URL to send it to. */
  /** @type {{ upload: UploadObject, url: string } | null} */
  let resumable = null;
  /** A row's Resume button asked for its file: the next file chosen continues that upload. */
  /** @type {string | null} */
  let resumeTarget = null;
  let titleEdited = false;
  /** The look-up of the chosen file's earlier upload, which Upload waits for. */
  /** @type {Promise<void>} */
  let choosing = Promise.resolve();
  /** @type {import('tus-js-client').Upload | null} */
  let transfer = null;
  /** @type {UploadObject | null} */
  let current = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let pollTimer;
  let processingSince = 0;
  /** Recent progress samples [time ms, bytes], for the speed over the last few seconds. */
  /** @type {[number, number][]} */
  let samples = [];

  /** @param {number} bytes */
  function formatBytes(bytes) {
    const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
    let value = bytes;
    let unit = 0;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return unit === 0 ? `${value} bytes` : `${value.toFixed(value >= 100 ? 0 : 1)} ${units[unit] ?? ''}`;
  }

  /** @param {number} seconds */
  function formatDuration(seconds) {
    const s = Math.max(1, Math.round(seconds));
    if (s < 60) return `${s} s`;
    const m = Math.floor(s / 60);
    if (m < 60) return `${m} min ${s % 60} s`;
    return `${Math.floor(m / 60)} h ${m % 60} min`;
  }

  /** @param {File} f */
  function fingerprint(f) {
    return Promise.resolve(['tributary', data.account_id, f.name, f.type, f.size, f.lastModified].join('/'));
  }

  /** The upload id a tus URL names (`.../uploads/upl_x.signature`). */
  /** @param {string} url */
  function idOfUrl(url) {
    return /\/(upl_[0-9A-Za-z]+)\.[^/]*$/.exec(url)?.[1];
  }

  /** @param {UploadObject} upload */
  function unfinished(upload) {
    return upload.status === 'waiting' || upload.status === 'uploading';
  }

  /**
   * @param {HTMLElement} element
   * @param {string} text
   */
  function show(element, text) {
    element.textContent = text;
    element.hidden = text === '';
  }

  function clearErrors() {
    show(formError, '');
    for (const name of ['file', 'title', 'description', 'category', 'privacy']) {
      show(byId(`${name}-error`), '');
      document.getElementById(name)?.removeAttribute('aria-invalid');
    }
  }

  /**
   * @param {string} message
   * @param {string | undefined} param
   */
  function fieldError(message, param) {
    const name = param && document.getElementById(`${param}-error`) ? param : undefined;
    show(formError, `The upload was not started: ${message}`);
    if (name) {
      show(byId(`${name}-error`), message);
      document.getElementById(name)?.setAttribute('aria-invalid', 'true');
    }
  }

  /** The chosen file: its name as the default title, and an unfinished upload it continues. */
  /** @param {File} chosen */
  async function choose(chosen) {
    file = chosen;
    resumable = null;
    clearErrors();
    show(resumeNote, '');
    startButton.textContent = 'Upload';
    fileChosen.textContent = `${chosen.name} (${formatBytes(chosen.size)})`;
    if (!titleEdited || titleInput.value.trim() === '') {
      titleInput.value = chosen.name.replace(/\.[^.]+$/, '').slice(0, 120);
    }
    if (chosen.size > data.max_bytes) {
      show(
        byId('file-error'),
        `This file is ${formatBytes(chosen.size)}; uploads are limited to ${formatBytes(data.max_bytes)}.`,
      );
      return;
    }
    const target = resumeTarget === null ? undefined : known.get(resumeTarget);
    resumeTarget = null;
    if (target && target.upload_url && unfinished(target)) {
      if (target.size !== chosen.size) {
        show(
          byId('file-error'),
          `This file is ${formatBytes(chosen.size)}, but “${target.title}” was ${formatBytes(target.size)}: pick the same file to resume it.`,
        );
        return;
      }
      resumable = { upload: target, url: target.upload_url };
    } else {
      resumable = await previousUpload(chosen);
    }
    if (resumable) {
      const { upload } = resumable;
      titleInput.value = upload.title;
      show(
        resumeNote,
        `You already started uploading this file as “${upload.title}” (${upload.progress}% sent). It continues where it stopped, with the details given then.`,
      );
      startButton.textContent = 'Resume upload';
    }
  }

  /** An unfinished upload of this very file, found by its fingerprint in localStorage. */
  /** @param {File} chosen */
  async function previousUpload(chosen) {
    const probe = new tus.Upload(chosen, { fingerprint, endpoint: null });
    const previous = await probe.findPreviousUploads().catch(() => []);
    // Newest first: the last one stored is the one most likely still open.
    for (const entry of [...previous].reverse()) {
      const id = entry.uploadUrl ? idOfUrl(entry.uploadUrl) : undefined;
      const upload = id === undefined ? undefined : known.get(id);
      if (entry.uploadUrl && upload && unfinished(upload) && upload.size === chosen.size) {
        return { upload, url: entry.uploadUrl };
      }
      // Finished, cancelled, expired or another account's: forget it.
      if (upload && !unfinished(upload)) {
        await tus.defaultOptions.urlStorage.removeUpload(entry.urlStorageKey).catch(() => undefined);
      }
    }
    return null;
  }

  /** POST /dashboard/uploads: the form's fields and the file's size; the upload object back. */
  /** @param {File} chosen */
  async function createUpload(chosen) {
    const fields = new URLSearchParams();
    for (const [name, value] of new FormData(form)) {
      if (typeof value === 'string' && name !== 'file') fields.append(name, value);
    }
    fields.set('size', String(chosen.size));
    const response = await fetch(data.create_url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
      body: fields,
    });
    /** @type {unknown} */
    let answer = null;
    if ((response.headers.get('content-type') ?? '').includes('application/json'))
      answer = await response.json();
    if (response.status === 201) return /** @type {UploadObject} */ (answer);
    const error = /** @type {{ error?: { message?: string, param?: string } } | null} */ (answer)?.error;
    fieldError(
      error?.message ?? `the server answered ${response.status}; sign in again if your session ended.`,
      error?.param === 'size' ? 'file' : error?.param,
    );
    return null;
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearErrors();
    if (!file) {
      fieldError('choose a video file first.', 'file');
      return;
    }
    const chosen = file;
    startButton.disabled = true;
    const started = choosing.then(() =>
      resumable
        ? resumable
        : createUpload(chosen).then((upload) =>
            upload?.upload_url ? { upload, url: upload.upload_url } : null,
          ),
    );
    started
      .then((target) => {
        if (!target) {
          startButton.disabled = false;
          return;
        }
        known.set(target.upload.id, target.upload);
        addRecentRow(target.upload);
        send(chosen, target.upload, target.url);
      })
      .catch(() => {
        startButton.disabled = false;
        fieldError('the server could not be reached; check the connection and try again.', undefined);
      });
  });

  /**
   * Sends the bytes with tus: a HEAD for the offset, then PATCHes from there.
   * @param {File} chosen
   * @param {UploadObject} upload
   * @param {string} url
   */
  function send(chosen, upload, url) {
    current = upload;
    // It is being sent: no longer a row to resume from.
    document.querySelector(`#unfinished-list tr[data-upload-id="${upload.id}"]`)?.remove();
    showEmptyLists();
    form.hidden = true;
    panel.hidden = false;
    progressTitle.textContent = `“${upload.title}”`;
    show(result, '');
    setStage('Connecting…');
    samples = [];
    const tusUpload = new tus.Upload(chosen, {
      uploadUrl: url,
      fingerprint,
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      removeFingerprintOnSuccess: true,
      metadata: { filename: chosen.name, upload_id: upload.id },
      onAfterResponse(request, response) {
        if (request.getMethod() !== 'HEAD') return;
        const offset = Number(response.getHeader('Upload-Offset'));
        if (!Number.isFinite(offset)) return;
        panel.dataset.resumedFrom = String(offset);
        setStage(
          offset > 0
            ? `Resumed at ${percentOf(offset, chosen.size)}%: ${formatBytes(offset)} had already arrived.`
            : 'Sending the file…',
        );
      },
      onProgress(sent, total) {
        showBytes(sent, total);
      },
      onError(error) {
        failed(error);
      },
      onSuccess() {
        pauseButton.hidden = true;
        resumeButton.hidden = true;
        setState('processing');
        setStage('Every byte arrived. Processing the video…');
        setBar(0);
        stats.textContent = '';
        processingSince = performance.now();
        poll(0);
      },
    });
    transfer = tusUpload;
    setState('sending');
    pauseButton.hidden = false;
    pauseButton.disabled = false;
    resumeButton.hidden = true;
    tusUpload.start();
  }

  /**
   * @param {number} part
   * @param {number} whole
   */
  function percentOf(part, whole) {
    return Math.floor((100 * part) / Math.max(1, whole));
  }

  const VERBS = /** @type {Record<string, string>} */ ({
    sending: 'Uploading',
    paused: 'Paused:',
    stalled: 'Uploading',
    processing: 'Processing',
    ready: 'Uploaded',
    errored: 'Upload failed:',
    cancelled: 'Cancelled:',
  });

  /** The panel's state (also read by its stylesheet and the browser test). */
  /** @param {string} state */
  function setState(state) {
    panel.dataset.state = state;
    progressVerb.textContent = VERBS[state] ?? 'Uploading';
  }

  /** @param {string} text */
  function setStage(text) {
    stage.textContent = text;
  }

  /** @param {number} percent */
  function setBar(percent) {
    fill.style.width = `${percent}%`;
    progressBar.value = percent;
    panel.dataset.percent = String(percent);
  }

  /**
   * @param {number} sent
   * @param {number} total
   */
  function showBytes(sent, total) {
    const now = performance.now();
    samples.push([now, sent]);
    while (samples.length > 2 && now - (samples[0]?.[0] ?? now) > 5000) samples.shift();
    const [firstAt, firstBytes] = samples[0] ?? [now, sent];
    const seconds = (now - firstAt) / 1000;
    const speed = seconds > 0.5 ? (sent - firstBytes) / seconds : 0;
    const percent = percentOf(sent, total);
    setBar(percent);
    panel.dataset.sent = String(sent);
    // This upload's rows say what this page knows before the server's next report does.
    if (current && unfinished(current)) {
      updateRows({ ...current, status: 'uploading', bytes_received: sent, progress: percent });
    }
    const parts = [`${percent}%`, `${formatBytes(sent)} of ${formatBytes(total)}`];
    if (speed > 0) {
      parts.push(`${formatBytes(speed)}/s`, `about ${formatDuration((total - sent) / speed)} left`);
    }
    stats.textContent = parts.join(' · ');
  }

  /** A transfer that stopped: tus-js-client's retries are spent, or the server refused. */
  /** @param {Error} error */
  function failed(error) {
    const detailed = /** @type {{ originalResponse?: { getStatus(): number, getBody(): string } | null }} */ (
      error
    );
    const status = detailed.originalResponse?.getStatus() ?? 0;
    let message = '';
    try {
      /** @type {unknown} */
      const envelope = JSON.parse(detailed.originalResponse?.getBody() ?? '');
      const body = /** @type {{ error?: { message?: string } }} */ (envelope);
      message = body.error?.message ?? '';
    } catch {
      // not the API's envelope: the status must do
    }
    pauseButton.hidden = true;
    // 4xx other than a lock: the upload no longer takes bytes (expired, cancelled); else resumable.
    if (status >= 400 && status < 500 && status !== 423 && status !== 409) {
      setState('errored');
      setStage(`The upload stopped: ${message || `the server answered ${status}`}`);
      anotherButton.hidden = false;
      return;
    }
    setState('stalled');
    setStage(
      'The connection was lost. Nothing already sent is lost: press Resume (or it resumes by itself when the connection is back).',
    );
    resumeButton.hidden = false;
  }

  pauseButton.addEventListener('click', () => {
    if (!transfer) return;
    pauseButton.disabled = true;
    void transfer.abort().then(() => {
      setState('paused');
      setStage('Paused. Press Resume to continue where it stopped.');
      pauseButton.hidden = true;
      resumeButton.hidden = false;
      resumeButton.focus();
    });
  });

  function resume() {
    if (!transfer) return;
    setState('sending');
    setStage('Resuming…');
    samples = [];
    resumeButton.hidden = true;
    pauseButton.hidden = false;
    pauseButton.disabled = false;
    transfer.start();
  }
  resumeButton.addEventListener('click', resume);
  window.addEventListener('online', () => {
    if (panel.dataset.state === 'stalled') resume();
  });

  anotherButton.addEventListener('click', () => {
    window.location.assign(data.create_url);
  });

  /** Reads the account's uploads and shows them; again in a moment while something is busy. */
  /** @param {number} delay */
  function poll(delay) {
    clearTimeout(pollTimer);
    pollTimer = setTimeout(() => {
      const query = current ? `?id=${encodeURIComponent(current.id)}` : '';
      fetch(`${data.status_url}${query}`, {
        credentials: 'same-origin',
        headers: { accept: 'application/json' },
      })
        .then(async (response) => {
          if (!response.ok) throw new Error(`status ${response.status}`);
          /** @type {unknown} */
          const json = await response.json();
          const answer = /** @type {{ data: UploadObject[] }} */ (json);
          for (const upload of answer.data) update(upload);
        })
        .catch(() => {
          // A missed poll is retried at the next one.
        })
        .finally(schedule);
    }, delay);
  }

  function schedule() {
    const waiting = current !== null && (current.status === 'processing' || unfinished(current));
    if (waiting && panel.dataset.state === 'processing') {
      // Every 2 s for the first minute of processing, then every 5 s (pages share a per-address budget).
      poll(performance.now() - processingSince < 60_000 ? POLL_FAST_MS : POLL_SLOW_MS);
    } else if ([...known.values()].some((u) => u.status === 'processing')) {
      poll(POLL_SLOW_MS);
    }
  }

  /** @param {UploadObject} upload */
  function update(upload) {
    known.set(upload.id, upload);
    updateRows(upload);
    if (!current || upload.id !== current.id || panel.dataset.state !== 'processing') return;
    current = upload;
    if (upload.status === 'processing' || unfinished(upload)) {
      setBar(upload.status === 'processing' ? upload.progress : 0);
      setStage(`Processing the video: ${upload.status === 'processing' ? upload.progress : 0}%`);
      return;
    }
    setState(upload.status);
    anotherButton.hidden = false;
    if (upload.status === 'ready' && upload.video_id) {
      setBar(100);
      setStage('Your video is ready and published.');
      const link = videoLink(upload.video_id, 'Open the video');
      link.className = 'button primary';
      result.replaceChildren(link);
      result.hidden = false;
    } else {
      setStage(`The video could not be made: ${upload.error?.message ?? STATUS_LABELS[upload.status]}`);
    }
  }

  /**
   * @param {string} videoId
   * @param {string} text
   */
  function videoLink(videoId, text) {
    const link = document.createElement('a');
    link.href = `/dashboard/videos/${encodeURIComponent(videoId)}`;
    link.textContent = text;
    link.id = 'video-link';
    return link;
  }

  /** @param {UploadObject} upload */
  function progressText(upload) {
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
      default:
        return 'Cancelled';
    }
  }

  /** The upload's rows in both lists: status, progress, the video's link once ready. */
  /** @param {UploadObject} upload */
  function updateRows(upload) {
    for (const row of document.querySelectorAll(`tr[data-upload-id="${upload.id}"]`)) {
      if (row.closest('#unfinished-list') && !unfinished(upload)) {
        row.remove();
        showEmptyLists();
        continue;
      }
      const badge = row.querySelector('[data-role="status"]');
      if (badge) {
        badge.className = `badge badge-upload-${upload.status}`;
        badge.textContent = STATUS_LABELS[upload.status] ?? upload.status;
      }
      const cell = row.querySelector('[data-role="progress"]');
      if (cell) {
        cell.textContent = `${progressText(upload)} `;
        if (upload.video_id && !row.closest('#unfinished-list')) {
          const link = videoLink(upload.video_id, 'Open the video');
          link.removeAttribute('id');
          link.dataset.role = 'video';
          cell.append(link);
        }
      }
    }
  }

  /** Each list's "none" text instead of an empty table. */
  function showEmptyLists() {
    for (const name of ['unfinished', 'recent']) {
      const rows = document.querySelectorAll(
        `#${name === 'recent' ? 'recent-uploads' : 'unfinished-list'} tbody tr`,
      );
      byId(`${name}-wrap`).hidden = rows.length === 0;
      byId(`${name}-empty`).hidden = rows.length > 0;
    }
  }

  /** A just-created upload joins the recent list (made from the page's own markup shape). */
  /** @param {UploadObject} upload */
  function addRecentRow(upload) {
    if (document.querySelector(`#recent-uploads tr[data-upload-id="${upload.id}"]`)) return;
    const body = document.querySelector('#recent-uploads tbody');
    if (!body) return;
    const row = document.createElement('tr');
    row.dataset.uploadId = upload.id;
    const title = document.createElement('th');
    title.scope = 'row';
    title.textContent = upload.title;
    const status = document.createElement('td');
    const badge = document.createElement('span');
    badge.dataset.role = 'status';
    status.append(badge);
    const progress = document.createElement('td');
    progress.dataset.role = 'progress';
    const size = document.createElement('td');
    size.className = 'num nowrap';
    size.dataset.label = 'Size';
    size.textContent = formatBytes(upload.size);
    const created = document.createElement('td');
    created.dataset.label = 'Started';
    created.textContent = 'Just now';
    row.append(title, status, progress, size, created);
    body.prepend(row);
    showEmptyLists();
    updateRows(upload);
  }

  fileInput.addEventListener('change', () => {
    const chosen = fileInput.files?.[0];
    if (chosen) choosing = choose(chosen);
  });
  titleInput.addEventListener('input', () => {
    titleEdited = true;
  });

  for (const name of ['dragenter', 'dragover']) {
    dropZone.addEventListener(name, (event) => {
      event.preventDefault();
      dropZone.classList.add('drag-over');
    });
  }
  for (const name of ['dragleave', 'drop']) {
    dropZone.addEventListener(name, () => {
      dropZone.classList.remove('drag-over');
    });
  }
  dropZone.addEventListener('drop', (event) => {
    event.preventDefault();
    const files = /** @type {DragEvent} */ (event).dataTransfer?.files;
    const chosen = files?.[0];
    if (!files || !chosen) return;
    fileInput.files = files;
    choosing = choose(chosen);
  });

  for (const button of document.querySelectorAll('button[data-resume]')) {
    const resumeButtonOfRow = /** @type {HTMLButtonElement} */ (button);
    resumeButtonOfRow.hidden = false;
    resumeButtonOfRow.addEventListener('click', () => {
      resumeTarget = resumeButtonOfRow.dataset.resume ?? null;
      fileInput.click();
    });
  }

  // Uploads still processing (from this page before a reload, another tab or the API) update.
  schedule();
}
