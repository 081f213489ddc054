// /dashboard/keys: the signed-in user's API keys, through the same AccountService as the CLI
// (so a revocation here reaches the API's key check exactly as `tributary keys revoke` does).
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { CsrfField } from '../auth/auth.schemas.ts';
import { sendPage } from '../layout.ts';
import { requireUser } from '../session/guards.ts';
import type { WebRoutesOptions } from '../web-options.ts';
import { keysPage } from './keys.pages.ts';

const CreateKeyForm = Type.Object(
  { _csrf: CsrfField, scope: Type.Union([Type.Literal('read'), Type.Literal('write')]) },
  { additionalProperties: false },
);
type CreateKeyForm = Static<typeof CreateKeyForm>;

const KeyParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
type KeyParams = Static<typeof KeyParams>;
const RevokeForm = Type.Object({ _csrf: CsrfField }, { additionalProperties: false });

export async function keysRoutes(app: FastifyInstance, options: WebRoutesOptions): Promise<void> {
  const { accounts } = options.services;
  const config = { access: 'page' } as const;

  app.get('/dashboard/keys', { config, schema: { hide: true } }, async (request, reply) => {
    const user = requireUser(request, reply);
    if (!user) return reply;
    return sendPage(reply, keysPage(request, await accounts.listKeysWithUsage(user.id)));
  });

  // The new key is in this response only (no-store), not behind a redirect that would need it stored.
  app.post<{ Body: CreateKeyForm }>(
    '/dashboard/keys',
    { config, schema: { hide: true, body: CreateKeyForm } },
    async (request, reply) => {
      const user = requireUser(request, reply);
      if (!user) return reply;
      const created = await accounts.createKey(user.id, request.body.scope);
      const keys = await accounts.listKeysWithUsage(user.id);
      return sendPage(reply, keysPage(request, keys, { created }), 201);
    },
  );

  app.post<{ Params: KeyParams }>(
    '/dashboard/keys/:id/revoke',
    { config, schema: { hide: true, params: KeyParams, body: RevokeForm } },
    async (request, reply) => {
      const user = requireUser(request, reply);
      if (!user) return reply;
      await accounts.revokeKeyOf(user.id, request.params.id);
      const keys = await accounts.listKeysWithUsage(user.id);
      return sendPage(reply, keysPage(request, keys, { revoked: request.params.id }));
    },
  );
}
