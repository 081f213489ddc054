// The pieces every dashboard form is made of: a field's error next to it, the aria attributes
// that tie the two together, and radio groups.
import { CATEGORIES } from '../../shared/categories.ts';
import { html, raw, type SafeHtml } from './core.ts';
import { categoryLabel } from './format.ts';
import type { FormProblem } from './form-validation.ts';

export function problemFor(problem: FormProblem | undefined, name: string): SafeHtml | '' {
  if (!problem || problem.field !== name) return '';
  return html`<p class="field-error" id="${name}-error">${problem.message}</p>`;
}

export function describedBy(problem: FormProblem | undefined, name: string, hint?: string): SafeHtml {
  const ids = [hint, problem?.field === name ? `${name}-error` : undefined].filter(Boolean).join(' ');
  const invalid = problem?.field === name ? ' aria-invalid="true"' : '';
  return raw(ids === '' ? invalid : `aria-describedby="${ids}"${invalid}`);
}

/** A fieldset of radio buttons, `[value, label]` each, the one whose value is `checked` checked. */
export function radioGroup(
  legend: string,
  name: string,
  checked: string,
  problem: FormProblem | undefined,
  choices: readonly (readonly [value: string, label: string])[],
): SafeHtml {
  return html`<fieldset class="field">
    <legend>${legend}</legend>
    ${choices.map(
      ([value, label]) =>
        html`<label class="inline"
          ><input type="radio" name="${name}" value="${value}" ${value === checked ? raw(' checked') : ''} />
          ${label}</label
        >`,
    )}
    ${problemFor(problem, name)}
  </fieldset>`;
}

/** The category drop-down, `selected` chosen. */
export function categorySelect(selected: string, problem: FormProblem | undefined): SafeHtml {
  return html`<div class="field">
    <label for="category">Category</label>
    <select id="category" name="category" ${describedBy(problem, 'category')}>
      ${CATEGORIES.map((c) => html`<option value="${c}" ${c === selected ? raw(' selected') : ''}>${categoryLabel(c)}</option>`)}</select
    >${problemFor(problem, 'category')}
  </div>`;
}

/** The title and description fields, as on every form that names a stream or a video. */
export function titleAndDescription(
  values: { title: string; description: string },
  problem: FormProblem | undefined,
): SafeHtml {
  return html`<div class="field">
      <label for="title">Title</label>
      <input
        id="title"
        name="title"
        type="text"
        maxlength="120"
        required
        value="${values.title}"
        ${describedBy(problem, 'title', 'title-hint')}
      />
      <p class="hint" id="title-hint">1 to 120 characters.</p>
      ${problemFor(problem, 'title')}
    </div>
    <div class="field">
      <label for="description">Description <span class="optional">(optional)</span></label>
      <textarea
        id="description"
        name="description"
        rows="4"
        maxlength="2000"
        ${describedBy(problem, 'description')}
      >
${values.description}</textarea>
      ${problemFor(problem, 'description')}
    </div>`;
}

export const PRIVACY_CHOICES = [
  ['public', 'Public: listed on your channel and the home page'],
  ['private', 'Unlisted: only people with the link'],
] as const;

/** The latency modes a stream form offers; `realtime` plays over WebRTC (src/realtime/). */
export const LATENCY_VALUES = new Set(['normal', 'low', 'realtime']);
export const REALTIME_CHOICE =
  'Realtime: under a second behind live over WebRTC, for conversation; players that cannot get it fall back to low latency';
