// Every app page's script (src/web/layout.ts loads it): copy buttons. A button with
// data-copy="ID" copies the value (or text) of the element with that id and says so.
// Plain browser JavaScript, type-checked through public/tsconfig.json.
// @ts-check
/* global document, navigator, setTimeout */

document.addEventListener('click', (event) => {
  const target = event.target;
  if (!(target instanceof HTMLButtonElement) || !target.dataset.copy) return;
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
