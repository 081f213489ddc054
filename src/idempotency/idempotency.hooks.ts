// Idempotency-Key over HTTP, for routes that opt in with `config: { idempotent: true }`. The
// header is read before the body (a bad key is refused unread), the key is claimed once the
// body is parsed and before it is validated (so a validation failure is the request's outcome
// too), and the outcome is stored before the response is written, so a retry that follows the
// response always finds it. On other routes the header is ignored.
import type {
  FastifyInstance,
  FastifyRequest,
  onRequestHookHandler,
  onResponseHookHandler,
  onSendHookHandler,
  preValidationHookHandler,
  RouteOptions,
} from 'fastify';
import { Type } from 'typebox';
import { callerOf } from '../http/access.ts';
import { ErrorResponse } from '../http/schemas.ts';
import { AppError } from '../shared/errors.ts';
import { requestFingerprint } from './fingerprint.ts';
import type { Claim, IdempotencyService } from './idempotency.service.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route honours the Idempotency-Key header (POST routes that create something). */
    idempotent?: boolean;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
const MAX_KEY_LENGTH = 255;
// Printable ASCII; Node has already removed surrounding spaces and tabs.
const KEY_PATTERN = /^[\x20-\x7E]+$/;

const IdempotencyHeaders = Type.Object({
  [IDEMPOTENCY_HEADER]: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: MAX_KEY_LENGTH,
      pattern: '^[\\x20-\\x7E]+$',
      description:
        'Makes the request safe to retry: a repeat with the same key and the same body within 24 hours ' +
        'returns the first response (with `Idempotent-Replayed: true`) and creates nothing. ' +
        '1 to 255 printable ASCII characters, unique per request (a UUID, say); scoped to the account.',
    }),
  ),
});

const IdempotencyConflict = {
  ...ErrorResponse,
  description:
    'idempotency_key_reused: the key was used for a different request; idempotency_key_in_use: ' +
    "the first request with the key is still running (retry later). Other 409s are the route's own.",
};

/** Installs the hooks on every route that opts in; call it before any route is registered. */
export function installIdempotency(app: FastifyInstance, service: IdempotencyService): void {
  const keys = new WeakMap<FastifyRequest, string>();
  const claims = new WeakMap<FastifyRequest, Claim>();

  const readKey: onRequestHookHandler = (request, _reply, done) => {
    const key = presentedKey(request.raw.rawHeaders);
    if (key instanceof AppError) {
      done(key);
      return;
    }
    if (key !== undefined) keys.set(request, key);
    done();
  };

  // Callback-style hooks, as the app's others, so a request without a key pays no promise.
  const claimKey: preValidationHookHandler = (request, reply, done) => {
    const key = keys.get(request);
    if (key === undefined) {
      done();
      return;
    }
    const fingerprint = requestFingerprint({
      method: request.method,
      route: request.routeOptions.url ?? '',
      params: request.params,
      query: request.query,
      body: request.body,
    });
    service.claim(callerOf(request).userId, key, fingerprint).then(
      (outcome) => {
        if (outcome.kind === 'claimed') {
          claims.set(request, outcome.claim);
          done();
          return;
        }
        // Answered here: the handler does not run.
        void reply
          .code(outcome.status)
          .header(REPLAYED_HEADER, 'true')
          .type('application/json; charset=utf-8')
          .send(outcome.body);
      },
      (error: unknown) => {
        if (error instanceof AppError && error.code === 'idempotency_key_in_use') {
          void reply.header('Retry-After', 1);
        }
        done(error as Error);
      },
    );
  };

  const storeOutcome: onSendHookHandler = (request, reply, payload, done) => {
    const claim = claims.get(request);
    if (!claim) {
      done(null, payload);
      return;
    }
    claims.delete(request);
    const kept = isKeptOutcome(reply.statusCode) && typeof payload === 'string';
    const settle = kept
      ? service.complete(claim, reply.statusCode, payload).then((stored) => {
          if (!stored) request.log.warn('idempotency claim was taken over before its response was stored');
        })
      : service.release(claim);
    settle
      .catch((error: unknown) => {
        // The client still gets its answer; a retry within the lock time gets in_use, later runs again.
        request.log.error({ err: error }, 'idempotency outcome not stored');
      })
      .finally(() => {
        done(null, payload);
      });
  };

  // After the response, so a prune never delays one.
  const prune: onResponseHookHandler = (request, _reply, done) => {
    service.pruneIfDue().catch((error: unknown) => {
      request.log.error({ err: error }, 'pruning expired idempotency keys failed');
    });
    done();
  };

  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.config?.idempotent !== true) return;
    if (route.schema?.headers !== undefined) {
      throw new Error(`Route ${route.url} is idempotent and declares headers; merge them here first.`);
    }
    route.onRequest = [...[route.onRequest ?? []].flat(), readKey];
    route.preValidation = [claimKey, ...[route.preValidation ?? []].flat()];
    route.onSend = [...[route.onSend ?? []].flat(), storeOutcome];
    route.onResponse = [...[route.onResponse ?? []].flat(), prune];
    // The header and the 409s appear in the OpenAPI document (a route's own 409 keeps its codes in
    // the route's description; this one names the idempotency codes).
    const response = (route.schema?.response ?? {}) as Record<string, unknown>;
    route.schema = {
      ...route.schema,
      headers: IdempotencyHeaders,
      response: { ...response, 409: IdempotencyConflict },
    };
  });
}

/**
 * Which outcomes a key keeps: whatever the request itself decided, success or a client error
 * (validation, a URL already registered). Not kept, so a retry runs again: server errors, 429
 * and 408 (about the moment, not the request).
 */
export function isKeptOutcome(status: number): boolean {
  return status < 500 && status !== 408 && status !== 429;
}

/** The key the request sends, none, or why it is refused (Node would join repeated headers). */
function presentedKey(rawHeaders: readonly string[]): string | undefined | AppError {
  let key: string | undefined;
  for (let index = 0; index < rawHeaders.length; index += 2) {
    if (rawHeaders[index]?.toLowerCase() !== IDEMPOTENCY_HEADER) continue;
    if (key !== undefined) return invalidKey('Send one Idempotency-Key header, not several.');
    key = (rawHeaders[index + 1] ?? '').replace(/^[ \t]+|[ \t]+$/g, '');
  }
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !KEY_PATTERN.test(key)) {
    return invalidKey(`The Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} printable ASCII characters.`);
  }
  return key;
}

function invalidKey(message: string): AppError {
  return new AppError('idempotency_key_invalid', message, 'Idempotency-Key');
}
