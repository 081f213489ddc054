// The viewer's pages: home, channels, watch pages, and subscribing (a form POST, or the same
// POST from public/subscribe.js asking for JSON so the button changes without a reload).
import { Type } from 'typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CatalogueService, parseCategory, type Listing } from '../../catalogue/catalogue.service.ts';
import type { SafeHtml } from '../html.ts';
import { pageInfo } from '../../media/watch-page.ts';
import { AppError, notFound } from '../../shared/errors.ts';
import { renderPage, sendPage } from '../layout.ts';
import { requireUser, safeNext } from '../session/guards.ts';
import { type WebRoutesOptions } from '../web-options.ts';
import { channelPath } from './cards.ts';
import { channelBody } from './channel.page.ts';
import { followingSection, homeBody, homePage } from './home.page.ts';
import { watchPage, type WatchChat } from './watch.page.ts';
import { toChatMessage } from '../../chat/chat.serializer.ts';
import type { WatchInfo } from '../../media/watch.service.ts';
import { wantsJson } from '../wants-json.ts';

/** Chat messages a video's page replays. */
const REPLAY_MESSAGES = 2000;

// Pages tolerate query parameters they do not know (a shared link may carry some).
const HomeQuery = Type.Object({
  category: Type.Optional(Type.String({ maxLength: 64 })),
  after: Type.Optional(Type.String({ maxLength: 512 })),
});
const ChannelQuery = Type.Object({ after: Type.Optional(Type.String({ maxLength: 512 })) });
const ChannelParams = Type.Object({ id: Type.String({ maxLength: 64 }) }, { additionalProperties: false });
const WatchParams = Type.Object({ id: Type.String({ maxLength: 64 }) }, { additionalProperties: false });
const SubscribeBody = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 256 })),
  next: Type.Optional(Type.String({ maxLength: 2048 })),
});

const STYLES = ['/assets/viewer.css'];
const SCRIPTS = ['/assets/subscribe.js'];

