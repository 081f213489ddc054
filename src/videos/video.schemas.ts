import { Type, type Static } from 'typebox';
import { CATEGORIES } from '../shared/categories.ts';
import { Nullable, PageQuery, Pagination, StringEnum, Timestamp, Url } from '../http/schemas.ts';
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
