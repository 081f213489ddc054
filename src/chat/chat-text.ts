// What a chat message may say: plain text (markup is never interpreted, pages render it as
// text nodes, src/web/assets), one line, within the room's length, without the channel's blocked
// words or, unless the operator turned it off, the platform's slur list (the `obscenity`
// package's English set, which sees through l33t spellings and spacing tricks).
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import { invalidParameter } from '../shared/errors.ts';

/** The longest a creator may allow; the room's own limit is at most this. */
export const MAX_MESSAGE_LENGTH = 500;
export const MIN_MESSAGE_LENGTH_LIMIT = 20;
/** Words and phrases one channel may block, and how long each may be. */
export const MAX_BLOCKED_WORDS = 200;
export const MAX_BLOCKED_WORD_LENGTH = 50;

// C0 and C1 controls, bidirectional overrides and isolates (which can make text read backwards
// in the other messages around it), and the BOM; tabs and line breaks become spaces first.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufeff]/u;

let platformMatcher: RegExpMatcher | undefined;

function matcher(): RegExpMatcher {
  platformMatcher ??= new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
  return platformMatcher;
}

export interface TextRules {
  maxLength: number;
  blockedWords: readonly string[];
  platformFilter: boolean;
}

/** The message as stored, or a parameter_invalid error on `text` saying what is wrong. */
export function checkMessageText(raw: string, rules: TextRules): string {
  const text = raw.replace(/[\t\r\n]+/g, ' ').trim();
  if (text === '') throw invalidParameter('text', 'A message cannot be empty.');
  if (CONTROLS.test(text)) throw invalidParameter('text', 'A message cannot contain control characters.');
  if (!text.isWellFormed()) throw invalidParameter('text', 'A message must be valid Unicode text.');
  // Code points, as the API documents lengths elsewhere (an emoji of several is several).
  // eslint-disable-next-line @typescript-eslint/no-misused-spread
  const length = [...text].length;
  if (length > rules.maxLength) {
    throw invalidParameter(
      'text',
      `A message may have at most ${rules.maxLength} characters (this has ${length}).`,
    );
  }
  const lower = text.toLowerCase();
  if (rules.blockedWords.some((word) => containsWord(lower, word))) {
    throw invalidParameter('text', 'The message contains a word this channel has blocked.');
  }
  if (rules.platformFilter && matcher().hasMatch(text)) {
    throw invalidParameter('text', 'The message contains a word this site does not allow.');
  }
  return text;
}

/** A blocked word matches as a whole word (or phrase), never inside another word. */
function containsWord(text: string, word: string): boolean {
  let from = 0;
  for (;;) {
    const at = text.indexOf(word, from);
    if (at === -1) return false;
    const before = at === 0 ? '' : (text[at - 1] ?? '');
    const after = text[at + word.length] ?? '';
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return true;
    from = at + 1;
  }
}

/** A creator's blocked-words list, cleaned: lower case, trimmed, unique, bounded. */
export function normalizeBlockedWords(words: readonly string[]): string[] {
  const cleaned = [...new Set(words.map((word) => word.trim().toLowerCase()).filter((word) => word !== ''))];
  if (cleaned.length > MAX_BLOCKED_WORDS) {
    throw invalidParameter('blocked_words', `At most ${MAX_BLOCKED_WORDS} blocked words.`);
  }
  const long = cleaned.find((word) => word.length > MAX_BLOCKED_WORD_LENGTH || CONTROLS.test(word));
  if (long !== undefined) {
    throw invalidParameter(
      'blocked_words',
      `Each blocked word has at most ${MAX_BLOCKED_WORD_LENGTH} characters and no control characters.`,
    );
  }
  return cleaned;
}
