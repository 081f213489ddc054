// The platform's fixed category catalogue (decisions.md, Categories). Adding a slug is a
// non-breaking change; removing one is breaking.
export const CATEGORIES = [
  'gaming',
  'music',
  'coding',
  'talk',
  'art',
  'just-chatting',
  'sports',
  'education',
  'science-and-technology',
  'travel',
  'food',
  'fitness',
] as const;

export type Category = (typeof CATEGORIES)[number];

export const DEFAULT_STREAM_CATEGORY: Category = 'talk';
