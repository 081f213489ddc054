// HTML from tagged templates: everything interpolated is escaped unless it is already
// SafeHtml, so a page cannot forget to escape a title or a name. No template engine: pages are
// plain TypeScript functions, type-checked like the rest of the code.

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for element content and quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/** Markup that is safe to insert as it is. Made only by `html` and `raw`. */
export class SafeHtml {
  readonly #markup: string;
  constructor(markup: string) {
    this.#markup = markup;
  }
  toString(): string {
    return this.#markup;
  }
}

export type HtmlValue =
  SafeHtml | string | number | bigint | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.toString();
  if (Array.isArray(value)) return value.map((item: HtmlValue) => render(item)).join('');
  return escapeHtml(String(value));
}

/** The tagged template: html`<p>${name}</p>` escapes `name`. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return new SafeHtml(out);
}

/** Trusted, already-escaped markup only (never text that came from a request or the database). */
export function raw(text: string): SafeHtml {
  return new SafeHtml(text);
}
