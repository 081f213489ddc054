// Sharing a stream or a video beyond the site: the embeddable player (/embed/{id}, the only
// page other sites may frame) and oEmbed (/oembed), which chat apps and CMSs ask after finding
// the discovery link in a watch page's head (src/web/viewer/watch.page.ts).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { embedCode, EMBED_SCRIPTS, escapeHtml, pageInfo, renderEmbedBody } from '../../media/watch-page.ts';
import type { WatchInfo } from '../../media/watch.service.ts';
import { AppError } from '../../shared/errors.ts';
import type { Services } from '../../container.ts';
import { EMBED_PAGE_CSP } from '../csp.ts';
import { EMBED_WIDTH } from '../viewer/watch.page.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) }, { additionalProperties: false });
// Consumers send parameters of their own (oEmbed allows providers to ignore them).
const OembedQuery = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2048 }),
  format: Type.Optional(Type.String({ maxLength: 16 })),
  maxwidth: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  maxheight: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
});

/** The largest 16:9 frame within the consumer's bounds, at most the default size. */
export function embedSize(maxWidth?: number, maxHeight?: number): { width: number; height: number } {
  let width = Math.min(EMBED_WIDTH, maxWidth ?? EMBED_WIDTH);
  if (maxHeight !== undefined) width = Math.min(width, Math.floor((maxHeight * 16) / 9));
  return { width, height: Math.round((width * 9) / 16) };
}

/** The id in one of this site's watch or embed addresses, or undefined for any other URL. */
export function sharedId(url: string, origin: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.origin !== origin) return undefined;
  return /^\/(?:watch|embed)\/((?:str|vid)_[0-9A-Za-z]{1,60})\/?$/.exec(parsed.pathname)?.[1];
}

function embedDocument(info: WatchInfo, body: string): string {
  const scripts = EMBED_SCRIPTS.map((name) => `<script src="/assets/${name}" defer></script>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<meta name="robots" content="noindex" />
<title>${escapeHtml(info.title)} · Tributary</title>
<link rel="stylesheet" href="/assets/embed.css" />
${scripts}
</head>
<body class="embed-page">
${body}</body>
</html>
`;
}

function embedUnavailable(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>Not available · Tributary</title>
<link rel="stylesheet" href="/assets/embed.css" />
</head>
<body class="embed-page">
<main class="embed embed-missing"><h1>This stream or video is not available.</h1></main>
</body>
</html>
`;
}

/** An embed's headers: any site may frame it (no X-Frame-Options); a cache revalidates it. */
function sendEmbed(reply: FastifyReply, document: string, status: number): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('Content-Security-Policy', EMBED_PAGE_CSP)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'strict-origin-when-cross-origin')
    .header('Cache-Control', 'public, no-cache')
    .send(document);
}

export function shareRoutes(services: Services): (app: FastifyInstance) => Promise<void> {
  const { urls, watch } = services;
  return async (app) => {
    app.get<{ Params: { id: string } }>(
      '/embed/:id',
      { config: { access: 'public' }, schema: { hide: true, params: IdParams } },
      async (request, reply) => {
        const info = await watch.find(request.params.id);
        if (!info) return sendEmbed(reply, embedUnavailable(), 404);
        const body = renderEmbedBody(pageInfo(info, urls), {
          info: `/watch/${encodeURIComponent(info.id)}/info`,
          channel: `/channels/${encodeURIComponent(info.creator.id)}`,
          page: urls.streamPage(info.id),
          embed: urls.embedPage(info.id),
        });
        return sendEmbed(reply, embedDocument(info, body), 200);
      },
    );

    // https://oembed.com: 404 when there is nothing to answer for the URL (not this site's,
    // missing, or not public), 501 for a format other than JSON.
    app.get<{ Querystring: { url: string; format?: string; maxwidth?: number; maxheight?: number } }>(
      '/oembed',
      { config: { access: 'public' }, schema: { hide: true, querystring: OembedQuery } },
      async (request, reply) => {
        const { url, format = 'json', maxwidth, maxheight } = request.query;
        if (format !== 'json') {
          throw new AppError('format_not_implemented', 'Only format=json is answered here.', 'format');
        }
        const id = sharedId(url, urls.origin);
        const info = id === undefined ? undefined : await watch.find(id);
        if (!info || info.privacy !== 'public') {
          throw new AppError('resource_not_found', 'No public stream or video has this URL.', 'url');
        }
        const { width, height } = embedSize(maxwidth, maxheight);
        const answer: Record<string, string | number> = {
          version: '1.0',
          type: 'video',
          title: info.title,
          author_name: info.creator.name,
          author_url: `${urls.origin}${urls.basePath}/channels/${encodeURIComponent(info.creator.id)}`,
          provider_name: 'Tributary',
          provider_url: `${urls.origin}${urls.basePath}/`,
          cache_age: 3600,
          html: embedCode(urls.embedPage(info.id), info.title, width, height),
          width,
          height,
        };
        // The thumbnail's size is only stated where it fits the consumer's bounds (oEmbed asks so).
        if (info.thumbnail_url !== null && (maxwidth ?? 640) >= 640 && (maxheight ?? 360) >= 360) {
          Object.assign(answer, {
            thumbnail_url: info.thumbnail_url,
            thumbnail_width: 640,
            thumbnail_height: 360,
          });
        }
        return reply.header('Cache-Control', 'public, max-age=300').send(answer);
      },
    );
  };
}
