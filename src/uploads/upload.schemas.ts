import { Type, type Static } from 'typebox';
import { CATEGORIES } from '../shared/categories.ts';
import { Nullable, PageQuery, Pagination, StringEnum, Timestamp, TrimmedString } from '../http/schemas.ts';
import { PRIVACIES } from '../streams/stream.schemas.ts';
import { Chapter, chapterList, tagList } from '../videos/video.schemas.ts';
import { UPLOAD_STATUSES } from './upload.table.ts';

export const UploadError = Type.Object(
  {
    code: Type.String({
      description:
        'Why: `invalid_media` (not a video we can read), `no_video_track`, `processing_failed`, `upload_expired`.',
    }),
    message: Type.String(),
  },
  { title: 'UploadError' },
);

export const Upload = Type.Object(
  {
    id: Type.String({ description: 'Prefix `upl_`.' }),
    status: StringEnum(UPLOAD_STATUSES, {
      description:
        '`waiting` (no bytes yet) -> `uploading` -> `processing` (all bytes in) -> `ready` (the video is published), or `errored` / `cancelled`.',
    }),
    upload_url: Nullable(
      Type.String({
        format: 'uri',
        description:
          'The tus 1.0 upload resource for exactly this file: HEAD it for the offset, PATCH bytes to it. It is the credential for this upload alone (no API key needed). Null once the upload no longer accepts bytes.',
      }),
    ),
    expires_at: Timestamp,
    video_id: Nullable(Type.String({ description: 'The video made from the upload; null until it exists.' })),
    size: Type.Integer({ description: 'Bytes the file has, as declared at creation.' }),
    bytes_received: Type.Integer(),
    progress: Type.Integer({
      minimum: 0,
      maximum: 100,
      description:
        'Percent of the current stage: bytes received while waiting or uploading, processing while processing; 100 when ready.',
    }),
    error: Nullable(UploadError),
    title: Type.String({ description: "The video's title." }),
    creator_id: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Upload' },
);
export type Upload = Static<typeof Upload>;

export const UploadPage = Type.Object({ data: Type.Array(Upload), pagination: Pagination });

export const ListUploadsQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

export const CreateUploadBody = Type.Object(
  {
    size: Type.Integer({ minimum: 1, description: "The file's size in bytes; at most UPLOAD_MAX_BYTES." }),
    title: TrimmedString({
      minLength: 1,
      maxLength: 120,
      description: '1 to 120 characters (Unicode code points) after surrounding whitespace is trimmed.',
    }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    category: Type.Optional(StringEnum(CATEGORIES, { description: 'Defaults to `talk`.' })),
    privacy: Type.Optional(StringEnum(PRIVACIES, { default: 'public' })),
    tags: Type.Optional(tagList('At most 20, each 1 to 50 characters; duplicates are dropped.')),
    chapters: Type.Optional(chapterList('At most 100, kept as given and sorted by start.')),
  },
  { additionalProperties: false },
);
export type CreateUploadBody = Static<typeof CreateUploadBody>;
export type { Chapter };
