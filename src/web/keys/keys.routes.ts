// /dashboard/keys: the signed-in user's API keys, through the same AccountService as the CLI
// (so a revocation here reaches the API's key check exactly as `tributary keys revoke` does).
import { verificationNotice } from '../account/account.routes.ts';
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { CsrfField } from '../auth/auth.schemas.ts';
import { sendPage } from '../layout.ts';
import { requireUser } from '../session/guards.ts';
import type { WebRoutesOptions } from '../web-options.ts';
import type { CreatedKey } from '../../accounts/account.service.ts';
import { keysPage } from './keys.pages.ts';

const CreateKeyForm = Type.Object(
  { _csrf: CsrfField, scope: Type.Union([Type.Literal('read'), Type.Literal('write')]) },
  { additionalProperties: false },
);
type CreateKeyForm = Static<typeof CreateKeyForm>;

const KeyParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
// Pages tolerate query parameters they do not know (a shared link may carry some).
const KeysQuery = Type.Object({ revoked: Type.Optional(Type.String({ maxLength: 64 })) });
const NEW_KEY_FLASH = 'api-key';
type KeyParams = Static<typeof KeyParams>;
const RevokeForm = Type.Object({ _csrf: CsrfField }, { additionalProperties: false });

export async function keysRoutes(app: FastifyInstance, options: WebRoutesOptions): Promise<void> {
  const { accounts } = options.services;
  const { flash } = options;
  const config = { access: 'page' } as const;

  app.get<{ Querystring: { revoked?: string } }>(
    '/dashboard/keys',
    { config, schema: { hide: true, querystring: KeysQuery } },
    async (request, reply) => {
      const user = requireUser(request, reply);
      if (!user) return reply;
      // A key just made is shown here once: the flash is gone after this page.
      const created = flash.take(request, reply, NEW_KEY_FLASH) as CreatedKey | undefined;
      const keys = await accounts.listKeysWithUsage(user.id);
      const revoked = keys.find((key) => key.id === request.query.revoked && key.revoked_at !== null)?.id;
      const unconfirmed = verificationNotice(request, user, options.services.mail.verificationRequired);
      return sendPage(reply, keysPage(request, keys, { created, revoked }, unconfirmed));
    },
  );

  // Redirect after POST: the new key goes to the list page sealed in a flash cookie, so a
  // reload shows the list, neither the key again nor a second new key.
  app.post<{ Body: CreateKeyForm }>(
    '/dashboard/keys',
    { config, schema: { hide: true, body: CreateKeyForm } },
    async (request, reply) => {
      const user = requireUser(request, reply);
      if (!user) return reply;
      await options.services.logins.requireVerified(user.id);
      const created = await accounts.createKey(user.id, request.body.scope);
      flash.put(request, reply, NEW_KEY_FLASH, created);
      return reply.redirect('/dashboard/keys#new-key-title', 303);
    },
  );

  app.post<{ Params: KeyParams }>(
    '/dashboard/keys/:id/revoke',
    { config, schema: { hide: true, params: KeyParams, body: RevokeForm } },
    async (request, reply) => {
      const user = requireUser(request, reply);
      if (!user) return reply;
      await accounts.revokeKeyOf(user.id, request.params.id);
      return reply.redirect(`/dashboard/keys?revoked=${encodeURIComponent(request.params.id)}`, 303);
    },
  );
}
