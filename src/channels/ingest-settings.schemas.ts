import { Type, type Static } from 'typebox';
import { Timestamp } from '../http/schemas.ts';

export const IngestSettings = Type.Object(
  {
    rtmp_url: Type.String({ description: 'Server URL to enter in the streaming software.' }),
    stream_key: Type.String({
      description:
        "The caller's channel stream key: secret, and it stays valid until reset. Publishing with it makes the caller's next stream go live (see docs/api-decisions.md).",
    }),
    key_issued_at: Timestamp,
  },
  { title: 'IngestSettings' },
);
export type IngestSettings = Static<typeof IngestSettings>;
