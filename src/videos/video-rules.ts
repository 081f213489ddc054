// The rules a video's details follow, wherever they come from: publishing, a recording's
// draft, or the creator's changes (video-update.ts).
import { CATEGORIES, DEFAULT_STREAM_CATEGORY } from '../shared/categories.ts';
import { invalidParameter } from '../shared/errors.ts';
import type { Chapter } from './video.schemas.ts';

export function checkDetails(input: { title: string; category?: string | undefined }): {
  title: string;
  category: string;
} {
  const title = input.title.trim();
  if (title.length === 0 || codePoints(title) > 120) {
    throw invalidParameter('title', 'The title must be 1 to 120 characters.');
  }
  const category = input.category ?? DEFAULT_STREAM_CATEGORY;
  if (!(CATEGORIES as readonly string[]).includes(category)) {
    throw invalidParameter('category', `The category must be one of: ${CATEGORIES.join(', ')}.`);
  }
  return { title, category };
}

export function checkDuration(seconds: number): void {
  if (!Number.isInteger(seconds) || seconds < 0) {
    throw invalidParameter('duration_seconds', 'The duration must be a whole number of seconds.');
  }
}

/** Chapters sorted by start, each starting at a whole second inside the video. */
export function checkChapters(chapters: Chapter[], durationSeconds: number): Chapter[] {
  const sorted = [...chapters].sort((a, b) => a.start_seconds - b.start_seconds);
  for (const chapter of sorted) {
    if (!Number.isInteger(chapter.start_seconds) || chapter.start_seconds < 0) {
      throw invalidParameter('chapters', 'A chapter starts at a whole number of seconds.');
    }
    if (chapter.start_seconds > durationSeconds) {
      throw invalidParameter('chapters', `Chapter '${chapter.title}' starts after the end of the video.`);
    }
  }
  return sorted;
}

/** Length in Unicode code points, as the API's limits count characters. */
export function codePoints(text: string): number {
  return Array.from(text).length;
}
