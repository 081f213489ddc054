// /assets/:name: the files of public/ that pages load (stylesheets and scripts, found when the
// app starts) and the client libraries they use from node_modules, never a CDN. /favicon.ico
// too, where browsers look for a site's icon whatever the page says. A Map, so a
// name like `__proto__` finds nothing; names come from a directory listing, so none leaves it.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { MediaCache } from '../media/media-cache.ts';
import { sendFile } from '../media/media-files.ts';

const PUBLIC_DIR = path.resolve(import.meta.dirname, '../../public');
const require = createRequire(import.meta.url);

/** Client libraries served from node_modules: add an entry to serve another. */
const LIBRARIES: [string, string][] = [
  ['hls.min.js', 'hls.js/dist/hls.min.js'],
  ['tus.min.js', 'tus-js-client/dist/tus.min.js'],
  ['uPlot.iife.min.js', 'uplot/dist/uPlot.iife.min.js'],
  ['uPlot.min.css', 'uplot/dist/uPlot.min.css'],
];

const SERVED_EXTENSIONS = new Set(['.css', '.js', '.svg']);
const ASSET_CACHE_BYTES = 8 * 1024 * 1024;

function assetFiles(): Map<string, string> {
  const assets = new Map<string, string>();
  for (const name of fs.readdirSync(PUBLIC_DIR)) {
    if (SERVED_EXTENSIONS.has(path.extname(name))) assets.set(name, path.join(PUBLIC_DIR, name));
  }
  for (const [name, module] of LIBRARIES) assets.set(name, require.resolve(module));
  return assets;
}

export async function assetRoutes(app: FastifyInstance): Promise<void> {
  const assets = assetFiles();
  const cache = new MediaCache(ASSET_CACHE_BYTES);
  // Static files from memory, like media: not counted against the per-address request budget
  // (a page and its two or three assets would otherwise cost four requests).
  app.get<{ Params: { name: string } }>(
    '/assets/:name',
    { config: { access: 'public', rateLimit: false }, schema: { hide: true } },
    async (request, reply) => sendFile(request, reply, cache, assets.get(request.params.name), 'asset'),
  );
  // public/favicon.ico is favicon.svg drawn at 16, 32 and 48 px (PNG in an ICO container).
  const favicon = fs.readFileSync(path.join(PUBLIC_DIR, 'favicon.ico'));
  app.get(
    '/favicon.ico',
    { config: { access: 'public', rateLimit: false }, schema: { hide: true } },
    async (_request, reply) =>
      reply.type('image/x-icon').header('Cache-Control', 'public, max-age=86400').send(favicon),
  );
}
