// "Go live from the browser" (src/web/dashboard/go-live.routes.ts): its offer and its Stop are
// state-changing page requests. The page's own requests go through to a running WHIP ingest:
// the test app has no media, so WHIP's door is opened here onto a sink that drops the media
// (the real WebRTC stack and ffmpeg answer), and closed again once the request has answered.
import type { FlvSink } from '../../src/rtmp/publisher.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { makeOffer } from '../helpers/whip-offer.ts';
import type { CsrfContext, CsrfRoute } from './csrf-routes.ts';

const DROP: FlvSink = { write: () => undefined, end: () => undefined };

/** Runs `step` with WHIP admitting every publisher, then closes every WHIP session. */
async function withWhip(context: CsrfContext, step: (offer: string) => Promise<Response>): Promise<Response> {
  const { whip } = context.server;
  whip.attach(
    (publisher) => {
      publisher.accept(DROP);
    },
    {
      logger: createLogger('silent'),
      ffmpegPath: 'ffmpeg',
      maxSessions: 4,
    },
  );
  const cleanups: (() => void)[] = [];
  try {
    const { sdp } = await makeOffer({
      after: (fn: () => void) => {
        cleanups.push(fn);
      },
    });
    return await step(sdp);
  } finally {
    await whip.close();
    for (const cleanup of cleanups) cleanup();
  }
}

async function ownStream(context: CsrfContext): Promise<string> {
  return (await context.server.services.streams.create(context.userId, { title: 'From the browser' })).stream
    .id;
}

function postOffer(context: CsrfContext, id: string, token: string, sdp: string): Promise<Response> {
  return fetch(`${context.server.origin}/dashboard/streams/${id}/whip`, {
    method: 'POST',
    headers: {
      cookie: context.user.cookie,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/sdp',
      accept: 'application/json',
      'x-csrf-token': token,
    },
    body: sdp,
  });
}

export const CSRF_ROUTES: CsrfRoute[] = [
  {
    method: 'POST',
    route: '/dashboard/streams/:id/whip',
    async setup(context) {
      const id = await ownStream(context);
      return {
        as: 'user',
        path: `/dashboard/streams/${id}/whip`,
        form: {},
        accept: (token) => withWhip(context, (sdp) => postOffer(context, id, token, sdp)),
      };
    },
  },
  {
    method: 'POST',
    route: '/dashboard/streams/:id/whip/:session/stop',
    async setup(context) {
      const id = await ownStream(context);
      return {
        as: 'user',
        path: `/dashboard/streams/${id}/whip/no-such-session/stop`,
        form: {},
        accept: (token) =>
          withWhip(context, async (sdp) => {
            const offered = await postOffer(context, id, token, sdp);
            await offered.body?.cancel();
            return fetch(`${context.server.origin}${offered.headers.get('location') ?? ''}/stop`, {
              method: 'POST',
              headers: {
                cookie: context.user.cookie,
                'sec-fetch-site': 'same-origin',
                accept: 'application/json',
                'x-csrf-token': token,
              },
            });
          }),
      };
    },
  },
];
