import { Type } from 'typebox';
import { VIEWER_ID_PATTERN } from './viewer-identity.ts';

export const PresenceParams = Type.Object({
  id: Type.String({ maxLength: 64, description: 'A stream id (`str_...`) or a video id (`vid_...`).' }),
});

export const PresenceQuery = Type.Object(
  {
    viewer: Type.Optional(
      Type.String({
        pattern: VIEWER_ID_PATTERN,
        description:
          'An opaque id the player keeps for as long as it plays, for players that keep no cookies.',
      }),
    ),
  },
  { additionalProperties: false },
);
