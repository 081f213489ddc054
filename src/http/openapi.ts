// The OpenAPI 3.1 document is generated from the route schemas, so it cannot drift from
// what the routes validate and return.
import type { SwaggerOptions } from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';

export function openApiOptions(): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tributary API',
        version: '1.0.0',
        description:
          'Live streams, on-demand videos and signed webhooks. Every endpoint needs `Authorization: Bearer <API_KEY>`; errors are `{ "error": { "code", "message", "param"? } }`.',
      },
      components: {
        securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key (tk_...)' } },
      },
      security: [{ apiKey: [] }],
    },
    hideUntagged: true,
  };
}

export async function openApiRoutes(app: FastifyInstance): Promise<void> {
  app.get('/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
}
