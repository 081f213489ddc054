// The dashboard's small enhancements, on every page that loads it: copy buttons, the stream
// key's Reveal (fetched when asked for, never in the page until then), and the browser's time
// zone for the new-stream and edit forms' local date-times. Every page works without it.
// @ts-check
/* global document, fetch, navigator */

// A block of its own: the page loads several scripts into one global scope.
{
  const copyStatus = document.getElementById('copy-status');
  const keyInput = /** @type {HTMLInputElement | null} */ (document.getElementById('stream-key'));
  const reveal = /** @type {HTMLAnchorElement | null} */ (document.getElementById('reveal-key'));

  /** @param {string} text */
  function say(text) {
    if (copyStatus) copyStatus.textContent = text;
  }

  /** The stream key, fetched once from the creator's own page route. */
  async function loadKey() {
    if (!keyInput || !reveal) return '';
    if (keyInput.value !== '') return keyInput.value;
    const url = reveal.dataset.streamKeyUrl;
    if (!url) return '';
    const response = await fetch(url, { cache: 'no-store', credentials: 'same-origin' });
    if (!response.ok) throw new Error(`status ${response.status}`);
    /** @type {unknown} */
    const answer = await response.json();
    const body = /** @type {{ stream_key: string | null }} */ (answer);
    keyInput.value = body.stream_key ?? '';
    return keyInput.value;
  }

  if (reveal && keyInput) {
    reveal.addEventListener('click', (event) => {
      event.preventDefault();
      loadKey()
        .then(() => {
          keyInput.type = 'text';
          reveal.textContent = 'Revealed';
          reveal.setAttribute('aria-disabled', 'true');
        })
        .catch(() => {
          say('The stream key could not be loaded; reload the page.');
        });
    });
  }

  for (const button of document.querySelectorAll('button[data-copy]')) {
    button.addEventListener('click', () => {
      const target = /** @type {HTMLInputElement | null} */ (
        document.getElementById(/** @type {HTMLElement} */ (button).dataset.copy ?? '')
      );
      if (!target) return;
      const value = target === keyInput ? loadKey() : Promise.resolve(target.value);
      value
        .then((text) => {
          target.dataset.copied = text;
          return navigator.clipboard.writeText(text);
        })
        .then(() => {
          say(`${target.labels?.[0]?.textContent ?? 'Value'} copied.`);
        })
        .catch(() => {
          // No clipboard access (an insecure origin, a denied permission): select it for a manual copy.
          target.select();
          say('Press Ctrl+C (or Cmd+C) to copy the selected text.');
        });
    });
  }

  const tz = /** @type {HTMLInputElement | null} */ (document.getElementById('tz_offset'));
  if (tz) tz.value = String(new Date().getTimezoneOffset());
  // An edit form's start time comes in UTC (what a page without script shows); with the offset
  // above sent along, it is shown and edited in local time instead.
  for (const input of document.querySelectorAll('input[data-utc]')) {
    const field = /** @type {HTMLInputElement} */ (input);
    const at = new Date(field.dataset.utc ?? '');
    if (Number.isNaN(at.getTime())) continue;
    field.value = new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  }
}