export async function viewerRoutes(app: FastifyInstance, options: WebRoutesOptions): Promise<void> {
  const { services } = options;
  const catalogue = new CatalogueService(
    services.database.db,
    services.clock,
    services.urls,
    services.cursors,
    { avatars: (ids) => services.profiles.avatars(ids) },
  );
  const subscriptions = services.subscriptions;
  const homeBodies = new WeakMap<Listing, SafeHtml>();

  app.get<{ Querystring: { category?: string; after?: string } }>(
    '/',
    { config: { access: 'page' }, schema: { hide: true, querystring: HomeQuery } },
    async (request, reply) => {
      const category = parseCategory(request.query.category);
      const listing = await catalogue.home({ category, cursor: request.query.after });
      // The listing is shared for a second (CatalogueService), and so is its markup: rendering
      // it costs more than reading it. Only the layout around it is the visitor's own.
      let body = homeBodies.get(listing);
      if (body === undefined) {
        body = homeBody(listing, {
          category,
          firstPage: request.query.after === undefined,
          now: services.clock.now(),
        });
        homeBodies.set(listing, body);
      }
      // A signed-in viewer's feed heads the first page of everything (not a category's page).
      const viewer = request.webUser;
      const following =
        viewer !== null && category === undefined && request.query.after === undefined
          ? followingSection(await catalogue.following(viewer.id))
          : null;
      return sendPage(
        reply,
        renderPage({
          title: 'Home',
          request,
          body: homePage(category, following, body),
          section: 'home',
          styles: STYLES,
        }),
      );
    },
  );

  app.get<{ Params: { id: string }; Querystring: { after?: string } }>(
    '/channels/:id',
    { config: { access: 'page' }, schema: { hide: true, params: ChannelParams, querystring: ChannelQuery } },
    async (request, reply) => {
      const creatorId = request.params.id;
      const channel = await catalogue.channel(creatorId, { cursor: request.query.after });
      if (!channel) throw notFound('user', creatorId);
      const viewer = request.webUser;
      const subscribed =
        viewer === null || viewer.id === creatorId
          ? null
          : await subscriptions.isSubscribed(viewer.id, creatorId);
      const body = channelBody(request, channel, {
        subscribe: {
          creatorId,
          subscribers: channel.subscribers,
          subscribed,
          own: viewer?.id === creatorId,
          back: channelPath(creatorId),
          notifyLive:
            subscribed === true && viewer
              ? await subscriptions.notifiesLive(viewer.id, creatorId)
              : undefined,
        },
        firstPage: request.query.after === undefined,
        now: services.clock.now(),
        profile: await services.profiles.find(creatorId),
      });
      return sendPage(
        reply,
        renderPage({ title: channel.creator.name, request, body, styles: STYLES, scripts: SCRIPTS }),
      );
    },
  );

  // A stream's or a video's page (`stream_url`, `video_url`). An id with nothing to watch is
  // the site's 404 page; the info it polls is the media plugin's.
  app.get<{ Params: { id: string } }>(
    '/watch/:id',
    { config: { access: 'page' }, schema: { hide: true, params: WatchParams } },
    async (request, reply) => {
      const info = await services.watch.find(request.params.id);
      if (!info) {
        throw new AppError(
          'resource_not_found',
          'Nothing to watch here: this stream or video does not exist, or is not published yet.',
        );
      }
      const avatar = (await services.profiles.avatars([info.creator.id])).get(info.creator.id) ?? null;
      return sendPage(
        reply,
        watchPage(
          request,
          info,
          pageInfo(info, services.urls),
          services.urls,
          avatar && services.urls.pathOf(avatar),
          await chatOf(info, request),
        ),
      );
    },
  );

  // A stream's page has its live chat; a video recorded from a stream replays that stream's chat
  // (at most REPLAY_MESSAGES of it, in the page).
  async function chatOf(info: WatchInfo, request: FastifyRequest): Promise<WatchChat> {
    if (info.kind === 'stream') {
      return { mode: 'live', socket: `/watch/${info.id}/chat`, signedIn: request.webUser !== null };
    }
    const rows = await services.chat.listForVideo(info.id, undefined, REPLAY_MESSAGES);
    return rows.length === 0 ? { mode: 'none' } : { mode: 'replay', messages: rows.map(toChatMessage) };
  }

  // Where a watch page's script learns whether to offer Subscribe or Unsubscribe: the watch
  // page itself is the same for everyone (media plugin), so the per-viewer part comes from here.
  app.get<{ Params: { id: string } }>(
    '/channels/:id/subscription',
    { config: { access: 'page' }, schema: { hide: true, params: ChannelParams } },
    async (request, reply) => {
      const creatorId = request.params.id;
      const viewer = request.webUser;
      const subscribers = await subscriptions.countSubscribers(creatorId);
      const subscribed =
        viewer === null || viewer.id === creatorId
          ? null
          : await subscriptions.isSubscribed(viewer.id, creatorId);
      return reply.header('Cache-Control', 'no-store').send({
        signed_in: viewer !== null,
        own: viewer?.id === creatorId,
        subscribed,
        subscribers,
        csrf_token: request.csrfToken,
      });
    },
  );

  const change =
    (subscribe: boolean) =>
    async (
      request: FastifyRequest<{ Params: { id: string }; Body: { next?: string } }>,
      reply: FastifyReply,
    ) => {
      const viewer = requireUser(request, reply);
      if (!viewer) return reply;
      const creatorId = request.params.id;
      // Subscribing twice keeps the one subscription; cancelling none changes nothing.
      if (subscribe) await subscriptions.subscribeOnce(viewer.id, creatorId);
      else await subscriptions.cancelBetween(viewer.id, creatorId);
      if (wantsJson(request)) {
        return reply.header('Cache-Control', 'no-store').send({
          subscribed: subscribe,
          subscribers: await subscriptions.countSubscribers(creatorId),
        });
      }
      return reply.redirect(safeNext(request.body.next, channelPath(creatorId)), 303);
    };
  const postSchema = { hide: true, params: ChannelParams, body: SubscribeBody };
  app.post<{ Params: { id: string }; Body: { notify: 'on' | 'off' } }>(
    '/channels/:id/notifications',
    {
      config: { access: 'page' },
      schema: {
        hide: true,
        params: ChannelParams,
        body: Type.Object(
          {
            _csrf: Type.String({ maxLength: 128 }),
            notify: Type.Union([Type.Literal('on'), Type.Literal('off')]),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const viewer = requireUser(request, reply);
      if (!viewer) return reply;
      await subscriptions.setNotifiesLive(viewer.id, request.params.id, request.body.notify === 'on');
      return reply.redirect(channelPath(request.params.id), 303);
    },
  );
  app.post('/channels/:id/subscribe', { config: { access: 'page' }, schema: postSchema }, change(true));
  app.post('/channels/:id/unsubscribe', { config: { access: 'page' }, schema: postSchema }, change(false));
}
