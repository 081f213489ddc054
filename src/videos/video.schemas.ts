import { Type, type Static } from 'typebox';
import { CATEGORIES } from '../shared/categories.ts';
import {
  Nullable,
  PageQuery,
  Pagination,
  StringEnum,
  Timestamp,
  TrimmedString,
  Url,
} from '../http/schemas.ts';
import { PRIVACIES } from '../streams/stream.schemas.ts';

const videoListFields = {
  id: Type.String({ description: 'Prefix `vid_`.' }),
  title: Type.String(),
  description: Nullable(Type.String()),
  category: StringEnum(CATEGORIES),
  creator_id: Type.String(),
  duration_seconds: Type.Integer(),
  view_count: Type.Integer(),
  privacy: StringEnum(PRIVACIES),
  thumbnail_url: Url,
  video_url: Url,
  source_stream_id: Nullable(Type.String()),
  published_at: Timestamp,
  created_at: Timestamp,
};

export const Chapter = Type.Object({ title: Type.String(), start_seconds: Type.Integer({ minimum: 0 }) });
export type Chapter = Static<typeof Chapter>;

export const VideoListItem = Type.Object(videoListFields, { title: 'VideoListItem' });
export const VideoDetail = Type.Object(
  {
    ...videoListFields,
    playback_url: Url,
    chapters: Type.Array(Chapter),
    tags: Type.Array(Type.String()),
    updated_at: Timestamp,
  },
  { title: 'Video' },
);
export type VideoListItem = Static<typeof VideoListItem>;
export type VideoDetail = Static<typeof VideoDetail>;

export const VideoPage = Type.Object({ data: Type.Array(VideoListItem), pagination: Pagination });

export const ListVideosQuery = Type.Object(
  {
    creator_id: Type.Optional(Type.String({ maxLength: 64 })),
    category: Type.Optional(StringEnum(CATEGORIES)),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const MAX_TAGS = 20;
export const MAX_CHAPTERS = 100;

/** A video's tags as a request gives them (a video's update, an upload's creation). */
export function tagList(description: string) {
  return Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: MAX_TAGS, description });
}

/** A video's chapters as a request gives them. */
export function chapterList(description: string) {
  return Type.Array(
    Type.Object(
      { title: Type.String({ minLength: 1, maxLength: 120 }), start_seconds: Type.Integer({ minimum: 0 }) },
      { additionalProperties: false },
    ),
    { maxItems: MAX_CHAPTERS, description },
  );
}

export const UpdateVideoBody = Type.Object(
  {
    title: Type.Optional(
      TrimmedString({
        minLength: 1,
        maxLength: 120,
        description: '1 to 120 characters (Unicode code points) after surrounding whitespace is trimmed.',
      }),
    ),
    description: Type.Optional(
      Nullable(Type.String({ maxLength: 2000, description: 'At most 2,000 characters; null clears it.' })),
    ),
    category: Type.Optional(StringEnum(CATEGORIES)),
    privacy: Type.Optional(StringEnum(PRIVACIES)),
    tags: Type.Optional(
      tagList(`Replaces the tags: at most ${MAX_TAGS}, each 1 to 50 characters; duplicates are dropped.`),
    ),
    chapters: Type.Optional(
      chapterList(
        `Replaces the chapters (at most ${MAX_CHAPTERS}); each starts within the video. Returned sorted by start.`,
      ),
    ),
  },
  {
    additionalProperties: false,
    description: 'Any of the fields; a field not given is left as it is.',
    examples: [{ title: 'Friday jam (full set)', tags: ['jazz', 'live'] }],
  },
);
export type UpdateVideoBody = Static<typeof UpdateVideoBody>;

/** DELETE's answer, as DELETE /webhooks/{id} gives it. */
export const DeletedVideo = Type.Object({ deleted: Type.Literal(true), id: Type.String() });
