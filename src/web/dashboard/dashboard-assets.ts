// The dashboard's client files, served under /assets/ beside the watch page's (hls.js is
// served there already): its own scripts and stylesheet from public/, and uPlot from
// node_modules, never a CDN. Each name is its own route, so nothing else can be asked for.
import { createRequire } from 'node:module';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

const PUBLIC_DIR = path.resolve(import.meta.dirname, '../../../public');
const resolve = createRequire(import.meta.url).resolve;

const ASSETS: [string, string, string][] = [
  ['uPlot.iife.min.js', resolve('uplot/dist/uPlot.iife.min.js'), 'text/javascript; charset=utf-8'],
  ['uPlot.min.css', resolve('uplot/dist/uPlot.min.css'), 'text/css; charset=utf-8'],
  ['dashboard.js', path.join(PUBLIC_DIR, 'dashboard.js'), 'text/javascript; charset=utf-8'],
  ['dashboard-stream.js', path.join(PUBLIC_DIR, 'dashboard-stream.js'), 'text/javascript; charset=utf-8'],
  ['dashboard-video.js', path.join(PUBLIC_DIR, 'dashboard-video.js'), 'text/javascript; charset=utf-8'],
  ['dashboard-webhook.js', path.join(PUBLIC_DIR, 'dashboard-webhook.js'), 'text/javascript; charset=utf-8'],
  ['dashboard.css', path.join(PUBLIC_DIR, 'dashboard.css'), 'text/css; charset=utf-8'],
];

export async function dashboardAssetRoutes(app: FastifyInstance): Promise<void> {
  for (const [name, file, type] of ASSETS) {
    // Read once, at start: a few small files, and a missing one stops the start, not a page.
    const content = await fs.readFile(file);
    app.get(
      `/assets/${name}`,
      { config: { access: 'public' }, schema: { hide: true } },
      async (_request, reply) =>
        reply
          .type(type)
          .header('cache-control', 'public, max-age=300')
          .header('x-content-type-options', 'nosniff')
          .send(content),
    );
  }
}
