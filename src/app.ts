// Builds the HTTP application and never listens: the server starts it, tests inject into it
// or listen on an ephemeral port.
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type preParsingHookHandler,
} from 'fastify';
import type { Logger } from 'pino';
import { HTTP_LIMIT_DEFAULTS, type HttpLimitsConfig } from './config.ts';
import type { Services } from './container.ts';
import { createAccessCheck } from './http/access.ts';
import { BODY_LIMIT_BYTES } from './http/body-limit.ts';
import { installIdempotency } from './idempotency/idempotency.hooks.ts';
import { deferredChildLogger } from './http/request-logger.ts';
import {
  clientErrorHandler,
  declaresBody,
  installErrorHandling,
  routeNotFound,
  sendError,
  toAppError,
} from './http/error-handler.ts';
import { closeAfterRefusal, isDrainingBody, markContinued } from './http/body-drain.ts';
import { healthRoutes } from './http/health.routes.ts';
import { openApiRoutes, openApiOptions } from './http/openapi.ts';
import type { RateLimitStore } from './http/rate-limit-store.ts';
import { compileResponseSerializer } from './http/response-serializer.ts';
import { accessLogFor } from './shared/logger.ts';
import { validatorCompiler } from './http/validation.ts';
import { AppError } from './shared/errors.ts';
import { newId } from './shared/ids.ts';
import { streamRoutes } from './streams/stream.routes.ts';
import { ingestSettingsRoutes } from './channels/ingest-settings.routes.ts';
import { videoRoutes } from './videos/video.routes.ts';
import { simulcastRoutes } from './simulcast/simulcast.routes.ts';
import { uploadRoutes } from './uploads/upload.routes.ts';
import { tusRoutes } from './uploads/tus.routes.ts';
import { whipRoutes } from './whip/whip.routes.ts';
import { secretRotationRoutes } from './webhooks/secret-rotation.routes.ts';
import { webhookRoutes } from './webhooks/webhook.routes.ts';
import { webhookManagementRoutes } from './webhooks/webhook-management.routes.ts';
import { deliveryLogRoutes } from './webhooks/delivery-log.routes.ts';
import { createWebSessions, errorPages, webPlugin } from './web/web.plugin.ts';
import { recordHttpRequest } from './metrics/process-metrics.ts';
import { sessionUserOf } from './web/session/session.plugin.ts';
import { chatRoutes } from './chat/chat.routes.ts';
import { whepRoutes } from './realtime/whep.routes.ts';
import { chatSocketRoutes } from './chat/chat-socket.routes.ts';
import { ChatHub } from './chat/chat-hub.ts';
import { CHAT_DEFAULTS } from './chat/chat-realtime.ts';
import type { ChatConfig } from './config.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The handler streams a large body to disk itself (tus uploads): no request-timeout
     * deadline on the body; the idle timeout still closes a connection that stops sending.
     */
    streamedBody?: boolean;
    /**
     * The path carries a secret (a one-time link's token): the access log writes the route's
     * pattern (`/sign-in/link/:token`) instead of the path.
     */
    secretInPath?: boolean;
  }
}

export interface AppOptions {
  services: Services;
  rateLimits: RateLimitStore;
  rateLimitPerKey: number;
  rateLimitPerIp: number;
  /** Extra readiness checks for GET /readyz (Redis, when the rate limits live there). */
  readinessChecks?: Record<string, () => Promise<void>>;
  /** Fastify's trustProxy: who may tell us the client's address. */
  trustProxy?: boolean | string;
  /** Counts requests by route and status for the metrics endpoint (on when METRICS_PORT is set). */
  recordMetrics?: boolean;
  logger?: Logger | undefined;
  /** Extra routes (media, watch pages, webhooks) registered by their features. */
  plugins?: ((app: FastifyInstance) => Promise<void>)[];
  /** Slow-client and connection limits; the configuration's defaults for any not given. */
  http?: Partial<HttpLimitsConfig>;
  /** Chat sockets per address (CHAT_CONNECTIONS_PER_ADDRESS) and the slow-reader bound. */
  chat?: Partial<Pick<ChatConfig, 'connectionsPerAddress'>> & { sendBufferLimit?: number | undefined };
}

