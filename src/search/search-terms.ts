// What a visitor typed, as the words a search looks for. Only runs of letters, digits and
// combining marks are kept, so nothing a visitor types reaches FTS5's or to_tsquery's syntax
// (quotes, operators, column filters, NEAR, parentheses): each word becomes a quoted term the
// repository writes itself. Every word must match (AND): the last as a prefix (the word being
// typed: "speed" finds "speedrun"), the others whole. A prefix term of a word most documents
// hold makes FTS5 merge its whole doclist before the first row (about 28 ms at 210,000
// documents against 2 ms for the whole word, which it reads newest first and stops at 200), so
// only the last word pays for it.

/** Longer input is refused (the page says so) rather than searched in part. */
export const MAX_QUERY_LENGTH = 200;
/** Words beyond these are ignored: more narrow little and cost more. */
export const MAX_TERMS = 8;
const MAX_TERM_LENGTH = 40;

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

export function searchTerms(text: string): string[] {
  const terms: string[] = [];
  for (const [word] of text.normalize('NFC').toLowerCase().matchAll(WORD)) {
    const term = Array.from(word).slice(0, MAX_TERM_LENGTH).join('');
    if (!terms.includes(term)) terms.push(term);
    if (terms.length === MAX_TERMS) break;
  }
  return terms;
}

/** FTS5: `"word"` for each term but the last, `"word"*` for the last, all of them required. */
export function fts5Query(terms: readonly string[]): string {
  return terms.map((term, i) => (i === terms.length - 1 ? `"${term}"*` : `"${term}"`)).join(' AND ');
}

/** PostgreSQL to_tsquery: `'word'` for each term but the last, `'word':*` for the last. */
export function tsQuery(terms: readonly string[]): string {
  return terms.map((term, i) => (i === terms.length - 1 ? `'${term}':*` : `'${term}'`)).join(' & ');
}
