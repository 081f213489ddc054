// Every app page's script (src/web/layout.ts loads it): copy buttons, dates in the viewer's
// time zone, and a confirmation before a destructive form is sent. Every page works without it.
// Plain browser JavaScript, type-checked through public/tsconfig.json.
// @ts-check
/* global document, navigator, setTimeout, window */

// A block of its own: a page loads several scripts into one global scope.
{
  // Copy buttons: a button with data-copy="ID" copies the value (or text) of the element with
  // that id and says so. (The dashboard's copy buttons, class "copy", are dashboard.js's.)
  document.addEventListener('click', (event) => {
    const target = event.target;
    if (!(target instanceof HTMLButtonElement) || !target.dataset.copy || target.classList.contains('copy')) {
      return;
    }
    const source = document.getElementById(target.dataset.copy);
    if (!source) return;
    const text = source instanceof HTMLInputElement ? source.value : source.textContent;
    const label = target.textContent;
    const done = (/** @type {string} */ message) => {
      target.textContent = message;
      setTimeout(() => {
        target.textContent = label;
      }, 2000);
    };
    navigator.clipboard.writeText(text).then(
      () => {
        done('Copied');
      },
      () => {
        // Without clipboard access (an http page, a refusal) the text is selected for Ctrl+C.
        if (source instanceof HTMLInputElement) source.select();
        done('Press Ctrl+C');
      },
    );
  });

  // Dates: the server writes them in UTC, inside <time data-local> (src/web/format.ts); here
  // they are written again, in the same format, in the viewer's own time zone.
  const DATE_TIME = new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  });
  const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

  /** @param {ParentNode} root */
  function localTimes(root) {
    for (const element of root.querySelectorAll('time[data-local]')) {
      const time = /** @type {HTMLTimeElement} */ (element);
      const kind = time.dataset.local;
      const format = kind === 'day' ? DAY : kind === 'datetime' ? DATE_TIME : undefined;
      const at = new Date(time.dateTime);
      if (format === undefined || Number.isNaN(at.getTime())) continue;
      time.textContent = format.format(at);
    }
  }
  localTimes(document);
  // For markup a page's script adds later (the stream page's health panel).
  window.tributaryLocalTimes = localTimes;

  // The dashboard's charts (uPlot) write times the same way: 24-hour clock, day and month
  // under the first tick of each day, the full date in the legend.
  const CLOCK = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const CLOCK_SECONDS = new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const DAY_MONTH = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' });
  window.tributaryChartTime = {
    axis(_chart, splits) {
      const step = splits.length > 1 ? (splits[1] ?? 0) - (splits[0] ?? 0) : 60;
      const clock = step < 60 ? CLOCK_SECONDS : CLOCK;
      return splits.map((seconds, i) => {
        const at = new Date(seconds * 1000);
        const before = i > 0 ? new Date((splits[i - 1] ?? 0) * 1000) : undefined;
        const newDay = before === undefined || before.toDateString() !== at.toDateString();
        return newDay ? `${clock.format(at)}\n${DAY_MONTH.format(at)}` : clock.format(at);
      });
    },
    count(_chart, value) {
      return value === null || value === undefined ? '—' : String(value);
    },
    legend(_chart, seconds) {
      return seconds === null || seconds === undefined ? '—' : DATE_TIME.format(new Date(seconds * 1000));
    },
  };

  // Destructive forms (data-confirm="question", data-confirm-action="button label") ask first,
  // in a dialog: Cancel is focused, Escape cancels. Without this script the form is sent at once
  // and the server's redirect shows what happened.
  /** @type {HTMLDialogElement | null} */
  let dialog = null;
  /** @type {HTMLFormElement | null} */
  let pending = null;

  function confirmDialog() {
    if (dialog) return dialog;
    const box = document.createElement('dialog');
    box.className = 'confirm-dialog';
    box.id = 'confirm-dialog';
    box.setAttribute('aria-labelledby', 'confirm-title');
    box.setAttribute('aria-describedby', 'confirm-message');
    const title = document.createElement('h2');
    title.id = 'confirm-title';
    const message = document.createElement('p');
    message.id = 'confirm-message';
    const row = document.createElement('div');
    row.className = 'button-row';
    const yes = document.createElement('button');
    yes.type = 'button';
    yes.className = 'danger';
    yes.id = 'confirm-yes';
    const no = document.createElement('button');
    no.type = 'button';
    no.id = 'confirm-no';
    no.textContent = 'Cancel';
    row.append(no, yes);
    box.append(title, message, row);
    document.body.append(box);
    no.addEventListener('click', () => {
      box.close();
    });
    yes.addEventListener('click', () => {
      const form = pending;
      box.close();
      if (!form) return;
      form.dataset.confirmed = 'true';
      form.requestSubmit();
    });
    box.addEventListener('close', () => {
      const form = pending;
      pending = null;
      // Focus goes back to the button that asked, unless the form is being sent.
      if (form && form.dataset.confirmed !== 'true') form.querySelector('button')?.focus();
    });
    dialog = box;
    return box;
  }

  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.dataset.confirm) return;
    if (form.dataset.confirmed === 'true') return;
    event.preventDefault();
    const box = confirmDialog();
    pending = form;
    const action = form.dataset.confirmAction ?? 'Confirm';
    /** @type {HTMLElement} */ (box.querySelector('#confirm-title')).textContent = `${action}?`;
    /** @type {HTMLElement} */ (box.querySelector('#confirm-message')).textContent = form.dataset.confirm;
    /** @type {HTMLElement} */ (box.querySelector('#confirm-yes')).textContent = action;
    box.showModal();
    /** @type {HTMLElement} */ (box.querySelector('#confirm-no')).focus();
  });

  // Pictures that fail to load (a file removed since the page was made): a card's thumbnail
  // gives way to the card's placeholder, an avatar to the initial on its circle (the same
  // markup the server writes when there is no picture: src/web/viewer/cards.ts, src/web/avatar.ts),
  // never the browser's broken-image icon. Errors do not bubble, so they are caught on the way down.
  /** @param {HTMLImageElement} image */
  function replaceBroken(image) {
    const replacement = document.createElement('span');
    replacement.setAttribute('aria-hidden', 'true');
    if (image.classList.contains('thumb-img')) {
      replacement.className = 'thumb-empty';
      const text = document.createElement('span');
      text.className = 'thumb-empty-text';
      text.textContent = 'No preview';
      replacement.append(text);
    } else if (image.classList.contains('avatar')) {
      const size = [...image.classList].find((name) => /^avatar-\d+$/.test(name)) ?? 'avatar-32';
      replacement.className = `avatar ${size} avatar-initial avatar-tone-${image.dataset.tone ?? '0'}`;
      replacement.textContent = image.dataset.initial ?? '';
    } else {
      return;
    }
    image.replaceWith(replacement);
  }
  document.addEventListener(
    'error',
    (event) => {
      if (event.target instanceof HTMLImageElement) replaceBroken(event.target);
    },
    true,
  );
  // Those that failed before this script ran.
  for (const image of document.querySelectorAll('img.thumb-img, img.avatar')) {
    const picture = /** @type {HTMLImageElement} */ (image);
    if (picture.complete && picture.naturalWidth === 0 && picture.currentSrc !== '') replaceBroken(picture);
  }
}