// Methods whose bodies Fastify never reads: one sent anyway is refused, not ignored.
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'TRACE']);

/**
 * An upgrade request answered through Fastify was refused (an accepted one is hijacked and never
 * answered here). Its socket left Node's HTTP server at the upgrade: no timeout ends it, and
 * nothing else would close it (one refused by the rate limit, or for a malformed URL, stayed
 * open for good, each one holding a place under HTTP_MAX_CONNECTIONS), so it is ended once the
 * answer is out. A plain request that merely names an Upgrade header loses only its keep-alive.
 */
function endRefusedUpgrade(request: FastifyRequest, reply: FastifyReply): void {
  if (request.headers.upgrade === undefined) return;
  const socket = request.raw.socket;
  if (reply.raw.writableFinished) socket.destroySoon();
  else
    reply.raw.once('finish', () => {
      socket.destroySoon();
    });
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { services } = options;
  const limits = { ...HTTP_LIMIT_DEFAULTS, ...options.http };
  // Typed as Fastify's logger so the instance (and every plugin's) is typed with it, not pino's.
  const loggerInstance: FastifyBaseLogger | undefined = options.logger;
  const app = Fastify({
    // Slow clients: the whole request must arrive within requestTimeout (Node checks pending
    // requests every connectionsCheckingInterval, 30 s unless told, so it is shortened to
    // enforce the limit within a second), a connection with no traffic is closed after
    // connectionTimeout, and an idle kept-alive one after keepAliveTimeout.
    // Node's own timer covers the headers only; the body's deadline is the bodyDeadline hook
    // below, which routes that stream a large body to disk (tus uploads) do without: for them
    // the idle timeout is the bound, as a 2 GiB upload may take an hour on a slow line.
    requestTimeout: 0,
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      requestTimeout: 0,
      headersTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(limits.requestTimeoutMs / 4))),
      // Checked in the onRequest hook below, so the refusal is in the error envelope.
      requireHostHeader: false,
    },
    // Unparseable HTTP and timed-out requests are answered in the envelope too.
    clientErrorHandler,
    ...(loggerInstance ? { loggerInstance } : {}),
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: deferredChildLogger,
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: false,
    genReqId: () => newId('req'),
    // Replaced by the draining hook below, which answers in the error envelope.
    return503OnClosing: false,
    trustProxy: options.trustProxy ?? false,
    // Malformed URLs (bad percent-encoding, a path parameter over the router's limit) get the
    // envelope like every other error. They are answered before any hook runs, so what the
    // hooks below add is added here: the request id. (sendError closes when a body is pending.)
    frameworkErrors: (error, request, reply) => {
      void reply.header('X-Request-Id', request.id);
      void sendError(reply, toAppError(error, request));
      // No onResponse hook runs for these: a refused upgrade is ended here.
      endRefusedUpgrade(request, reply);
    },
    ajv: { customOptions: { removeAdditional: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  // More connections are closed as soon as they are accepted.
  app.server.maxConnections = limits.maxConnections;

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(({ schema }) => compileResponseSerializer(schema));
  // Bodies are JSON only; anything else is invalid_content_type.
  app.removeContentTypeParser(['text/plain']);

  // While closing, requests still arriving on kept-alive connections are shed so the load
  // balancer retries them elsewhere; requests already in flight finish.
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });
  // A client that asks before sending its body (Expect: 100-continue) is told to go on only
  // once it is authenticated and its route exists; otherwise it gets the refusal instead.
  // (Without a checkContinue listener Node says 100 Continue to everyone at once.) Only routes
  // that take a body get the hook: a preParsing hook anywhere would make every request, GETs
  // included, run that phase.
  app.server.on('checkContinue', (request, response) => app.server.emit('request', request, response));
  const continueIfExpected: preParsingHookHandler = (request, reply, payload, done) => {
    const expectsContinue = request.headers.expect?.toLowerCase() === '100-continue';
    if (expectsContinue && !request.is404 && !reply.raw.headersSent) {
      // Told to go on, the client sends its body: a refusal after this reads it out.
      markContinued(request.raw);
      reply.raw.writeContinue();
    }
    done(null, payload);
  };
  // A body must arrive within the request timeout of its route being found; whatever has not
  // is answered 408 in the envelope and the connection closed (as Node does for headers).
  const bodyDeadline: preParsingHookHandler = (request, reply, payload, done) => {
    const raw = request.raw;
    if (!raw.complete) {
      const timer = setTimeout(() => {
        if (raw.complete) return;
        // A refused body being read out has had its answer: another would come unasked.
        if (isDrainingBody(raw)) {
          raw.socket.destroy();
          return;
        }
        const timeout = Object.assign(new Error('request timeout'), {
          code: 'ERR_HTTP_REQUEST_TIMEOUT',
          bytesParsed: 0,
          rawPacket: { type: 'Buffer', data: [] },
        });
        clientErrorHandler.call(app, timeout, raw.socket);
      }, limits.requestTimeoutMs);
      // The socket's close too: a request whose connection goes after its answer is sent
      // (a refused body cut off mid-way) emits neither of its own.
      const socket = raw.socket;
      const clear = () => {
        clearTimeout(timer);
        socket.off('close', clear);
      };
      raw.once('end', clear);
      raw.once('close', clear);
      socket.once('close', clear);
    }
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    if ([route.method].flat().every((method) => BODYLESS_METHODS.has(method))) return;
    const deadline = route.config?.streamedBody === true ? [] : [bodyDeadline];
    // First, as they ran when they were installed for every route.
    route.preParsing = [continueIfExpected, ...deadline, ...[route.preParsing ?? []].flat()];
  });
  // One line per request, after the response: method, path, status and time, never headers.
  // It goes to the root logger with the request id as a field, which is the line a child
  // logger would write, without making one for every request.
  const accessLog = accessLogFor(app.log);
  const recordMetrics = options.recordMetrics === true;
  app.addHook('onResponse', (request, reply, done) => {
    // The route's template, never its path: labels stay bounded whatever the URL.
    if (recordMetrics) {
      recordHttpRequest(
        request.routeOptions.url ?? 'unmatched',
        request.method,
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
    }
    accessLog({
      reqId: request.id,
      method: request.method,
      url: request.routeOptions.config.secretInPath === true ? (request.routeOptions.url ?? '') : request.url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 100) / 100,
      key: request.principal?.keyId,
    });
    endRefusedUpgrade(request, reply);
    done();
  });

  // The web app's sessions, found once per request: the access check counts a signed-in user's
  // page views per user, and an error page outside the web app's routes shows who is signed in.
  const webSessions = createWebSessions(services);
  const checkAccess = createAccessCheck(app, {
    accounts: services.accounts,
    rateLimits: options.rateLimits,
    clock: services.clock,
    perKeyLimit: options.rateLimitPerKey,
    perIpLimit: options.rateLimitPerIp,
    pageUser: async (request) => (await webSessions.session(request))?.user.id,
  });
  // PUBLIC_URL is https: browsers are told to come back over https only (a year), on every
  // answer, errors included.
  const strictTransport = new URL(services.urls.publicUrl).protocol === 'https:';
  // What every request goes through before its route's own work, in one onRequest hook: each
  // hook Fastify runs costs a small request about as much as the checks inside it (three
  // hooks were a tenth of an owner's read of a stream). It never waits when it need not, so it
  // takes Fastify's callback form and skips a promise.
  // 1. The request id and transport headers, a Host header on HTTP/1.1, shedding while closing.
  // 2. Who may call and how often (src/http/access.ts).
  // 3. After authentication (an anonymous caller is asked for a key first) and before the body
  //    is read: an unknown route, and a body on a method that takes none. (For a method without
  //    a body nothing happens between the onRequest hooks and validation, so this is where a
  //    preValidation hook would run, without a phase of its own.)
  const afterAccess = (request: FastifyRequest): AppError | undefined => {
    if (request.is404) return routeNotFound(request);
    if (BODYLESS_METHODS.has(request.method) && declaresBody(request.headers)) {
      return new AppError(
        'parameter_unknown',
        `A ${request.method} request takes no body; send its parameters in the query string.`,
      );
    }
    return undefined;
  };
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    if (strictTransport) reply.header('Strict-Transport-Security', 'max-age=31536000');
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
      closeAfterRefusal(request.raw);
      reply.header('Connection', 'close');
      done(new AppError('malformed_request', 'An HTTP/1.1 request must have a Host header.'));
      return;
    }
    if (draining) {
      closeAfterRefusal(request.raw);
      reply.header('Connection', 'close').header('Retry-After', 1);
      done(new AppError('service_unavailable', 'The server is shutting down; retry the request.'));
      return;
    }
    checkAccess(request, reply, (error) => {
      done(error ?? afterAccess(request));
    });
  });
  // Routes with config.idempotent honour Idempotency-Key (after access: keys are per account).
  installIdempotency(app, services.idempotency);
  // A browser asking for a page that does not exist gets the site's 404 page (error-handler.ts
  // says when).
  installErrorHandling(app, errorPages(webSessions));

  await app.register(swagger, openApiOptions());
  await app.register(healthRoutes, { database: services.database, checks: options.readinessChecks ?? {} });
  await app.register(
    async (v1) => {
      await v1.register(openApiRoutes);
      await v1.register(streamRoutes, {
        streams: services.streams,
        cursors: services.cursors,
        urls: services.urls,
        health: services.streamHealth,
      });
      await v1.register(ingestSettingsRoutes, { channels: services.channels, urls: services.urls });
      await v1.register(simulcastRoutes, { simulcast: services.simulcast });
      await v1.register(videoRoutes, {
        videos: services.videos,
        cursors: services.cursors,
        urls: services.urls,
      });
      await v1.register(uploadRoutes, { uploads: services.uploads, cursors: services.cursors });
      await v1.register(webhookRoutes, { webhooks: services.webhooks });
      await v1.register(secretRotationRoutes, { webhooks: services.webhooks });
      await v1.register(webhookManagementRoutes, { management: services.webhookManagement });
      await v1.register(deliveryLogRoutes, {
        management: services.webhookManagement,
        cursors: services.cursors,
      });
      await v1.register(chatRoutes, { chat: services.chat, cursors: services.cursors });
      await v1.register(whepRoutes, { db: services.database.db, realtime: services.realtime });
    },
    { prefix: '/v1' },
  );
  // WHIP ingest (src/whip/): the stream key is the bearer token, the body an SDP offer.
  await app.register(whipRoutes(services.whip));
  // Uploads' bytes (tus), outside /v1: the URL is the credential, not an API key.
  await app.register(tusRoutes({ uploads: services.uploads, clock: services.clock, logger: options.logger }));
  // The watch pages' chat sockets (src/chat/), signed in by the web app's session cookie.
  const chatHub = new ChatHub(services.chat, app.log, options.chat?.sendBufferLimit);
  app.decorate('chatHub', chatHub);
  await app.register(
    chatSocketRoutes({
      hub: chatHub,
      chat: services.chat,
      userOf: sessionUserOf(services.sessions, webSessions.cookies),
      publicOrigin: services.urls.origin,
      connectionsPerAddress: options.chat?.connectionsPerAddress ?? CHAT_DEFAULTS.connectionsPerAddress,
      logger: app.log,
    }),
  );
  // The web app's pages and the assets of every page (the watch pages' too).
  await app.register(webPlugin(services, webSessions));
  for (const plugin of options.plugins ?? []) await app.register(plugin);
  await app.ready();
  return app;
}
