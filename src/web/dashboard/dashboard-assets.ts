// uPlot, the dashboard's chart library, served from node_modules (never a CDN) under /assets/
// beside the app's own files (src/web/assets.routes.ts serves public/ and hls.js). Each name is
// its own route, so nothing else can be asked for. (Once assets.routes.ts lists uPlot among
// its LIBRARIES, this file can go.)
import { createRequire } from 'node:module';
import fs from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';

const resolve = createRequire(import.meta.url).resolve;

const ASSETS: [string, string, string][] = [
  ['uPlot.iife.min.js', resolve('uplot/dist/uPlot.iife.min.js'), 'text/javascript; charset=utf-8'],
  ['uPlot.min.css', resolve('uplot/dist/uPlot.min.css'), 'text/css; charset=utf-8'],
];

export async function dashboardAssetRoutes(app: FastifyInstance): Promise<void> {
  for (const [name, file, type] of ASSETS) {
    // Read once, at start: a few small files, and a missing one stops the start, not a page.
    const content = await fs.readFile(file);
    app.get(
      `/assets/${name}`,
      { config: { access: 'public', rateLimit: false }, schema: { hide: true } },
      async (_request, reply) =>
        reply
          .type(type)
          .header('cache-control', 'public, max-age=300')
          .header('x-content-type-options', 'nosniff')
          .send(content),
    );
  }
}
