// The profile forms of /account: name, bio and links; the email (with the password); avatar
// and banner uploads, as multipart bodies read in this scope only (at most the image limit and
// a little for the form around it, counted while it arrives) and parsed by the platform's own
// FormData. Each success redirects to the account page (no form is sent again on reload); each
// refusal shows the page with the reason. The images are served by profileImageRoutes.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { drainRefusedBody } from '../../http/body-drain.ts';
import { closeIfBodyUnread, STATUS_BY_CODE } from '../../http/error-handler.ts';
import { sendFile } from '../../media/media-files.ts';
import { MediaCache } from '../../media/media-cache.ts';
import type { Services } from '../../container.ts';
import { PROFILE_IMAGE_MAX_BYTES } from '../../profiles/profile.service.ts';
import { AppError } from '../../shared/errors.ts';
import { CsrfField } from '../auth/auth.schemas.ts';
import { sendPage } from '../layout.ts';
import { requireUser } from '../session/guards.ts';
import type { WebUser } from '../session/types.ts';
import type { WebRoutesOptions } from '../web-options.ts';
import { accountPage } from './account.routes.ts';
import { formRefusal } from '../form-refusal.ts';

/** The form around the image: the boundary lines, the headers of two parts, the token. */
const FORM_OVERHEAD_BYTES = 16 * 1024;

const ProfileForm = Type.Object(
  {
    _csrf: CsrfField,
    name: Type.String({ maxLength: 1000 }),
    bio: Type.Optional(Type.String({ maxLength: 10_000 })),
    links: Type.Optional(Type.String({ maxLength: 10_000 })),
  },
  { additionalProperties: false },
);
const EmailForm = Type.Object(
  {
    _csrf: CsrfField,
    email: Type.String({ maxLength: 1000 }),
    current_password: Type.String({ maxLength: 1000 }),
  },
  { additionalProperties: false },
);

interface ImageBody {
  _csrf?: string;
  image?: Buffer;
}

/** Reads a multipart body up to `limit` bytes; more is refused while it arrives. */
function readBounded(payload: NodeJS.ReadableStream, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    payload.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        reject(new AppError('payload_too_large', 'The image is larger than 5 MB: choose a smaller file.'));
        return;
      }
      chunks.push(chunk);
    });
    payload.on('end', () => {
      if (!done) resolve(Buffer.concat(chunks));
    });
    payload.on('error', (error: Error) => {
      if (!done) reject(error);
    });
  });
}

async function parseImageForm(contentType: string, bytes: Buffer): Promise<ImageBody> {
  let form: FormData;
  try {
    // The body is already read whole and bounded (readBounded), which is what the warning is about.
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    form = await new Response(new Uint8Array(bytes), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new AppError('malformed_request', 'The form could not be read; choose the file and send it again.');
  }
  const body: ImageBody = {};
  const csrf = form.get('_csrf');
  if (typeof csrf === 'string') body._csrf = csrf;
  const image = form.get('image');
  if (image !== null && typeof image !== 'string') body.image = Buffer.from(await image.arrayBuffer());
  return body;
}

export async function profileRoutes(app: FastifyInstance, options: WebRoutesOptions): Promise<void> {
  const { profiles, logins, mail } = options.services;

  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    readBounded(payload, PROFILE_IMAGE_MAX_BYTES + FORM_OVERHEAD_BYTES)
      .catch((error: unknown) => {
        // The rest of a body too large is read and dropped, so the refusal reaches the browser.
        drainRefusedBody(request.raw);
        throw error;
      })
      .then((bytes) => parseImageForm(request.headers['content-type'] ?? '', bytes))
      .then(
        (body) => {
          done(null, body);
        },
        (error: unknown) => {
          done(error as Error);
        },
      );
  });

  /**
   * The account page again, with the refusal; any other error is the error page's, and a script
   * that asks for JSON gets the envelope from the pages' error handler.
   */
  const refused = async (request: FastifyRequest, reply: FastifyReply, user: WebUser, error: unknown) => {
    const refusal = formRefusal(request, reply, error, 900);
    const profile = await profiles.find(user.id);
    if (!profile) throw refusal;
    return sendPage(
      reply,
      accountPage(
        request,
        user,
        profile,
        { kind: 'error', message: refusal.message },
        mail.verificationRequired,
      ),
      STATUS_BY_CODE[refusal.code],
    );
  };

  // A form refused by its body parser (too large, or not a form) never reaches its route: the
  // account page with the reason all the same, as for every other refusal here (`refused` sends
  // a script that asks for JSON on). Anything else goes on to the pages' error handler.
  app.setErrorHandler(async (error: unknown, request, reply) => {
    const user = request.webUser;
    if (!user || !(error instanceof AppError)) throw error;
    if (error.code !== 'payload_too_large' && error.code !== 'malformed_request') throw error;
    closeIfBodyUnread(reply);
    return refused(request, reply, user, error);
  });

  app.post<{ Body: Static<typeof ProfileForm> }>(
    '/account/profile',
    { config: { access: 'page' }, schema: { hide: true, body: ProfileForm } },
    async (request, reply) => {
      const user = requireUser(request, reply);
      if (!user) return reply;
      const { name, bio = '', links = '' } = request.body;
      try {
        await profiles.update(user.id, { name, bio, links });
      } catch (error) {
        return refused(request, reply, user, error);
      }
      return reply.redirect('/account?saved=profile', 303);
    },
  );

  app.post<{ Body: Static<typeof EmailForm> }>(
    '/account/email',
    { config: { access: 'page' }, schema: { hide: true, body: EmailForm } },
    async (request, reply) => {
      const user = requireUser(request, reply);
      if (!user) return reply;
      let pending;
      try {
        pending = await logins.changeEmail(user.id, {
          current: request.body.current_password,
          email: request.body.email,
          verify: mail.verificationRequired,
        });
      } catch (error) {
        return refused(request, reply, user, error);
      }
      if (pending === undefined) return reply.redirect('/account?saved=email', 303);
      // With verification on, the address changes when the link mailed to it is used.
      await mail.enqueue('verify-email', pending.email, {
        name: user.name,
        url: mail.link(`/verify-email/${pending.token}`),
      });
      return reply.redirect('/account?saved=email-link', 303);
    },
  );

  for (const kind of ['avatar', 'banner'] as const) {
    app.post<{ Body: ImageBody }>(
      `/account/${kind}`,
      { config: { access: 'page' }, schema: { hide: true } },
      async (request, reply) => {
        const user = requireUser(request, reply);
        if (!user) return reply;
        const image = (request.body as ImageBody | undefined)?.image;
        try {
          if (image === undefined) throw new AppError('invalid_image', 'Choose an image file to upload.');
          await profiles.acceptImage(user.id, kind, image);
        } catch (error) {
          return refused(request, reply, user, error);
        }
        return reply.redirect(`/account?saved=${kind}`, 303);
      },
    );
  }
}

/** /profiles/<user>/<kind>-<version>-<width>.jpg: a name never changes content, so it is cached for good. */
export function profileImageRoutes(services: Services): (app: FastifyInstance) => Promise<void> {
  const cache = new MediaCache(8 * 1024 * 1024);
  return async (app) => {
    app.get<{ Params: { userId: string; file: string } }>(
      '/profiles/:userId/:file',
      { config: { access: 'public', rateLimit: false }, schema: { hide: true } },
      async (request, reply) =>
        sendFile(
          request,
          reply,
          cache,
          services.profiles.servedFile(request.params.userId, request.params.file),
          'immutable',
        ),
    );
  };
}
