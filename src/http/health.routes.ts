// Liveness and readiness for load balancers and operators: outside /v1, without a key, and
// not rate limited.
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../db/database.ts';

export interface HealthOptions {
  database: DatabaseHandle;
  /** Further dependencies to check for readiness (Redis, say). */
  checks?: Record<string, () => Promise<void>>;
}

export async function healthRoutes(app: FastifyInstance, options: HealthOptions): Promise<void> {
  const config = { access: 'public', rateLimit: false } as const;

  app.get('/healthz', { config, schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { config, schema: { hide: true } }, async (_request, reply) => {
    const checks: Record<string, () => Promise<void>> = {
      database: async () => {
        await sql`select 1`.execute(options.database.db);
      },
      ...options.checks,
    };
    const results: Record<string, string> = {};
    let ready = true;
    for (const [name, check] of Object.entries(checks)) {
      try {
        await check();
        results[name] = 'ok';
      } catch {
        results[name] = 'unavailable';
        ready = false;
      }
    }
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', checks: results });
  });
}
