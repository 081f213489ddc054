// Who may call, and how often: authentication, rate limiting and scopes, checked in the app's
// onRequest hook so they run before the body is read (decisions.md: authentication before
// validation, scope before the body).
//
// What a route needs comes from the route the router matched, never from the request's URL
// text: the router decodes percent-escapes and accepts absolute-form targets
// (`POST http://host/v1/...`), so a prefix test on the raw URL can be stepped around.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { AccountService, Principal } from '../accounts/account.service.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import { clientKey } from '../shared/client-address.ts';
import type { RateLimitHit, RateLimitStore } from './rate-limit-store.ts';

/**
 * Who may call a route: `public` without a key (health checks, the OpenAPI document, media and
 * watch pages), `read` with any valid key, `write` with a key of the write scope, `page` for
 * the web app's pages (no key: a page knows its user from the session cookie, src/web/; a
 * signed-in user's requests count against their own budget, the size of a key's, a visitor's
 * against the address's, and state-changing ones need a CSRF token).
 */
export type Access = 'public' | 'read' | 'write' | 'page';

const ACCESS_LEVELS: readonly Access[] = ['public', 'read', 'write', 'page'];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Every route must say; one that does not stops the app at start-up. */
    access?: Access;
    /** Health checks and media are polled and are not rate limited. */
    rateLimit?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export interface AccessOptions {
  accounts: AccountService;
  rateLimits: RateLimitStore;
  clock: Clock;
  perKeyLimit: number;
  perIpLimit: number;
  /**
   * The signed-in user of a page request, from its session cookie (src/web/session/): their
   * page views are counted per user with the per-key budget, never against the address's.
   */
  pageUser?: (request: FastifyRequest) => Promise<string | undefined>;
}

/** Whose budget a request is counted against. */
type Caller =
  | { kind: 'key'; principal: Principal }
  | { kind: 'user'; userId: string }
  | { kind: 'address'; page: boolean };

export interface RouteAccess {
  method: string;
  url: string;
  access: Access;
}

/** The API's routes live under this prefix; unknown paths under it ask for a key too. */
const API_PREFIX = '/v1';

const BEARER = /^Bearer +(\S+) *$/i;

const declarations = new WeakMap<FastifyInstance, RouteAccess[]>();

/** Each route's declared access, as registered (for tests and documentation). */
export function declaredAccess(app: FastifyInstance): readonly RouteAccess[] {
  return declarations.get(app) ?? [];
}

/** The per-request check: `done` gets the refusal (or nothing) once the caller is known and counted. */
export type AccessCheck = (
  request: FastifyRequest,
  reply: FastifyReply,
  done: (error?: Error) => void,
) => void;

/**
 * Declares `request.principal` and refuses, at start-up, any route that does not say who may
 * call it; returns the check the app's one onRequest hook runs on every request (app.ts: each
 * hook Fastify runs costs a small request about as much as the checks inside it). Call it
 * before any route is registered: routes registered earlier are not checked at start-up and
 * answer only to write keys.
 */
export function createAccessCheck(app: FastifyInstance, options: AccessOptions): AccessCheck {
  app.decorateRequest('principal', null);

  const table: RouteAccess[] = [];
  declarations.set(app, table);
  // A forgotten declaration must not quietly mean "read" (or "public"): refuse to start.
  app.addHook('onRoute', (route: RouteOptions) => {
    const access = route.config?.access;
    const methods = [route.method].flat();
    if (!isAccess(access)) {
      throw new Error(
        `Route ${methods.join(',')} ${route.url} does not declare its access: ` +
          `add config: { access: 'public' | 'read' | 'write' | 'page' } to its options.`,
      );
    }
    for (const method of methods) table.push({ method, url: route.url, access });
  });

  // The check runs on every request, so it finishes without waiting whenever it can: a key
  // looked up within the last half second and the in-process rate limit need no I/O, and each
  // await would cost the request a promise and a turn.
  return (request, reply, done) => {
    const access = accessOf(request);
    const limited = request.routeOptions.config.rateLimit !== false;
    if (access === 'public' && !limited) {
      done();
      return;
    }
    // A page ignores API keys: it is limited per signed-in user, or per address for a visitor.
    const header = access === 'page' ? undefined : request.headers.authorization;
    const presented = header === undefined ? undefined : BEARER.exec(header)?.[1];
    const admit = (principal: Principal | null, userId?: string): void => {
      request.principal = principal;
      if (!limited) {
        done(refusal(access, presented, principal));
        return;
      }
      const caller: Caller = principal
        ? { kind: 'key', principal }
        : userId !== undefined
          ? { kind: 'user', userId }
          : { kind: 'address', page: access === 'page' };
      const bucket =
        caller.kind === 'key'
          ? `key:${caller.principal.keyId}`
          : caller.kind === 'user'
            ? `user:${caller.userId}`
            : `ip:${clientKey(request.ip)}`;
      const now = options.clock.now();
      const hit = options.rateLimits.hit(bucket, now);
      const decide = (counted: RateLimitHit): void => {
        done(overLimit(reply, caller, counted, now, options) ?? refusal(access, presented, principal));
      };
      if (hit instanceof Promise) hit.then(decide, done);
      else decide(hit);
    };
    if (access === 'page' && limited && options.pageUser) {
      options.pageUser(request).then((userId) => {
        admit(null, userId);
      }, done);
      return;
    }
    const known = presented === undefined ? null : options.accounts.knownPrincipal(presented);
    if (known !== undefined) admit(known);
    else options.accounts.authenticate(presented as string).then(admit, done);
  };
}

