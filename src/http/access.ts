// Who may call, and how often: authentication, rate limiting and scopes, in one onRequest
// hook so they run before the body is read (decisions.md: authentication before
// validation, scope before the body).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountService, Principal } from '../accounts/account.service.ts';
import type { Scope } from '../accounts/account.table.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import type { RateLimitStore } from './rate-limit-store.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `none` opens a route to callers without a key (the OpenAPI document, health checks). */
    auth?: 'required' | 'none';
    /** The scope a key needs; `read` unless stated. */
    scope?: Scope;
    /** Health checks are polled by load balancers and are not rate limited. */
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
}

const BEARER = /^Bearer +(\S+) *$/i;

export function installAccessControl(app: FastifyInstance, options: AccessOptions): void {
  app.decorateRequest('principal', null);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const config = request.routeOptions.config;
    if (config.rateLimit === false) return;

    const header = request.headers.authorization;
    const presented = header === undefined ? undefined : BEARER.exec(header)?.[1];
    const principal = presented === undefined ? null : await options.accounts.authenticate(presented);
    request.principal = principal;

    await applyRateLimit(request, reply, principal, options);

    // Unknown paths under /v1 answer 401 to anonymous callers, like the real routes would.
    const isApiPath = request.url.startsWith('/v1/');
    const authRequired = config.auth === 'required' || (config.auth === undefined && isApiPath);
    if (!authRequired) return;
    if (presented === undefined) {
      throw new AppError(
        'authentication_required',
        'Send an API key in the Authorization header: "Authorization: Bearer <API_KEY>".',
      );
    }
    if (!principal) throw new AppError('invalid_api_key', 'The API key is unknown or has been revoked.');
    if (config.scope === 'write' && principal.scope !== 'write') {
      throw new AppError('insufficient_scope', 'This action needs an API key with the write scope.');
    }
  });
}

async function applyRateLimit(
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal | null,
  options: AccessOptions,
): Promise<void> {
  const limit = principal ? options.perKeyLimit : options.perIpLimit;
  const bucket = principal ? `key:${principal.keyId}` : `ip:${request.ip}`;
  const now = options.clock.now();
  const { count, resetAt } = await options.rateLimits.hit(bucket, now);
  reply.header('X-RateLimit-Limit', limit);
  reply.header('X-RateLimit-Remaining', Math.max(0, limit - count));
  reply.header('X-RateLimit-Reset', Math.ceil(resetAt / 1000));
  if (count > limit) {
    reply.header('Retry-After', Math.max(1, Math.ceil((resetAt - now) / 1000)));
    throw new AppError(
      'rate_limit_exceeded',
      principal
        ? `This API key has made more than ${limit} requests this minute; retry after the window resets.`
        : `More than ${limit} unauthenticated requests came from this address this minute; retry after the window resets.`,
    );
  }
}

/** The caller of a route that requires a key (the access hook has already refused others). */
export function callerOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('authentication_required', 'An API key is required.');
  return request.principal;
}
