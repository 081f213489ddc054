// Subscribe / Unsubscribe without a reload: the form still works without this script (a POST
// and a redirect back); with it, the same POST asks for JSON and the button and count change
// in place. Used by the channel pages; the watch page builds the same form (watch.js).
// @ts-check
/* global document, window, fetch, FormData, URLSearchParams */

/** @param {number} n */
function subscriberCountText(n) {
  return `${new Intl.NumberFormat('en-GB').format(n)} ${n === 1 ? 'subscriber' : 'subscribers'}`;
}

/**
 * Points the form at the other action and relabels its button.
 * @param {HTMLFormElement} form
 * @param {boolean} subscribed
 */
function showSubscribed(form, subscribed) {
  const button = /** @type {HTMLButtonElement} */ (form.querySelector('button'));
  form.action = form.action.replace(/\/(un)?subscribe$/, subscribed ? '/unsubscribe' : '/subscribe');
  button.textContent = subscribed ? 'Unsubscribe' : 'Subscribe';
  button.dataset.subscribed = String(subscribed);
  // Subscribe is the page's main action; Unsubscribe is not.
  button.classList.toggle('primary', !subscribed);
}

/**
 * @param {HTMLFormElement} form
 * @returns {Promise<{ subscribed: boolean, subscribers: number }>}
 */
async function sendSubscription(form) {
  const fields = new URLSearchParams();
  for (const [name, value] of new FormData(form)) if (typeof value === 'string') fields.set(name, value);
  const response = await fetch(form.action, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
      'x-csrf-token': fields.get('_csrf') ?? '',
    },
    body: fields,
    credentials: 'same-origin',
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  /** @type {unknown} */
  const result = await response.json();
  return /** @type {{ subscribed: boolean, subscribers: number }} */ (result);
}

/** @param {HTMLFormElement} form */
function enhanceSubscribeForm(form) {
  if (form.dataset.enhanced === 'true') return;
  form.dataset.enhanced = 'true';
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const button = /** @type {HTMLButtonElement} */ (form.querySelector('button'));
    button.disabled = true;
    sendSubscription(form)
      .then((result) => {
        showSubscribed(form, result.subscribed);
        const counter = form.closest('.subscribe')?.querySelector('[data-subscriber-count]');
        if (counter) counter.textContent = subscriberCountText(result.subscribers);
        button.disabled = false;
        button.focus();
      })
      // Anything unexpected (an expired session, a network error): the plain form shows why.
      .catch(() => {
        form.submit();
      });
  });
}

for (const form of document.querySelectorAll('form.subscribe-form')) {
  enhanceSubscribeForm(/** @type {HTMLFormElement} */ (form));
}
// The watch page builds its form after asking who is signed in, then enhances it with these.
window.tributarySubscribe = {
  countText: subscriberCountText,
  show: showSubscribed,
  enhance: enhanceSubscribeForm,
};