/** Why the caller may not call this route, if it may not; checked after the rate limit. */
function refusal(
  access: Access,
  presented: string | undefined,
  principal: Principal | null,
): AppError | undefined {
  if (access === 'public' || access === 'page') return undefined;
  if (presented === undefined) {
    return new AppError(
      'authentication_required',
      'Send an API key in the Authorization header: "Authorization: Bearer <API_KEY>".',
    );
  }
  if (!principal) return new AppError('invalid_api_key', 'The API key is unknown or has been revoked.');
  if (access === 'write' && principal.scope !== 'write') {
    return new AppError('insufficient_scope', 'This action needs an API key with the write scope.');
  }
  return undefined;
}

function isAccess(value: unknown): value is Access {
  return ACCESS_LEVELS.includes(value as Access);
}

function accessOf(request: FastifyRequest): Access {
  const declared = request.routeOptions.config.access;
  if (isAccess(declared)) return declared;
  // Unknown paths under /v1 answer 401 to anonymous callers, like the real routes would. The
  // path is read as the router reads it, so any spelling of /v1 counts; a misread here can
  // only turn one 404 into a 401 or back, as no handler runs.
  if (request.is404) return isUnderApiPrefix(request.url) ? 'read' : 'public';
  // Start-up refuses routes without a declaration; one registered before the hook was
  // installed gets the strictest answer.
  return 'write';
}

/** The request target's path as the router matches it: origin of absolute-form dropped, decoded. */
export function isUnderApiPrefix(target: string): boolean {
  const origin = /^https?:\/\/[^/?#]*/i.exec(target);
  const path = (origin ? target.slice(origin[0].length) : target).split(/[?#]/, 1)[0] ?? '';
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // malformed escapes: judged as written
  }
  return decoded === API_PREFIX || decoded.startsWith(`${API_PREFIX}/`);
}

/** Sets the rate-limit headers; the refusal when this request is over the limit. */
function overLimit(
  reply: FastifyReply,
  caller: Caller,
  { count, resetAt }: RateLimitHit,
  now: number,
  options: AccessOptions,
): AppError | undefined {
  const limit = caller.kind === 'address' ? options.perIpLimit : options.perKeyLimit;
  reply.header('X-RateLimit-Limit', limit);
  reply.header('X-RateLimit-Remaining', Math.max(0, limit - count));
  reply.header('X-RateLimit-Reset', Math.ceil(resetAt / 1000));
  if (count <= limit) return undefined;
  const retryAfter = Math.max(1, Math.ceil((resetAt - now) / 1000));
  reply.header('Retry-After', retryAfter);
  const wait = `wait ${retryAfter} ${retryAfter === 1 ? 'second' : 'seconds'}, then reload the page`;
  return new AppError('rate_limit_exceeded', limitMessage(caller, limit, wait));
}

/** What the refusal says, to whom it is said: a program with a key, a signed-in person, a visitor. */
function limitMessage(caller: Caller, limit: number, wait: string): string {
  switch (caller.kind) {
    case 'key':
      return `This API key has made more than ${limit} requests this minute; retry after the window resets.`;
    case 'user':
      return `Your account has made more than ${limit} requests this minute; ${wait}.`;
    case 'address':
      return caller.page
        ? `More than ${limit} page requests came from this address this minute; ${wait}. Signing in gives you a budget of your own.`
        : `More than ${limit} unauthenticated requests came from this address this minute; retry after the window resets.`;
  }
}

/** The caller of a route that requires a key (the access hook has already refused others). */
export function callerOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('authentication_required', 'An API key is required.');
  return request.principal;
}
