// A creator's change to a published video: the same rules as when it was made (video-rules.ts),
// only for the fields given, and only what differs from the current values is written.
import type { Updateable } from 'kysely';
import type { Privacy } from '../streams/stream.table.ts';
import { checkChapters, checkDetails } from './video-rules.ts';
import type { Chapter } from './video.schemas.ts';
import type { VideoRow, VideoTable } from './video.table.ts';

export interface VideoUpdateInput {
  title?: string | undefined;
  /** null clears it. */
  description?: string | null | undefined;
  category?: string | undefined;
  privacy?: Privacy | undefined;
  /** Replaces the tags; duplicates are dropped, first occurrence kept. */
  tags?: string[] | undefined;
  /** Replaces the chapters; each must start within the video. */
  chapters?: Chapter[] | undefined;
}

/** The columns that change (empty when nothing differs); throws the refusal a client should see. */
export function planVideoUpdate(current: VideoRow, input: VideoUpdateInput): Updateable<VideoTable> {
  const changes: Updateable<VideoTable> = {};
  if (input.title !== undefined || input.category !== undefined) {
    const details = checkDetails({
      title: input.title ?? current.title,
      category: input.category ?? current.category,
    });
    if (details.title !== current.title) changes.title = details.title;
    if (details.category !== current.category) changes.category = details.category;
  }
  if (input.description !== undefined && input.description !== current.description) {
    changes.description = input.description;
  }
  if (input.privacy !== undefined && input.privacy !== current.privacy) changes.privacy = input.privacy;
  if (input.tags !== undefined) {
    const tags = JSON.stringify([...new Set(input.tags.map((tag) => tag.trim()))]);
    if (tags !== current.tags) changes.tags = tags;
  }
  if (input.chapters !== undefined) {
    const chapters = JSON.stringify(
      checkChapters(input.chapters, current.duration_seconds).map((c) => ({
        title: c.title,
        start_seconds: c.start_seconds,
      })),
    );
    if (chapters !== current.chapters) changes.chapters = chapters;
  }
  return changes;
}
