// The site's list: a table in a scrolling wrapper that reads as one card per row on a phone
// (`stack`: each cell shows its column's name from `data-label`), the row's heading first, or a
// sentence when there is nothing to list. Each page writes its rows; this writes the rest.
import { html, type HtmlValue, type SafeHtml } from './html.ts';

/** A column's heading; a numeric column's cells are right-aligned (`num`) and so is its heading. */
export type ListColumn = HtmlValue | { label: HtmlValue; numeric: true };

export interface ListTable<T> {
  /** The table's id (tests and in-page links find it by it). */
  id: string;
  /** The column headings, the row heading's first. */
  columns: readonly ListColumn[];
  /** Classes besides `list stack`, for a page's own styles. */
  className?: string;
  rows: readonly T[];
  /** One `<tr>`: a `<th scope="row">` then `<td data-label="...">` cells. */
  row: (item: T) => SafeHtml;
  /** What is shown instead of an empty table. */
  empty: SafeHtml;
}

export function listTable<T>(table: ListTable<T>): SafeHtml {
  if (table.rows.length === 0) return table.empty;
  return html`<div class="table-wrap">
    <table class="list stack${table.className === undefined ? '' : ` ${table.className}`}" id="${table.id}">
      <thead>
        <tr>
          ${table.columns.map((column) =>
            isNumeric(column)
              ? html`<th scope="col" class="num">${column.label}</th>`
              : html`<th scope="col">${column}</th>`,
          )}
        </tr>
      </thead>
      <tbody>
        ${table.rows.map(table.row)}
      </tbody>
    </table>
  </div>`;
}

function isNumeric(column: ListColumn): column is { label: HtmlValue; numeric: true } {
  return typeof column === 'object' && column !== null && !Array.isArray(column) && 'numeric' in column;
}
